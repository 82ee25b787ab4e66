/**
 * What a browser may report (POST /api/telemetry): the JSON schema of a batch, checked as it is
 * (no coercion) whether it came as application/json or as text/plain from navigator.sendBeacon.
 */
import type { ClientErrorKind, TelemetryArea } from '@shop/shared-kernel/contract';
import { MAX_CLIENT_MESSAGE_LENGTH } from '@shop/shared-kernel/rules';

export const TELEMETRY_AREAS = ['shell', 'catalog', 'checkout', 'account', 'content'] as const satisfies readonly TelemetryArea[];
export const CLIENT_ERROR_KINDS = ['load-failed', 'boundary', 'uncaught', 'rejection'] as const satisfies readonly ClientErrorKind[];

/** Events per request. */
export const MAX_EVENTS = 50;
/** Bytes per request (the route's body limit; the API's default is 256 KB). */
export const TELEMETRY_BODY_LIMIT = 16 * 1024;
/** Characters of an error's message. */
export const MAX_MESSAGE_LENGTH = MAX_CLIENT_MESSAGE_LENGTH;

const eventSchema = {
  type: 'object',
  required: ['type', 'area', 'version'],
  properties: {
    type: { type: 'string', enum: ['view', 'error'] },
    area: { type: 'string', enum: TELEMETRY_AREAS },
    version: { type: 'string', pattern: '^[0-9A-Za-z.+-]{1,64}$' },
    route: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
    kind: { type: 'string', enum: CLIENT_ERROR_KINDS },
    message: { type: 'string', maxLength: MAX_MESSAGE_LENGTH },
  },
  additionalProperties: false,
  // A page view has no kind and no message (those describe errors).
  if: { properties: { type: { const: 'view' } } },
  then: { not: { anyOf: [{ required: ['kind'] }, { required: ['message'] }] } },
} as const;

export const batchSchema = {
  type: 'object',
  required: ['events'],
  properties: { events: { type: 'array', minItems: 1, maxItems: MAX_EVENTS, items: eventSchema } },
  additionalProperties: false,
} as const;

/** The operator's window: the last `minutes` minutes, the current one included. */
export const summaryQuerySchema = {
  type: 'object',
  properties: { minutes: { type: 'integer', minimum: 1, maximum: 1440, default: 60 } },
  additionalProperties: false,
} as const;
