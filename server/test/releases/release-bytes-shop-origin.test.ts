/**
 * The shop's own server and released files: it sends none by a /remotes/… or /shells/… path in any
 * spelling, and as the areas' fallback origin it sends a released file by its canonical path only,
 * with the signed bytes, refusing a changed one and every other spelling (404 in the error shape).
 * On the local directory; its subject is HTTP and files, so the PostgreSQL pass leaves it out
 * (vitest.config.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseIntegrity } from '@shop/release';
import { errorHandler } from '../../src/infra/http/error-handler.ts';
import { shellHost } from '../../src/web/shell-host.ts';
import { releasedFilesOnShopOrigin } from '../../src/web/static-origin.ts';
import { nonCanonical, rawGet } from '../helpers/path-spellings.ts';
import { releasedOrigins, type Origin } from '../helpers/released-origins.ts';
import { shellHostOptions } from '../helpers/shell-host-options.ts';

const bytes = releasedOrigins(['local']);
const { origins, trustedKeys, servedFile } = bytes;

beforeAll(async () => {
  await bytes.start();
});
afterAll(bytes.stop);

/** The shop's server on `origin` as server.ts builds it (as the areas' fallback origin too, if asked), listening. */
async function shopServer(origin: Origin, { fallback }: { fallback: boolean }) {
  const app = Fastify();
  app.setErrorHandler(errorHandler);
  if (fallback) await releasedFilesOnShopOrigin(app, { storage: origin.storage, check: origin.check });
  await app.register(
    shellHost,
    shellHostOptions({
      storage: origin.storage,
      integrity: releaseIntegrity({ storage: origin.storage, keys: trustedKeys }),
      pageCacheMs: 0,
      serverRender: false,
      check: origin.check,
    }),
  );
  return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

describe("the shop's own server", () => {
  it('sends no released file by a /remotes/… or /shells/… path in any spelling: 404 in the error shape', async () => {
    const origin = origins.local!;
    const { app, base } = await shopServer(origin, { fallback: false });
    try {
      const paths = [
        `/remotes/checkout/${origin.checkout}/remoteEntry.js`,
        ...nonCanonical(origin.checkout, origin.shell).filter((path) => /^\/(remotes|shells)(\/|\\|$)/i.test(path)),
        `/shells/shell/${origin.shell}/index.html`,
      ];
      for (const path of paths) {
        const answer = await rawGet(base, path);
        expect(answer.status, path).toBe(404);
        expect((JSON.parse(answer.body) as { error: { code: string } }).error.code, path).toBe('not_found');
      }
    } finally {
      await app.close();
    }
  });
});

describe("the shop's own origin as the areas' fallback", () => {
  it('sends a released file by its canonical path only, with the signed bytes, and refuses a changed one and every other spelling', async () => {
    const origin = origins.local!;
    const { app, base } = await shopServer(origin, { fallback: true });
    try {
      const canonical = `/remotes/checkout/${origin.checkout}/remoteEntry.js`;
      const sent = await rawGet(base, canonical);
      expect(sent.status).toBe(200);
      expect(sent.body).toBe(readFileSync(servedFile(origin, 'remoteEntry.js'), 'utf8'));
      for (const path of nonCanonical(origin.checkout, origin.shell).filter((path) => /^\/(remotes|shells)(\/|\\|$)/i.test(path))) {
        const answer = await rawGet(base, path);
        expect(answer.status, path).toBe(404);
        expect((JSON.parse(answer.body) as { error: { code: string } }).error.code, path).toBe('not_found');
      }
      // The same bytes the asset origin would refuse: changed in place, the shop's origin refuses them too.
      const file = servedFile(origin, 'remoteEntry.js');
      const kept = readFileSync(file);
      try {
        writeFileSync(file, `${kept.toString('utf8')}\n;globalThis.changed = true;`);
        const refused = await rawGet(base, canonical);
        expect(refused.status).toBe(404);
        expect((JSON.parse(refused.body) as { error: { message: string } }).error.message).toBe('Súbor sa nezhoduje s podpísaným vydaním.');
      } finally {
        writeFileSync(file, kept);
      }
    } finally {
      await app.close();
    }
  });
});
