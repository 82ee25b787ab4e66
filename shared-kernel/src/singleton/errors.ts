import type { ApiErrorCode } from '../contract/index.ts';

/** Route validation failed: the shell shows the 404 page and looks up redirects. */
export class NotFoundError extends Error {
  readonly status = 404 as const;
  readonly path: string;

  constructor(path: string) {
    super(`Page Not Found: ${path}`);
    this.name = 'NotFoundError';
    this.path = path;
  }
}

/**
 * True for anything carrying status 404: a NotFoundError, an ApiError with
 * status 404 or a plain object from another bundle (checked structurally).
 */
export function isNotFound(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'status' in e && e.status === 404;
}

/** An error answer of the API ({ error: { code, message } }) or a failed request (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;

  constructor(status: number, code: ApiErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}
