/**
 * What an S3 error means, as the SDK reports it from AWS (a name), from S3-compatible servers that
 * fill in only a Code or only the HTTP status: the storage's decisions (absent, lost a race, retry,
 * unsupported) hang on these.
 */
import { describe, expect, it } from 'vitest';
import { isBadRequest, isConditionalConflict, isInvalidRange, isMissing, isPreconditionFailed, isUnsupported } from '../src/errors.ts';

const byName = (name: string, status?: number) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const byCode = (Code: string) => ({ Code });
const byStatus = (status: number) => ({ name: 'Unknown', $metadata: { httpStatusCode: status } });

describe('S3 error classifiers', () => {
  it('take a missing key as absent, and a missing bucket as an error', () => {
    expect(isMissing(byName('NoSuchKey', 404))).toBe(true);
    expect(isMissing(byName('NotFound'))).toBe(true);
    expect(isMissing(byCode('NoSuchKey'))).toBe(true);
    expect(isMissing(byStatus(404))).toBe(true);
    expect(isMissing(byName('NoSuchBucket', 404))).toBe(false);
    expect(isMissing(byName('AccessDenied', 403))).toBe(false);
    expect(isMissing(null)).toBe(false);
    expect(isMissing(new Error('ECONNREFUSED'))).toBe(false);
  });

  it('tell a failed precondition, a conflicting conditional write, an unsupported header, a bad request and an empty range apart', () => {
    const cases = [
      [isPreconditionFailed, byName('PreconditionFailed'), byStatus(412)],
      [isConditionalConflict, byName('ConditionalRequestConflict'), byStatus(409)],
      [isUnsupported, byName('NotImplemented'), byStatus(501)],
      [isInvalidRange, byName('InvalidRange'), byStatus(416)],
    ] as const;
    for (const [classify, named, status] of cases) {
      expect(classify(named), classify.name).toBe(true);
      expect(classify(status), classify.name).toBe(true);
      for (const [other] of cases) if (other !== classify) expect(other(named), `${other.name} of ${named.name}`).toBe(false);
      expect(classify(byStatus(500)), classify.name).toBe(false);
    }
    expect(isBadRequest(byStatus(400))).toBe(true);
    expect(isBadRequest(byName('PreconditionFailed', 412))).toBe(false);
  });
});
