/**
 * nginx's body limits (scripts/edge-errors.mjs) are the servers' own: a body past a server's limit
 * makes it answer 413 and close at once, which nginx, still sending, would turn into a 502.
 */
import { describe, expect, it } from 'vitest';
import { COMPLAINT_PHOTO_MAX_BYTES, COMPLAINT_PHOTO_MAX_COUNT } from '@shop/shared-kernel/rules';
import { EDGE_LIMITS, EDGE_SECURITY_HEADERS } from '../../../scripts/edge-errors.mjs';
import { securityHeaders } from '../src/infra/http/security-headers.ts';
import { API_BODY_LIMIT } from '../src/app.ts';
import { UPLOAD_BODY_LIMIT } from '@shop/release';
import { TELEMETRY_BODY_LIMIT } from '../src/domains/ops/telemetry/event-schema.ts';
import { CSP_REPORT_BODY_LIMIT } from '../src/domains/ops/telemetry/csp-report.ts';
import { CONSENT_BODY_LIMIT } from '../src/web/consent-frame.ts';

describe("nginx's limits and headers", () => {
  it('are the API server’s, path by path', () => {
    expect(EDGE_LIMITS.body).toBe(API_BODY_LIMIT);
    const byLocation = Object.fromEntries(EDGE_LIMITS.bodies.map((b) => [b.location, b.bytes]));
    expect(byLocation['~ ^/api/ops/releases/[^/]+/upload$']).toBe(UPLOAD_BODY_LIMIT);
    expect(byLocation['= /api/telemetry']).toBe(TELEMETRY_BODY_LIMIT);
    expect(byLocation['= /api/csp-report']).toBe(CSP_REPORT_BODY_LIMIT);
    expect(byLocation['= /consent']).toBe(CONSENT_BODY_LIMIT);
    expect(EDGE_LIMITS.complaintForm.bytes).toBeGreaterThan(COMPLAINT_PHOTO_MAX_COUNT * COMPLAINT_PHOTO_MAX_BYTES);
  });

  it("nginx's own answers carry the security headers of every answer of the shop", () => {
    expect(EDGE_SECURITY_HEADERS).toEqual(securityHeaders({ hsts: false }));
  });
});
