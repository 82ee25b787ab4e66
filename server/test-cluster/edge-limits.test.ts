/**
 * nginx's body limits (tools/scripts/edge-errors.mjs) are the servers' own: a body past a server's limit
 * makes it answer 413 and close at once, which nginx, still sending, would turn into a 502.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { COMPLAINT_PHOTO_MAX_BYTES, COMPLAINT_PHOTO_MAX_COUNT } from '@shop/shared-kernel/rules';
import { EDGE_LIMITS, EDGE_SECURITY_HEADERS } from '../../tools/scripts/edge-errors.mjs';
import { securityHeaders } from '../src/infra/http/security-headers.ts';
import { API_BODY_LIMIT } from '../src/app.ts';
import { UPLOAD_BODY_LIMIT } from '@shop/release';
import { TELEMETRY_BODY_LIMIT } from '../src/domains/ops/telemetry/event-schema.ts';
import { CSP_REPORT_BODY_LIMIT } from '../src/domains/ops/telemetry/csp-report.ts';
import { CONSENT_BODY_LIMIT } from '../src/web/consent-frame.ts';

type Answer = { status: number; type: string; body: string };

/** node:http with an explicit length, as a client with a large body sends it. */
function post(url: string, path: string, body: string): Promise<Answer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends every body, eight at a time (as the fuzz does), and answers the answers. */
async function postAll(url: string, path: string, bodies: string[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let body = bodies[next++]; body !== undefined; body = bodies[next++]) answers.push(await post(url, path, body));
    }),
  );
  return answers;
}

const overLimit = (count: number) =>
  Array.from({ length: count }, (_, i) => JSON.stringify({ data: 'x'.repeat(API_BODY_LIMIT + 1000 * (i + 1)) }));

describe('large bodies through nginx', () => {
  const cluster = inject('cluster');

  it("a JSON body past the API's limit on the complaint form's path (where a form may be 32 MB) is refused in the error shape, and no server drops out", async () => {
    const answers = await postAll(cluster.url, '/api/account/complaints', overLimit(40));
    expect(answers.filter((answer) => answer.status !== 415 || !/^application\/json/.test(answer.type))).toEqual([]);
    expect((JSON.parse(answers[0]!.body) as { error: { message: string } }).error.message).toContain('formulár');
    // Had a server closed the connection under nginx, nginx would take it out of the pool for a while.
    const after = await Promise.all(Array.from({ length: 8 }, () => fetch(`${cluster.url}/api/home`)));
    expect(after.map((answer) => answer.status)).toEqual(Array(8).fill(200));
  });

  it("a body past the API's limit on the operator upload's path of the shop's origin (which serves no operator call) is refused by nginx itself", async () => {
    // Had nginx let it through with the upload's limit, the server would refuse it from its length and
    // close while nginx was still sending it: now and then a 503 instead of the 413.
    const answers = await postAll(cluster.url, '/api/ops/releases/catalog/upload', overLimit(24));
    expect(answers.filter((answer) => answer.status !== 413 || !/^application\/json/.test(answer.type))).toEqual([]);
    // nginx's own refusal names its request id.
    expect(answers.filter((answer) => !/kód požiadavky: [0-9a-f]{32}/.test(answer.body))).toEqual([]);
  });

  it("a body past nginx's own limit is answered in the error shape however far nginx had read it", async () => {
    const answers = await postAll(cluster.url, '/api/account/login', overLimit(24));
    expect(answers.filter((answer) => answer.status !== 413 || !/^application\/json/.test(answer.type))).toEqual([]);
  });
});

describe("nginx's limits and headers", () => {
  it('are the API server’s, path by path', () => {
    expect(EDGE_LIMITS.body).toBe(API_BODY_LIMIT);
    const byLocation = Object.fromEntries(EDGE_LIMITS.bodies.map((b) => [b.location, b.bytes]));
    expect(EDGE_LIMITS.upload.bytes).toBe(UPLOAD_BODY_LIMIT);
    expect(byLocation['= /api/telemetry']).toBe(TELEMETRY_BODY_LIMIT);
    expect(byLocation['= /api/csp-report']).toBe(CSP_REPORT_BODY_LIMIT);
    expect(byLocation['= /consent']).toBe(CONSENT_BODY_LIMIT);
    expect(EDGE_LIMITS.complaintForm.bytes).toBeGreaterThan(COMPLAINT_PHOTO_MAX_COUNT * COMPLAINT_PHOTO_MAX_BYTES);
  });

  it("nginx's own answers carry the security headers of every answer of the shop", () => {
    expect(EDGE_SECURITY_HEADERS).toEqual(securityHeaders({ hsts: false }));
  });
});
