/**
 * Canaries and previews, on the local directory and on S3 (a real local S3-compatible server,
 * s3rver): a canary puts a version in force for a share of shoppers, blocks other deploys of the
 * area and ends by promote or abort, by hand or by the watchdog on its error rate; a published
 * version is in force for nobody and the preview host reads it from the origin. Every test runs
 * on both storages.
 */
import { describe, expect, it } from 'vitest';
import {
  finishCanary,
  readHistory,
  readRegistry,
  publicRegistry,
  type ReleaseStorage,
  canaryVerdict,
  startCanaryWatch,
  type VersionHealth,
} from '@shop/release';
import { previewedRegistry } from '../../src/web/preview-host.ts';
import { provenance, refusal, releaseBench } from '@shop/release/testing';

let storage: ReleaseStorage;
const { onEveryBackend, deployArea, inForce } = releaseBench((seeded) => (storage = seeded));

onEveryBackend(() => {
  describe('canary releases', () => {
    it('put a version in force for a share of shoppers, block other deploys of the area, and end by promote or abort', async () => {
      const stable = (await inForce())!;
      const canary = await deployArea('checkout', { marker: 'canary' }, { mode: { kind: 'canary', share: 10 } });
      let registry = await readRegistry(storage);
      expect(registry.areas.checkout!.version).toBe(stable);
      expect(registry.canaries?.checkout).toMatchObject({ version: canary.version, share: 10, by: 'test' });
      // Browsers get the canary and its share, not who started it.
      expect(publicRegistry(registry).canaries.checkout).toEqual(expect.not.objectContaining({ by: expect.anything() }));
      expect((await readHistory(storage)).at(-1)).toMatchObject({ action: 'canary', to: canary.version, share: 10 });
      expect((await refusal(deployArea('checkout', { marker: 'other' }))).code).toBe('canary_running');

      await finishCanary({ storage, area: 'checkout', outcome: 'promote', provenance });
      registry = await readRegistry(storage);
      expect(registry.areas.checkout!.version).toBe(canary.version);
      expect(registry.canaries?.checkout).toBeUndefined();

      const second = await deployArea('checkout', { marker: 'canary-2' }, { mode: { kind: 'canary', share: 50 } });
      await finishCanary({ storage, area: 'checkout', outcome: 'abort', provenance: { who: 'ops', reason: 'looks wrong' } });
      registry = await readRegistry(storage);
      expect(registry.areas.checkout!.version).toBe(canary.version);
      expect(registry.canaries?.checkout).toBeUndefined();
      expect((await readHistory(storage)).at(-1)).toMatchObject({
        action: 'abort',
        from: second.version,
        to: canary.version,
        reason: 'looks wrong',
      });
      expect((await refusal(finishCanary({ storage, area: 'checkout', outcome: 'abort', provenance }))).code).toBe('no_canary');
    });

    it('are judged on error rate over a minimum of page views', () => {
      const policy = { minViews: 20, margin: 0.05, intervalMs: 1000 };
      expect(canaryVerdict({ views: 100, errors: 0 }, { views: 19, errors: 19 }, policy)).toBeNull();
      expect(canaryVerdict({ views: 100, errors: 2 }, { views: 40, errors: 2 }, policy)).toBeNull();
      expect(canaryVerdict({ views: 100, errors: 0 }, { views: 20, errors: 10 }, policy)).toContain('50.0 %');
    });

    it('are aborted by the watchdog when their error rate exceeds the stable one, with the reason in the history', async () => {
      const stable = (await inForce())!;
      const canary = (await deployArea('checkout', { marker: 'throws' }, { mode: { kind: 'canary', share: 50 } })).version;
      let rows: VersionHealth[] = [
        { area: 'checkout', version: stable, views: 30, errors: 0 },
        { area: 'checkout', version: canary, views: 3, errors: 3 },
      ];
      const warnings: object[] = [];
      const watch = startCanaryWatch({
        storage,
        health: async () => rows,
        policy: { minViews: 5, margin: 0.05, intervalMs: 60_000 },
        log: { warn: (object) => warnings.push(object), error: () => undefined },
      });
      try {
        expect(await watch.check()).toEqual([]);
        rows = [rows[0]!, { area: 'checkout', version: canary, views: 6, errors: 6 }];
        expect(await watch.check()).toEqual(['checkout']);
      } finally {
        watch.stop();
      }
      expect((await readRegistry(storage)).canaries?.checkout).toBeUndefined();
      const last = (await readHistory(storage)).at(-1)!;
      expect(last).toMatchObject({ action: 'abort', who: 'canary-watch', from: canary, to: stable });
      expect(last.reason).toContain('automatic abort: client error rate 100.0 % over 6 page views');
      expect(warnings).toHaveLength(1);
    });
  });

  describe('preview', () => {
    it('publishes a version in force for nobody, which the preview host reads from the origin', async () => {
      const stable = (await inForce())!;
      const published = await deployArea('checkout', { marker: 'preview' }, { mode: { kind: 'publish' } });
      expect(await inForce()).toBe(stable);
      expect(await storage.exists(`remotes/checkout/${published.version}`)).toBe(true);
      expect((await readHistory(storage)).at(-1)).toMatchObject({ action: 'publish', to: published.version });

      // The preview host reads the published build from the origin (downloaded first from S3).
      const preview = { area: 'checkout' as const, version: published.version, expires: Date.now() + 60_000 };
      const shown = await previewedRegistry(storage, preview, publicRegistry(await readRegistry(storage)));
      expect(shown?.registry.areas.checkout).toMatchObject({
        version: published.version,
        entry: `remotes/checkout/${published.version}/remoteEntry.js`,
      });
    });
  });
});
