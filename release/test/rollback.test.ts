/**
 * Rollbacks, pins and retention, on the local directory and on S3 (a real local S3-compatible
 * server, s3rver): a rollback goes back to the version before the current one (skipping versions
 * rolled back from) and pins it there; a pinned part stays put until unpinned or overridden; an
 * unknown version or a part with nothing to go back to is refused; the origin keeps the last N
 * versions, never the one in force, its pin or its rollback target. Every test runs on both storages.
 */
import { describe, expect, it } from 'vitest';
import { deploy, deploySet, prune, rollback, setPin, status, readHistory, readRegistry, type ReleaseStorage } from '../src/index.ts';
import { fakeAreaBuild, provenance, refusal, releaseBench } from './support/index.ts';

let storage: ReleaseStorage;
const { onEveryBackend, deployArea, snapshot, inForce } = releaseBench((seeded) => (storage = seeded));

onEveryBackend(() => {
  describe('rollback', () => {
    it('goes back to the version before, pins it there, and a second rollback needs a named version', async () => {
      const v1 = (await inForce())!;
      const v2 = (await deployArea('checkout', { marker: 'v2' })).version;
      const back = await rollback({ storage, part: 'checkout', provenance: { who: 'night-ops', reason: 'basket throws' } });
      expect(back).toMatchObject({ from: v2, version: v1, changed: true });
      const registry = await readRegistry(storage);
      expect(registry.areas.checkout!.version).toBe(v1);
      expect(registry.pins?.checkout).toMatchObject({ version: v1, by: 'night-ops', reason: 'basket throws' });
      expect((await readHistory(storage)).at(-1)).toMatchObject({ action: 'rollback', from: v2, to: v1, reason: 'basket throws' });

      const before = await snapshot();
      const again = await refusal(rollback({ storage, part: 'checkout', provenance }));
      expect(again.code).toBe('rollback_needs_version');
      expect(await snapshot()).toEqual(before);
      // Named, it goes anywhere on the origin.
      expect((await rollback({ storage, part: 'checkout', to: v2, provenance })).version).toBe(v2);
    });

    it('keeps a pinned part where it is: deploys are refused, `deploy all --only-new` leaves it, an override or unpin frees it', async () => {
      const v1 = (await inForce())!;
      const bad = fakeAreaBuild('checkout', { marker: 'bad' });
      const v2 = (await deploy({ storage, part: 'checkout', distDir: bad, packageVersion: '1.0.0', provenance })).version;
      await rollback({ storage, part: 'checkout', provenance });
      const pinned = await snapshot();

      // A restart (npm start) releases the working tree's builds: the pinned part and the build rolled back from stay put.
      const restart = await deploySet({
        storage,
        provenance,
        onlyNew: true,
        parts: [{ part: 'checkout', distDir: bad, packageVersion: '1.0.0' }],
      });
      expect(restart[0]).toMatchObject({ changed: false, version: v2 });
      expect(restart[0]!.left).toContain(`pinned at ${v1}`);
      expect(await snapshot()).toEqual(pinned);

      const fixed = fakeAreaBuild('checkout', { marker: 'fixed' });
      expect((await refusal(deploy({ storage, part: 'checkout', distDir: fixed, packageVersion: '1.0.0', provenance }))).code).toBe(
        'pinned',
      );
      expect(await snapshot()).toEqual(pinned);

      await setPin({ storage, part: 'checkout', pinned: false, provenance });
      // Unpinned, a restart still does not bring back the build that was rolled back from …
      const unpinned = await deploySet({
        storage,
        provenance,
        onlyNew: true,
        parts: [{ part: 'checkout', distDir: bad, packageVersion: '1.0.0' }],
      });
      expect(unpinned[0]!.left).toContain('released before');
      expect(await inForce()).toBe(v1);
      // … but a new build moves.
      const v3 = (
        await deploySet({ storage, provenance, onlyNew: true, parts: [{ part: 'checkout', distDir: fixed, packageVersion: '1.0.0' }] })
      )[0]!;
      expect(v3).toMatchObject({ changed: true, from: v1 });

      await rollback({ storage, part: 'checkout', provenance });
      const override = await deployArea('checkout', { marker: 'override' }, { overridePin: true });
      expect(override.changed).toBe(true);
      expect((await readRegistry(storage)).pins?.checkout).toBeUndefined();
      const { parts } = await status(storage);
      expect(parts.find((part) => part.part === 'checkout')?.pin).toBeNull();
    });

    it('skips versions that were rolled back from', async () => {
      const v1 = (await inForce())!;
      const v2build = fakeAreaBuild('checkout', { marker: 'v2' });
      const v3build = fakeAreaBuild('checkout', { marker: 'v3' });
      await deploy({ storage, part: 'checkout', distDir: v2build, packageVersion: '1.0.0', provenance });
      const v3 = (await deploy({ storage, part: 'checkout', distDir: v3build, packageVersion: '1.0.0', provenance })).version;
      await rollback({ storage, part: 'checkout', provenance }); // v3 → v2
      await rollback({ storage, part: 'checkout', to: v1, provenance }); // v2 failed too → v1
      await setPin({ storage, part: 'checkout', pinned: false, provenance });
      await deploy({ storage, part: 'checkout', distDir: v3build, packageVersion: '1.0.0', provenance }); // v3, fixed elsewhere, again
      expect(await inForce()).toBe(v3);
      const { parts } = await status(storage);
      expect(parts.find((part) => part.part === 'checkout')!.rollback).toMatchObject({ version: v1, by: 'test' });
      expect((await rollback({ storage, part: 'checkout', provenance })).version).toBe(v1);
    });

    it('refuses an unknown version and a part with nothing to roll back to', async () => {
      const before = await snapshot();
      expect((await refusal(rollback({ storage, part: 'checkout', to: '9.9.9-0000000000', provenance }))).code).toBe('unknown_version');
      expect((await refusal(rollback({ storage, part: 'catalog', provenance }))).code).toBe('nothing_to_roll_back');
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('retention', () => {
    it('keeps the last N versions and never the one in force, its pin or its rollback target', async () => {
      const versions: string[] = [(await inForce())!];
      for (const marker of ['b', 'c', 'd', 'e']) versions.push((await deployArea('checkout', { marker }, { keep: 10 })).version);
      const removed = await prune(storage, 'checkout', 2);
      expect(removed.sort()).toEqual(versions.slice(0, 3).sort());
      expect((await storage.list('remotes/checkout')).sort()).toEqual(versions.slice(3).sort());
      const { parts } = await status(storage);
      expect(parts.find((part) => part.part === 'checkout')).toMatchObject({
        version: versions[4],
        versionsKept: versions.slice(3).sort(),
      });
    });
  });
});
