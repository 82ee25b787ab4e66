/**
 * What an S3 error means, by its name (or Code) and HTTP status: S3-compatible servers differ in
 * which of the two they fill in, so each classifier looks at both.
 */
type ErrorLike = { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
const statusOf = (error: unknown) => (error as ErrorLike | null)?.$metadata?.httpStatusCode;
const nameOf = (error: unknown) => (error as ErrorLike | null)?.name ?? (error as ErrorLike | null)?.Code;

/** The key is not there (a wrong bucket is an error, not an absent key). */
export const isMissing = (error: unknown): boolean =>
  nameOf(error) === 'NoSuchKey' || nameOf(error) === 'NotFound' || (statusOf(error) === 404 && nameOf(error) !== 'NoSuchBucket');

/** A conditional request (If-None-Match, If-Match, CopySourceIfMatch) did not hold: 412. */
export const isPreconditionFailed = (error: unknown): boolean => nameOf(error) === 'PreconditionFailed' || statusOf(error) === 412;

/** AWS answers 409 to a conditional write racing another one on the same key: try again. */
export const isConditionalConflict = (error: unknown): boolean => nameOf(error) === 'ConditionalRequestConflict' || statusOf(error) === 409;

/** A server that rejects a conditional header outright (501) rather than ignoring it. */
export const isUnsupported = (error: unknown): boolean => nameOf(error) === 'NotImplemented' || statusOf(error) === 501;

/** A server that refuses a request's headers as malformed (400), e.g. a conditional delete it does not know. */
export const isBadRequest = (error: unknown): boolean => statusOf(error) === 400;

/** A range that cannot be satisfied (416): what a ranged read of an empty object answers. */
export const isInvalidRange = (error: unknown): boolean => nameOf(error) === 'InvalidRange' || statusOf(error) === 416;
