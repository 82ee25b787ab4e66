import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorShape, startTestApi } from './helpers/test-api.ts';
import type { TestApi } from './helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('error answers', () => {
  it('an unknown API path is a JSON 404', async () => {
    for (const [method, path] of [['GET', '/api/neexistuje'], ['POST', '/api/neexistuje/ani/toto'], ['DELETE', '/api/menu'], ['GET', '/api']]) {
      const res = await api.request(method!, path!);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expectErrorShape(res.body, 'not_found');
    }
  });

  it('malformed JSON is a 400, not a 500', async () => {
    const res = await api.request('POST', '/api/product/variant/detail', { raw: '{"v_id": 1,' });
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 'bad_request');
    const empty = await api.request('POST', '/api/account/login', { raw: '' });
    expect(empty.status).toBe(400);
    expectErrorShape(empty.body, 'bad_request');
  });

  it('an unsupported content type is a 4xx with the error shape', async () => {
    const res = await api.request('POST', '/api/account/login', { raw: 'email=a', contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
    expectErrorShape(res.body, 'bad_request');
  });

  it('a body that is not an object fails validation with 400', async () => {
    const res = await api.request('POST', '/api/account/login', { raw: 'hello', contentType: 'text/plain' });
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 'validation_failed');
  });
});
