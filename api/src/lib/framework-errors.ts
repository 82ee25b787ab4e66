/**
 * The framework's own refusals in the API's one error shape `{ error: { code, message } }`, with
 * Slovak messages: a bad URL escape or an overlong path parameter (Fastify's frameworkErrors), and
 * what Node's HTTP parser refuses before any route runs (clientErrorHandler: headers too large,
 * a request or its headers too slow, malformed HTTP).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ApiErrorBody, ApiErrorCode } from '@shop/shared-kernel/contract';

/** Longest path parameter the router accepts (a longer one answers 414). */
export const MAX_PARAM_LENGTH = 200;

export const errorBody = (code: ApiErrorCode, message: string): ApiErrorBody => ({ error: { code, message } });

const BAD_URL = 'Adresa obsahuje neplatné znaky.';
const PARAM_TOO_LONG = 'Adresa je príliš dlhá.';

/** Answers the router's refusals (bad escape, overlong parameter) in the error shape. */
function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.status(414).send(errorBody('bad_request', PARAM_TOO_LONG));
  if (error.code === 'FST_ERR_BAD_URL') return reply.status(400).send(errorBody('bad_request', BAD_URL));
  reply.log.error({ err: error }, 'request failed in the router');
  return reply.status(500).send(errorBody('internal', 'Nastala chyba na strane servera. Skúste to, prosím, o chvíľu znova.'));
}

const PARSER_REFUSALS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Hlavičky požiadavky sú príliš veľké.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Požiadavka neprišla celá včas. Skúste to, prosím, znova.' },
  ERR_HTTP_HEADERS_TIMEOUT: { status: 408, message: 'Požiadavka neprišla celá včas. Skúste to, prosím, znova.' },
};

/** What Node's parser refused: a complete HTTP answer in the error shape, then the connection closes. */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = PARSER_REFUSALS[error.code ?? ''] ?? { status: 400, message: 'Požiadavka nemá platný tvar.' };
  const body = JSON.stringify(errorBody('bad_request', message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Options for `Fastify({...})`. */
export const frameworkErrorOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler' | 'routerOptions'> = {
  frameworkErrors,
  clientErrorHandler,
  routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
};
