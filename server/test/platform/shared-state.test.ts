/**
 * The state servers share through Redis (infra/cache/shared-state.ts), where it does not need a running
 * Redis: what a broadcast message may say, and a shop whose Redis cannot be reached still starts
 * and answers, its limits letting requests pass, in bounded time. Several servers on a real Redis:
 * api/test-cluster/.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessage } from '../../src/infra/cache/shared-state.ts';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

describe('a catalog change heard from another server', () => {
  const self = 'this-server';
  it('is taken when it names everything or some products', () => {
    expect(parseMessage(JSON.stringify({ from: 'other', change: { kind: 'all' } }), self)).toEqual({ kind: 'all' });
    expect(parseMessage(JSON.stringify({ from: 'other', change: { kind: 'products', ids: [3, 7] } }), self)).toEqual({
      kind: 'products',
      ids: [3, 7],
    });
  });

  it('is ignored when it is our own, malformed or names no products properly', () => {
    expect(parseMessage(JSON.stringify({ from: self, change: { kind: 'all' } }), self)).toBeNull();
    expect(parseMessage('not json', self)).toBeNull();
    expect(parseMessage(JSON.stringify({ from: 'other', change: { kind: 'products', ids: ['7'] } }), self)).toBeNull();
    expect(parseMessage(JSON.stringify({ from: 'other', change: { kind: 'drop-tables' } }), self)).toBeNull();
    expect(parseMessage('null', self)).toBeNull();
  });

  it('too long to read is taken as a change of everything', () => {
    expect(parseMessage(' '.repeat(70_000), self)).toEqual({ kind: 'all' });
  });
});

describe('a shop whose Redis cannot be reached', () => {
  let api: TestApi;
  beforeAll(async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    api = await startTestApi({ redisUrl: `redis://127.0.0.1:${port}`, contactRateLimit: { max: 2, timeWindowMs: 60_000 } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('starts, serves the catalog, and lets rate-limited requests pass within a second', async () => {
    expect((await api.get('/api/site')).status).toBe(200);
    const message = { name: 'Ján Test', email: 'jan@example.sk', message: 'Dobrý deň, máte na sklade tehly?' };
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      expect((await api.post('/api/contact', message)).status).toBe(201);
      expect(Date.now() - started).toBeLessThan(1_500);
    }
  });
});
