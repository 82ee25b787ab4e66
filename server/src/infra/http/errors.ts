import type { ApiErrorCode } from '@shop/shared-kernel/contract';

/** An error the API answers with as `{ error: { code, message } }`; messages are for shoppers (Slovak). */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ApiErrorCode;

  constructor(statusCode: number, code: ApiErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
  }
}

export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
