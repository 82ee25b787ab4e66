import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opsRoutes } from '../src/routes/ops/index.ts';
import { deploy } from '../src/release/releases.ts';
import { readRegistry } from '../src/release/registry.ts';
import { localDirectoryStorage } from '../src/release/storage.ts';
import { fakeAreaBuild, fakeShellBuild } from './helpers/fake-builds.ts';

const token = 'operator-secret-token';
const origin = mkdtempSync(join(tmpdir(), 'ops-origin-'));
const storage = localDirectoryStorage(origin);
const app = Fastify();
let base = '';

beforeAll(async () => {
  for (const marker of ['one', 'two']) {
    await deploy({ storage, part: 'checkout', distDir: fakeAreaBuild('checkout', { marker }), packageVersion: '1.0.0', who: 'team' });
  }
  await deploy({ storage, part: 'shell', distDir: fakeShellBuild({ checkout: ['./CartPage'] }), packageVersion: '1.0.0', who: 'team' });
  await app.register(opsRoutes, { prefix: '/api/ops', originDir: origin, operatorToken: token });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  rmSync(origin, { recursive: true, force: true });
});

const call = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${base}/api/ops${path}`, {
    ...init,
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });

describe('operator calls', () => {
  it('refuse a missing or wrong token with the error shape', async () => {
    for (const given of [undefined, 'wrong', `${token}x`]) {
      const response = await call('/releases', { token: given });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: 'unauthorized', message: 'Chýba platný operátorský token.' } });
    }
  });

  it('show the versions in force and the history', async () => {
    const response = await call('/releases', { token });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { parts: { part: string; version: string | null }[]; history: unknown[] } };
    const registry = await readRegistry(storage);
    expect(data.parts.find((part) => part.part === 'checkout')?.version).toBe(registry.areas.checkout!.version);
    expect(data.history).toHaveLength(3);
  });

  it('roll an area back, and answer 409 with the reason when there is nothing to roll back to', async () => {
    const before = (await readRegistry(storage)).areas.checkout!.version;
    const rolled = await call('/releases/checkout/rollback', { method: 'POST', token, body: '{}' });
    expect(rolled.status).toBe(200);
    const { data } = (await rolled.json()) as { data: { from: string; version: string } };
    expect(data.from).toBe(before);
    expect((await readRegistry(storage)).areas.checkout!.version).toBe(data.version);

    const refused = await call('/releases/catalog/rollback', { method: 'POST', token, body: '{}' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('conflict');
    expect((await call('/releases/nothing/rollback', { method: 'POST', token, body: '{}' })).status).toBe(404);
  });
});
