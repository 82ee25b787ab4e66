/**
 * A slow client cannot hold a connection: headers and whole requests have deadlines (here shortened
 * from the production 10 s and 30 s), and the refusal is a 408 in the API's error shape.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/test-api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ timeouts: { headersTimeout: 800, requestTimeout: 1500, connectionTimeout: 5000 } });
});
afterAll(async () => {
  await api?.close();
});

/** Sends `head`, then one byte of body every 200 ms, and answers what the server wrote and when it closed. */
function trickle(head: string, drip: boolean): Promise<{ answer: string; ms: number }> {
  const { port } = new URL(api.baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
    let answer = '';
    const timer = drip ? setInterval(() => socket.writable && socket.write('a'), 200) : undefined;
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, ms: Date.now() - started });
    });
    socket.on('error', reject);
    setTimeout(() => socket.destroy(new Error('the server never closed the connection')), 10_000).unref();
  });
}

describe('slow clients', () => {
  it('a body trickling in is cut off at the request deadline with a 408 in the error shape', async () => {
    const { answer, ms } = await trickle(
      'POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      true,
    );
    expect(ms).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(4000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'bad_request' } });
  });

  it('headers that never end are cut off at the header deadline', async () => {
    const { answer, ms } = await trickle('GET /api/site HTTP/1.1\r\nHost: x\r\n', false);
    expect(ms).toBeLessThan(3500);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('an ordinary request is still answered meanwhile', async () => {
    const [slow, fast] = await Promise.all([
      trickle('POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{', true),
      api.get('/api/site'),
    ]);
    expect(fast.status).toBe(200);
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('idle keep-alive connections', () => {
  it('stay open longer than a load balancer keeps its idle upstream connections (60 s), so a balancer never reuses one the server is closing', async () => {
    // The shortened deadlines above leave the keep-alive time at its production value.
    const res = await fetch(`${api.baseUrl}/api/site`);
    await res.arrayBuffer();
    const advertised = Number(/timeout=(\d+)/.exec(res.headers.get('keep-alive') ?? '')?.[1]);
    expect(advertised).toBeGreaterThan(60);
  });
});
