/**
 * The integrity watch (PCI DSS 11.6.1): it finds one byte changed in a released chunk, records and
 * counts it, and puts the part back on its last intact version (pinned), after which a rollback to
 * the changed version is refused; it finds a changed compressed copy (with the alert-only policy it
 * records the difference and moves nothing) and a checkout page answering without its security
 * headers; its findings are shown on /ops to a signed-in operator, never to an area team.
 * On SQLite and PostgreSQL (DATABASE_URL).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrityFindings } from '../../src/domains/releases/integrity-findings.repository.ts';
import { startIntegrityWatch, type IntegrityPolicy } from '../../src/domains/releases/integrity-watch.ts';
import { releaseIntegrity, deploy, rollback, readHistory, readRegistry } from '@shop/release';
import { releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import { cartRoute, fakeAreaBuild } from '@shop/release/testing';
import { signedShop } from '../helpers/signed-shop.ts';
import type { TestApi } from '../helpers/test-api.ts';

const shop = signedShop();
const { storage, shopKey, app, registryBytes, versionDir } = shop;
let api: TestApi;
/** The operator origin: the console's calls. */
let opsBase = '';
let checkoutTeam = '';

beforeAll(async () => {
  ({ api, opsBase, checkoutTeam } = await shop.start());
});
afterAll(shop.stop);

describe('the integrity watch', () => {
  const watchWith = (policy: IntegrityPolicy, checkoutPageUrl: string | null = null) => {
    const keys = releaseKeys(api.db);
    return startIntegrityWatch({
      storage,
      integrity: releaseIntegrity({ storage, keys: () => keys.trusted() }),
      findings: integrityFindings(api.db),
      policy,
      log: app.log,
      checkoutPageUrl,
      scheduled: false,
    });
  };
  const findings = () => integrityFindings(api.db).recent(50);

  it('finds one byte changed in a released chunk, records it, and puts the part back on its last intact version (pinned)', async () => {
    const intact = (
      await deploy({
        storage,
        part: 'checkout',
        distDir: fakeAreaBuild('checkout', { marker: 'w-intact', routes: [cartRoute] }),
        packageVersion: '1.0.0',
        provenance: { who: 'ci' },
        signingKey: shopKey,
      })
    ).version;
    const tampered = (
      await deploy({
        storage,
        part: 'checkout',
        distDir: fakeAreaBuild('checkout', { marker: 'w-tampered', routes: [cartRoute] }),
        packageVersion: '1.0.0',
        provenance: { who: 'ci' },
        signingKey: shopKey,
      })
    ).version;
    const chunk = join(versionDir('checkout', tampered), 'assets', 'page.js');
    const bytes = readFileSync(chunk);
    bytes[0] = bytes[0]! ^ 1;
    writeFileSync(chunk, bytes);
    const watch = watchWith({ intervalMs: 60_000, action: 'fallback' });
    await watch.checkNow();
    watch.stop();
    const registry = await readRegistry(storage);
    expect(registry.areas.checkout!.version).toBe(intact);
    expect(registry.pins?.checkout).toMatchObject({ version: intact, by: 'kontrola integrity' });
    expect((await readHistory(storage)).at(-1)).toMatchObject({
      part: 'checkout',
      action: 'rollback',
      from: tampered,
      to: intact,
      who: 'kontrola integrity',
    });
    expect(await findings()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ part: 'checkout', version: tampered, subject: 'assets/page.js', kind: 'file', action: 'fallback' }),
      ]),
    );
    // Counted in the metrics, from the database (every server reports the same), with the time of the check.
    const metrics = (await api.metrics()).text;
    expect(Number(/shop_release_integrity_findings_total\{part="checkout",kind="file"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(
      1,
    );
    expect(Number(/^shop_release_integrity_last_check_timestamp_seconds (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(
      Date.now() / 1000 - 60,
    );
    // A rollback to the tampered version is refused as long as its files differ.
    await expect(
      rollback({
        storage,
        part: 'checkout',
        to: tampered,
        provenance: { who: 'ops' },
        integrity: releaseIntegrity({ storage, keys: () => releaseKeys(api.db).trusted() }),
      }),
    ).rejects.toMatchObject({ code: 'tampered' });
  });

  it('finds a changed compressed copy; with the alert-only policy it records the difference and moves nothing', async () => {
    await fetch(`${opsBase}/api/ops/releases/checkout/unpin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${checkoutTeam}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const version = (
      await deploy({
        storage,
        part: 'checkout',
        distDir: fakeAreaBuild('checkout', { marker: 'w-br', routes: [cartRoute], pageBytes: 200 }),
        packageVersion: '1.0.0',
        provenance: { who: 'ci' },
        signingKey: shopKey,
      })
    ).version;
    writeFileSync(join(versionDir('checkout', version), 'assets', 'page.js.br'), brotliCompressSync(Buffer.from('export default "evil";')));
    const before = registryBytes();
    const watch = watchWith({ intervalMs: 60_000, action: 'alert' });
    await watch.checkNow();
    watch.stop();
    expect(registryBytes()).toBe(before);
    expect(await findings()).toEqual(
      expect.arrayContaining([expect.objectContaining({ version, subject: 'assets/page.js.br', action: 'alert' })]),
    );
  });

  it('finds a checkout page answering without its security headers', async () => {
    const bare = createServer((_request, response) => response.end('<!doctype html>'));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const port = (bare.address() as { port: number }).port;
    const watch = watchWith({ intervalMs: 60_000, action: 'fallback' }, `http://127.0.0.1:${port}/checkout/cart`);
    await watch.checkNow();
    watch.stop();
    bare.close();
    const headers = (await findings()).filter((row) => row.kind === 'headers');
    expect(headers.map((row) => row.subject)).toEqual(
      expect.arrayContaining(['/checkout/cart: content-security-policy: chýba', '/checkout/cart: x-frame-options: chýba']),
    );
  });

  it('are shown on /ops to a signed-in operator (file, version, what was done), never to an area team', async () => {
    const operator = await api.operator();
    const shown = await fetch(`${opsBase}/api/ops/integrity`, { headers: { cookie: operator.cookie } });
    expect(shown.status).toBe(200);
    const { data } = (await shown.json()) as {
      data: { findings: { part: string; subject: string; action: string; expected: string | null }[] };
    };
    expect(data.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          part: 'checkout',
          subject: 'assets/page.js',
          action: 'fallback',
          expected: expect.stringMatching(/^sha384-/),
        }),
      ]),
    );
    expect((await fetch(`${opsBase}/api/ops/integrity`, { headers: { authorization: `Bearer ${checkoutTeam}` } })).status).toBe(403);
  });
});
