import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorShape, startTestApi } from '../helpers/test-api.ts';
import type { TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('error answers', () => {
  it('an unknown API path is a JSON 404', async () => {
    for (const [method, path] of [
      ['GET', '/api/neexistuje'],
      ['POST', '/api/neexistuje/ani/toto'],
      ['DELETE', '/api/menu'],
      ['GET', '/api'],
    ]) {
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
    [
      'a bad % escape in the path',
      400,
      'GET /api/product/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close',
      'Adresa obsahuje neplatné znaky.',
    ],
    [
      'a bad % escape under /media',
      400,
      'GET /media/p/%zz.svg HTTP/1.1\r\nHost: x\r\nConnection: close',
      'Adresa obsahuje neplatné znaky.',
    ],
    [
      'a path parameter over 200 characters',
      414,
      `GET /api/product/${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\nConnection: close`,
      'Adresa je príliš dlhá.',
    ],
    [
      'another method on /media',
      404,
      'POST /media/p/1.svg HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close',
      'Požadovaná adresa neexistuje.',
    ],
    ['an unknown path under /media', 404, 'GET /media/nic HTTP/1.1\r\nHost: x\r\nConnection: close', 'Požadovaná adresa neexistuje.'],
    [
      'headers over 16 KB',
      431,
      `GET /api/home HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close`,
      'Hlavičky požiadavky sú príliš veľké.',
    ],
    [
      'a request line over 16 KB',
      431,
      `GET /api/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close`,
      'Hlavičky požiadavky sú príliš veľké.',
    ],
    ['a request that is not HTTP', 400, 'HELLO THERE', 'Požiadavka nemá platný tvar.'],
    ['an HTTP/1.1 request without Host', 400, 'GET /api/home HTTP/1.1\r\nConnection: close', 'Požiadavka nemá hlavičku Host.'],
    ['an unknown method', 400, 'FOO /api/home HTTP/1.1\r\nHost: x\r\nConnection: close', 'Požiadavka nemá platný tvar.'],
    [
      'a bad chunk size',
      400,
      'POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\n{}\r\n0',
      'Požiadavka nemá platný tvar.',
    ],
  ])('%s answers %i in the error shape', async (_what, status, head, message) => {
    const res = await raw(head);
    expect(res.status).toBe(status);
    expect(res.type).toMatch(/^application\/json/);
    expect(res.json.error?.code).toBe(status === 404 ? 'not_found' : 'bad_request');
    expect(res.json.error?.message).toBe(message);
  });

  it('a malformed multipart complaint is a 400 in the error shape, never a 500', async () => {
    const { token } = await api.login();
    const part = (boundary: string) => `--${boundary}\r\nContent-Disposition: form-data; name="orderToken"\r\n\r\n${'A'.repeat(32)}\r\n`;
    const unreadable = 'Formulár reklamácie sa nepodarilo prečítať. Skúste ho, prosím, odoslať znova.';
    for (const [body, type, status] of [
      [`${part('b')}--b--\r\n`, 'multipart/form-data', 400], // no boundary
      [`${part('b')}--b--\r\n`, 'multipart/form-data; boundary=nope', 400], // not the body's boundary
      [part('b'), 'multipart/form-data; boundary=b', 400], // no closing boundary
      // A part whose header is broken is skipped: the form then lacks its order (404).
      [`${part('b').replace('Content-Disposition', 'Content-Dispo\r\n')}--b--\r\n`, 'multipart/form-data; boundary=b', 404],
    ] as const) {
      const res = await api.request('POST', '/api/account/complaints', { raw: body, contentType: type, token });
      expect(res.status, `${type}: ${res.text}`).toBe(status);
      expectErrorShape(res.body, status === 400 ? 'bad_request' : 'not_found');
      if (status === 400) expect(res.body.error.message).toBe(unreadable);
    }
  });

  it('a body over the limit is 413, a truncated multipart complaint 400, a quantity "0x10" 400', async () => {
    const big = await api.request('POST', '/api/checkout/quote', { raw: JSON.stringify({ lines: [], pad: 'x'.repeat(300_000) }) });
    expect(big.status).toBe(413);
    expectErrorShape(big.body, 'bad_request');

    const { token } = await api.login();
    const boundary = '----cut';
    const cut = `--${boundary}\r\nContent-Disposition: form-data; name="orderToken"\r\n\r\nAAAA\r\n--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff`;
    const truncated = await api.request('POST', '/api/account/complaints', {
      raw: cut,
      contentType: `multipart/form-data; boundary=${boundary}`,
      token,
    });
    expect(truncated.status).toBe(400);
    expectErrorShape(truncated.body, 'bad_request');
    expect(truncated.body.error.message).toBe('Formulár reklamácie sa nepodarilo prečítať. Skúste ho, prosím, odoslať znova.');

    const hex = await api.request('POST', '/api/checkout/quote', { raw: '{"lines":[{"v_id":1,"amount":"0x10"}]}' });
    expect(hex.status).toBe(400);
    expectErrorShape(hex.body, 'validation_failed');
  });

  it('JSON bodies are taken as they are, query strings and path parameters are read into their types', async () => {
    for (const amount of ['"0x10"', '"1e3"', '"5"', '1.5', 'true', '[5]']) {
      const res = await api.request('POST', '/api/checkout/quote', { raw: `{"lines":[{"v_id":1,"amount":${amount}}]}` });
      expect(res.status, amount).toBe(400);
      expectErrorShape(res.body, 'validation_failed');
    }
    const numeric = await api.request('POST', '/api/checkout/quote', { raw: '{"lines":[{"v_id":1,"amount":2}]}' });
    expect(numeric.status).toBe(200);
    const { token } = await api.login();
    const page = await api.get('/api/account/orders?page=1', token);
    expect(page.status).toBe(200);
    const badPage = await api.get('/api/account/orders?page=druha', token);
    expect(badPage.status).toBe(400);
    expectErrorShape(badPage.body, 'validation_failed');
    const missing = await api.request('DELETE', '/api/account/addresses/999999', { token });
    expect(missing.status).toBe(404);
    // Ajv reads "Infinity" and "1e400" as Infinity, past its bounds: refused before the database sees them.
    for (const id of ['druha', 'Infinity', '-Infinity', '1e400']) {
      const badId = await api.request('DELETE', `/api/account/addresses/${id}`, { token });
      expect(badId.status, id).toBe(400);
      expectErrorShape(badId.body, 'validation_failed');
    }
    const image = await api.get('/media/p/Infinity.svg');
    expect(image.status).toBe(400);
    const infinitePage = await api.get('/api/account/orders?page=Infinity', token);
    expect(infinitePage.status).toBe(400);
    const huge = await api.request('POST', '/api/checkout/quote', { raw: '{"lines":[{"v_id":1,"amount":1e400}]}' });
    expect(huge.status).toBe(400);
    expectErrorShape(huge.body, 'validation_failed');
  });
});

describe('the one place error answers are made', () => {
  // Every refusal is thrown (an ApiError) and shaped by the one error handler, which logs and counts
  // it; a reply built by hand would skip both and could drift from the shape.
  const MADE_HERE = new Set(['infra/http/error-handler.ts', 'infra/http/framework-errors.ts', 'infra/http/errors.ts']);
  it('no source file outside the error handler writes an error body itself', () => {
    const src = join(import.meta.dirname, '..', '..', 'src');
    const handBuilt = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !MADE_HERE.has(file.split(sep).join('/')))
      .filter((file) => /\{\s*error:\s*\{\s*code:/.test(readFileSync(join(src, file), 'utf8')));
    expect(handBuilt).toEqual([]);
  });
});
