import { connect } from 'node:net';
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

describe("the framework's own refusals", () => {
  /** A raw HTTP exchange: fetch would refuse to send some of these. */
  const raw = (head: string, body = ''): Promise<{ status: number; type: string; json: { error?: { code: string; message: string } } }> =>
    new Promise((resolve, reject) => {
      const { port } = new URL(api.baseUrl);
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(`${head}\r\n\r\n${body}`));
      let answer = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
      socket.on('close', () => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
        const type = /content-type: ([^\r\n]+)/i.exec(answer)?.[1] ?? '';
        const text = answer.slice(answer.indexOf('\r\n\r\n') + 4);
        try {
          resolve({ status, type, json: JSON.parse(text) as { error?: { code: string; message: string } } });
        } catch {
          reject(new Error(`not JSON: ${answer.slice(0, 300)}`));
        }
      });
      socket.on('error', reject);
    });

  it.each([
    ['a bad % escape in the path', 'GET /api/product/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close', 400],
    ['a path parameter over 200 characters', `GET /api/product/${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\nConnection: close`, 414],
    ['another method on /media', 'POST /media/p/1.svg HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close', 404],
    ['an unknown path under /media', 'GET /media/nic HTTP/1.1\r\nHost: x\r\nConnection: close', 404],
    ['headers over 16 KB', `GET /api/home HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close`, 431],
    ['a request that is not HTTP', 'HELLO THERE', 400],
  ])('%s answers %i in the error shape', async (_what, head, status) => {
    const res = await raw(head);
    expect(res.status).toBe(status);
    expect(res.type).toMatch(/^application\/json/);
    expect(res.json.error?.code).toMatch(/^(bad_request|not_found)$/);
    expect(res.json.error?.message).toMatch(/[áäčďéíľĺňóôŕšťúýž]/);
  });

  it('a body over the limit is 413, a truncated multipart complaint 400, a quantity "0x10" 400', async () => {
    const big = await api.request('POST', '/api/checkout/quote', { raw: JSON.stringify({ lines: [], pad: 'x'.repeat(300_000) }) });
    expect(big.status).toBe(413);
    expectErrorShape(big.body, 'bad_request');

    const { token } = await api.login();
    const boundary = '----cut';
    const cut = `--${boundary}\r\nContent-Disposition: form-data; name="orderToken"\r\n\r\nAAAA\r\n--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff`;
    const truncated = await api.request('POST', '/api/account/complaints', { raw: cut, contentType: `multipart/form-data; boundary=${boundary}`, token });
    expect(truncated.status).toBe(400);
    expectErrorShape(truncated.body, 'bad_request');

    const hex = await api.request('POST', '/api/checkout/quote', { raw: '{"lines":[{"v_id":1,"amount":"0x10"}]}' });
    expect(hex.status).toBe(400);
    expectErrorShape(hex.body, 'validation_failed');
  });
});
