import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody, ApiErrorCode } from '@shop/shared-kernel/contract';
import { ApiError } from './errors.ts';

/** The API's one error shape; every refusal, the framework's own included, is built here. */
export const errorBody = (code: ApiErrorCode, message: string, refusal?: string): ApiErrorBody => ({
  error: refusal === undefined ? { code, message } : { code, message, refusal },
});

/** What a server-side failure tells the shopper (with the request id appended). */
const INTERNAL_MESSAGE = 'Nastala chyba na strane servera. Skúste to, prosím, o chvíľu znova.';

const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
};

/** Fastify's own client errors, in the shop's words. */
const MESSAGE_BY_FASTIFY_CODE: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Telo požiadavky nie je platný JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Telo požiadavky je prázdne.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Nepodporovaný typ obsahu požiadavky.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Požiadavka je príliš veľká.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Dĺžka tela požiadavky nezodpovedá hlavičke Content-Length.',
  FST_ERR_CTP_INVALID_TYPE: 'Nepodporovaný typ obsahu požiadavky.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Formulár nemá platný typ obsahu (multipart/form-data).',
  FST_PROTO_VIOLATION: 'Telo požiadavky obsahuje nepovolené kľúče.',
  // The router's refusals (frameworkErrors in infra/http/framework-errors.ts).
  FST_ERR_BAD_URL: 'Adresa obsahuje neplatné znaky.',
  FST_ERR_MAX_PARAM_LENGTH: 'Adresa je príliš dlhá.',
  // @fastify/multipart, where a route does not word them itself.
  FST_MP_PREMATURE_CLOSE: 'Formulár neprišiel celý. Skúste ho, prosím, odoslať znova.',
  FST_INVALID_JSON_FIELD_ERROR: 'Pole formulára nie je platný JSON.',
  FST_REQ_FILE_TOO_LARGE: 'Priložený súbor je príliš veľký.',
  FST_FILES_LIMIT: 'Formulár obsahuje priveľa súborov.',
  FST_FIELDS_LIMIT: 'Formulár obsahuje priveľa polí.',
  FST_PARTS_LIMIT: 'Formulár obsahuje priveľa častí.',
};

function describeValidation(error: FastifyError): string {
  const first = error.validation?.[0];
  const where = [error.validationContext, first?.instancePath?.replace(/^\//, '').replace(/\//g, '.')].filter(Boolean).join('.');
  const missing = first?.keyword === 'required' ? (first.params as { missingProperty?: string }).missingProperty : undefined;
  if (missing) return `Neplatná požiadavka: chýba povinná položka ${where ? `${where}.` : ''}${missing}.`;
  if (first?.keyword === 'maxProperties' || first?.keyword === 'maxItems') {
    return `Neplatná požiadavka: príliš veľa hodnôt (najviac ${(first.params as { limit?: number }).limit ?? '?'}).`;
  }
  return `Neplatná požiadavka: nesprávna hodnota ${where || 'údajov'}.`;
}

/** A server-side failure names its request, so the shopper can quote it and the logs find it. */
function withRequestId(message: string, request: FastifyRequest): string {
  return `${message} Ak sa to opakuje, kontaktujte nás a uveďte kód chyby ${request.id}.`;
}

/**
 * The one error handler: every error becomes `{ error: { code, message } }` with its status.
 * Bad input is 400 (validation_failed or bad_request); only real faults are 500, and they are logged.
 */
export function errorHandler(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    if (error.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(error.statusCode).send(errorBody(error.code, withRequestId(error.message, request)));
    }
    return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.refusal));
  }
  if (error.validation) {
    return reply.status(400).send(errorBody('validation_failed', describeValidation(error)));
  }
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody('internal', withRequestId(INTERNAL_MESSAGE, request)));
  }
  const message = MESSAGE_BY_FASTIFY_CODE[error.code] ?? 'Neplatná požiadavka.';
  return reply.status(status).send(errorBody(CODE_BY_STATUS[status] ?? 'bad_request', message));
}

export function notFoundHandler(_request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send(errorBody('not_found', 'Požadovaná adresa neexistuje.'));
}
