/**
 * The registry in force is the database's, on SQLite and PostgreSQL (DATABASE_URL): it has a
 * revision that only grows, and the origin's `builds/latest.json` and `builds/history.jsonl` are
 * only its export:
 * - an origin writer who puts an older signed version back in latest.json (or edits history.jsonl)
 *   changes nothing a shopper gets; the server records a finding and writes the export over;
 * - the release tool's direct-origin moves are signed requests the server verifies, applies once,
 *   against the revision in force (also when two processes read one at once); two release commands
 *   at once both land, one after the other.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  generateSigningKey,
  outcomeKey,
  readSigningKey,
  setPin,
  signMoveRequest,
  submitMoveRequest,
  type MoveOutcome,
  type Registry,
  type SigningKey,
} from '@shop/release';
import { releaseIdentities } from '../../src/domains/releases/identities.repository.ts';
import { releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import { registryBook, type TrustedRegistry } from '../../src/domains/releases/registry.repository.ts';
import { watchMoveRequests, type MoveRequestsWatch } from '../../src/domains/releases/move-requests.ts';
import { cartRoute, fakeAreaBuild } from '@shop/release/testing';
import type { TestApi } from '../helpers/test-api.ts';
import { signedShop } from '../helpers/signed-shop.ts';

const shop = signedShop({ registryInDatabase: true });
const { originDir, storage, shopKey, log, release, requestMove, inForce, exported, auditRows } = shop;
let api: TestApi;
let book: TrustedRegistry;
let requests: MoveRequestsWatch;
let base = '';
let checkoutKey: SigningKey;

beforeAll(async () => {
  ({ api, book, requests, base, checkoutKey } = await shop.start());
});
afterAll(shop.stop);

describe('the registry in force is the database’s, the origin’s files only its export', () => {
  it('an older signed version put back in latest.json, or an edited history, changes nothing a shopper gets; it is a finding and is written over', async () => {
    const older = await inForce();
    const newer = (await release('two')).version;
    expect(exported().areas.checkout.version).toBe(newer);
    // The origin writer points the part back at the older, still signed version, with a revision ahead of the real one.
    const forged = JSON.parse(readFileSync(join(originDir, 'builds', 'latest.json'), 'utf8')) as Registry;
    forged.revision = '9999';
    forged.areas.checkout = { ...forged.areas.checkout!, version: older, entry: `remotes/checkout/${older}/remoteEntry.js` };
    writeFileSync(join(originDir, 'builds', 'latest.json'), JSON.stringify(forged, null, 2));
    appendFileSync(
      join(originDir, 'builds', 'history.jsonl'),
      `${JSON.stringify({ at: new Date().toISOString(), part: 'checkout', action: 'rollback', from: newer, to: older, who: 'spravca', reason: null, commit: null, dirty: null })}\n`,
    );

    const served = (await (await fetch(`${base}/builds/latest.json`)).json()) as {
      revision: string;
      areas: { checkout: { version: string } };
    };
    expect(served.areas.checkout.version).toBe(newer);
    expect(served.revision).toBe((await book.read()).revision);
    const page = await (await fetch(`${base}/`)).text();
    expect(page).toContain(`remotes/checkout/${newer}/`);
    expect(page).not.toContain(`remotes/checkout/${older}/`);
    expect(await inForce()).toBe(newer);

    // Looked at twice (a single look may catch another server writing its export), then recorded and written over.
    await requests.pass();
    await requests.pass();
    const findings = await api.db.selectFrom('release_integrity_findings').selectAll().where('kind', '=', 'registry').execute();
    expect(findings.map((finding) => finding.subject)).toContain('builds/latest.json');
    expect(exported().areas.checkout.version).toBe(newer);
    expect(exported().revision).toBe((await book.read()).revision);
    expect(readFileSync(join(originDir, 'builds', 'history.jsonl'), 'utf8')).not.toContain('"who":"spravca"');
  });

  it('applies a move request signed with a trusted key once; another key, a replay or a stale revision is refused and moves nothing', async () => {
    const before = await inForce();
    const strangerKey = readSigningKey(generateSigningKey().privateKeyPem);
    const stranger = await requestMove({ op: 'pin', part: 'checkout' }, strangerKey);
    expect(stranger).toMatchObject({ ok: false, code: 'bad_signature' });
    const stale = await requestMove({ op: 'pin', part: 'checkout' }, shopKey, '1');
    expect(stale).toMatchObject({ ok: false, code: 'registry_moved' });
    // The team's key may move its own area only.
    const teamOnShell = await requestMove({ op: 'pin', part: 'shell' }, checkoutKey);
    expect(teamOnShell).toMatchObject({ ok: false, code: 'bad_signature' });
    expect((await book.read()).pins?.checkout).toBeUndefined();

    const signed = signMoveRequest(shopKey, {
      baseRevision: (await book.read()).revision,
      command: { op: 'pin', part: 'checkout' },
      provenance: { who: 'owner-tool' },
    });
    await submitMoveRequest(storage, signed, { waitMs: 0 });
    await requests.pass();
    expect((await book.read()).pins?.checkout).toMatchObject({ version: before, by: 'owner-tool' });
    // The same request put back on the origin: refused as a replay.
    await submitMoveRequest(storage, signed, { waitMs: 0 });
    await requests.pass();
    const history = await book.history();
    expect(history.filter((move) => move.action === 'pin')).toHaveLength(1);
    const refusedRequests = (await auditRows()).filter((row) => row.action === 'move-request' && row.allowed === 0);
    expect(refusedRequests.length).toBeGreaterThanOrEqual(4);
    expect(refusedRequests.at(-1)!.detail).toContain('replay');
    await setPin({ storage, book, part: 'checkout', pinned: false, provenance: { who: 'test' } });
  });

  it('a request two processes read at once is applied once, and the waiting command is told it was', async () => {
    // Another process that runs background work (a second worker, or a server starting): its own
    // cache of the registry, the same database and origin.
    const other = watchMoveRequests({
      storage,
      book: registryBook(api.db),
      keys: releaseKeys(api.db),
      integrity: null,
      identities: releaseIdentities(api.db),
      findings: null,
      log,
      scheduled: false,
    });
    const pinsBefore = (await book.history()).filter((move) => move.action === 'pin').length;
    // Every outcome written, in order: the waiting command reads the first one it finds.
    const answers: MoveOutcome[] = [];
    const write = storage.writeTextAtomic.bind(storage);
    const watched = vi.spyOn(storage, 'writeTextAtomic').mockImplementation(async (key, text) => {
      if (key.endsWith('.outcome.json')) answers.push(JSON.parse(text) as MoveOutcome);
      return write(key, text);
    });
    try {
      for (let round = 0; round < 5; round += 1) {
        const signed = signMoveRequest(shopKey, {
          // As the command asks: the revision in force (this process's reused read may be the other's move behind).
          baseRevision: await book.revisionNow(),
          command: { op: round % 2 === 0 ? 'pin' : 'unpin', part: 'checkout' },
          provenance: { who: 'owner-tool' },
        });
        const { signedAt, nonce } = JSON.parse(signed.text) as { signedAt: string; nonce: string };
        await submitMoveRequest(storage, signed, { waitMs: 0 });
        await Promise.all([requests.pass(), other.pass()]);
        const outcome = JSON.parse((await storage.readText(outcomeKey(`${Date.parse(signedAt)}-${nonce}.json`)))!) as MoveOutcome;
        expect(outcome, `round ${round}: ${JSON.stringify(outcome)}`).toMatchObject({ ok: true });
      }
      expect((await book.history()).filter((move) => move.action === 'pin')).toHaveLength(pinsBefore + 3);
      expect(answers.filter((answer) => !answer.ok)).toEqual([]);
    } finally {
      watched.mockRestore();
      // Unpinned whatever the last round did (a move reads the state in force; this process's reused
      // read may not show the last pin yet). Not pinned: refused, nothing to undo.
      await setPin({ storage, book, part: 'checkout', pinned: false, provenance: { who: 'test' } }).catch((error: unknown) => {
        if (!(error instanceof Error && 'code' in error && error.code === 'not_pinned')) throw error;
      });
    }
  });

  it('two release commands on the origin at once both land, one after the other, in one consistent history', async () => {
    const scheduled = watchMoveRequests({
      storage,
      book,
      keys: releaseKeys(api.db),
      integrity: null,
      identities: releaseIdentities(api.db),
      findings: null,
      log,
      scheduled: true,
    });
    try {
      const start = await inForce();
      const builds = [
        fakeAreaBuild('checkout', { marker: 'left', routes: [cartRoute] }),
        fakeAreaBuild('checkout', { marker: 'right', routes: [cartRoute] }),
      ];
      const run = (dist: string) =>
        new Promise<{ code: number; output: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            ['--import', 'tsx', '../release/src/cli.ts', 'deploy', 'checkout', '--dist', dist, '--origin', originDir],
            {
              cwd: join(import.meta.dirname, '..', '..'),
              env: {
                ...process.env,
                S3_BUCKET: '',
                RELEASE_USER: 'team',
                RELEASE_SIGNING_KEY: shopKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
              },
            },
          );
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('exit', (code) => resolve({ code: code ?? 1, output }));
        });
      const results = await Promise.all(builds.map(run));
      for (const result of results) expect(result.code, result.output).toBe(0);
      const moves = (await book.history()).filter((entry) => entry.part === 'checkout' && entry.action === 'deploy').slice(-2);
      expect(moves[0]!.from).toBe(start);
      expect(moves[1]!.from).toBe(moves[0]!.to);
      expect(moves.map((move) => move.who)).toEqual(['team', 'team']);
      expect(await inForce()).toBe(moves[1]!.to);
      expect(exported().areas.checkout.version).toBe(moves[1]!.to);
    } finally {
      scheduled.stop();
    }
  }, 90_000);
});
