import type { ApiErrorCode } from '@shop/shared-kernel/contract';

/** An error the API answers with as `{ error: { code, message } }`; messages are for shoppers (Slovak). */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ApiErrorCode;
  /** A refusal a program acts on (`error.refusal`): a release refused, a fresh code the console must ask for. */
  readonly refusal: string | undefined;

  constructor(statusCode: number, code: ApiErrorCode, message: string, refusal?: string) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.refusal = refusal;
  }
}

export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
