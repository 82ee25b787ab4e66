import { describe, expect, it } from 'vitest';
import { createFakeFetch } from './fake-fetch.ts';

describe('createFakeFetch', () => {
  it('records calls and answers from handlers', async () => {
    const fake = createFakeFetch();
    fake.on('POST /api/x', (call) => ({ body: { echo: call.body } }));
    const res = await fake('/api/x?a=1', { method: 'POST', body: JSON.stringify({ b: 2 }) });
    expect(await res.json()).toEqual({ echo: { b: 2 } });
    expect(fake.calls).toEqual([{ method: 'POST', url: '/api/x?a=1', path: '/api/x', query: { a: '1' }, headers: {}, body: { b: 2 } }]);
    expect(fake.callsTo('POST /api/x')).toHaveLength(1);
  });
  it('answers 404 without a handler and throws Error answers', async () => {
    const fake = createFakeFetch();
    expect((await fake('/api/none')).status).toBe(404);
    fake.on('GET /api/down', new TypeError('fetch failed'));
    await expect(fake('/api/down')).rejects.toThrow('fetch failed');
    fake.reset();
    expect(fake.calls).toEqual([]);
  });
});
