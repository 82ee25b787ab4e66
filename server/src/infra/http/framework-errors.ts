/**
 * The framework's own refusals in the API's one error shape `{ error: { code, message } }`, with
 * Slovak messages: a bad URL escape or an overlong path parameter (Fastify's frameworkErrors), and
 * what Node's HTTP parser refuses before any route runs (clientErrorHandler: headers too large,
 * a request or its headers too slow, malformed HTTP).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { errorBody, errorHandler } from './error-handler.ts';
import { ApiError } from './errors.ts';

/** Longest path parameter the router accepts (a longer one answers 414). */
export const MAX_PARAM_LENGTH = 200;

const PARSER_REFUSALS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Hlavičky požiadavky sú príliš veľké.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Požiadavka neprišla celá včas. Skúste to, prosím, znova.' },
  ERR_HTTP_HEADERS_TIMEOUT: { status: 408, message: 'Požiadavka neprišla celá včas. Skúste to, prosím, znova.' },
};

/** The answer Node is writing on a socket, if any (its own clientError default checks it the same way). */
type ServerSocket = Socket & { _httpMessage?: { headersSent?: boolean } | null };

/** What Node's parser refused: a complete HTTP answer in the error shape, then the connection closes. */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: ServerSocket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = PARSER_REFUSALS[error.code ?? ''] ?? { status: 400, message: 'Požiadavka nemá platný tvar.' };
  const body = JSON.stringify(errorBody('bad_request', message));
  // Not in the middle of another answer on this connection (a pipelined request), which it would corrupt.
  if (socket.writable && !socket._httpMessage?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\nx-content-type-options: nosniff\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Options for `Fastify({...})`. */
export const frameworkErrorOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler' | 'routerOptions'> = {
  // The router's refusals (FST_ERR_BAD_URL 400, FST_ERR_MAX_PARAM_LENGTH 414, FST_ERR_ASYNC_CONSTRAINT 500)
  // go through the one error handler, which words them (MESSAGE_BY_FASTIFY_CODE) and logs a 500.
  frameworkErrors: errorHandler,
  clientErrorHandler,
  routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
};

/**
 * HTTP/1.1 requires a Host header. Node refuses a request without one itself, with a bare 400 and
 * no body; with Node's check off (requireHostHeader: false) the refusal is ours, in the error shape.
 */
export async function requireHostHeader(request: FastifyRequest): Promise<void> {
  if (request.raw.httpVersion === '1.1' && !request.headers.host) {
    throw new ApiError(400, 'bad_request', 'Požiadavka nemá hlavičku Host.');
  }
}
