/**
 * The S3 storage's writes that must not lose to another writer: exclusive creation (the release
 * lock), append (the release log) and rename. Each uses the conditional requests the server
 * honours, learnt once by a probe; without If-None-Match, exclusive creation falls back to a claim
 * protocol that needs only strongly consistent PUT, LIST and HEAD.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CopyObjectCommand, type PutObjectCommandInput } from '@aws-sdk/client-s3';
import { isBadRequest, isConditionalConflict, isMissing, isPreconditionFailed, isUnsupported } from '@shop/s3';
import type { S3Bucket } from './s3-bucket.ts';
import { INTERNAL } from './s3-keys.ts';

/** Which conditional requests the server honours (rather than ignores). */
export type ConditionalSupport = {
  /** PutObject `If-None-Match: *`: create only if absent. */
  ifNoneMatch: boolean;
  /** PutObject `If-Match: <etag>`: replace only the version that was read. */
  ifMatch: boolean;
  /** DeleteObject `If-Match: <etag>`. */
  deleteIfMatch: boolean;
};

/** A claim older than this (by the server's clock) belongs to a process that died while creating a key. */
const CLAIM_STALE_MS = 30_000;
const CLAIM_ATTEMPTS = 30;
/** Rounds of read-modify-write for `appendText` when a conditional write loses to another writer. */
const APPEND_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Learns which conditional requests the server honours, on a scratch key: a second
 * create of an existing key with If-None-Match, a write and a delete with an If-Match
 * that cannot match. A server that honours them answers 412; one that ignores them
 * (s3rver) just does it; one that refuses the header (501) does not support it.
 */
async function probeConditionalWrites(bucket: S3Bucket): Promise<ConditionalSupport> {
  const key = bucket.full(`${INTERNAL}/probe/${randomUUID()}`);
  const honoured = async (request: () => Promise<unknown>) =>
    request().then(
      () => false,
      (error: unknown) => {
        if (isPreconditionFailed(error)) return true;
        if (isUnsupported(error) || isBadRequest(error)) return false;
        throw error;
      },
    );
  await bucket.put(key, 'probe');
  try {
    const ifNoneMatch = await honoured(() => bucket.put(key, 'probe', { IfNoneMatch: '*' }));
    const ifMatch = await honoured(() => bucket.put(key, 'probe', { IfMatch: '"0000"' }));
    const deleteIfMatch = await honoured(() => bucket.deleteKey(key, { IfMatch: '"0000"' }));
    return { ifNoneMatch, ifMatch, deleteIfMatch };
  } finally {
    await bucket.deleteKey(key);
  }
}

/** What the server honours: `known` when given, else probed on first use (and again after a failed probe). */
export function conditionalSupportOf(bucket: S3Bucket, known: ConditionalSupport | undefined): () => Promise<ConditionalSupport> {
  let support: Promise<ConditionalSupport> | null = known ? Promise.resolve(known) : null;
  return () => {
    support ??= probeConditionalWrites(bucket).catch((error: unknown) => {
      support = null;
      throw error;
    });
    return support;
  };
}

/**
 * Creates `key` only if nobody has, without conditional writes. Each contender
 * writes a claim of its own under `.s3-storage/claims/<key>/` and keeps it until
 * it has decided; it lists the claims and goes on only when it sees no one
 * else's, and only if the key is still absent; it writes the key and only then
 * deletes its claim. Safety: of two contenders A and B whose listings both came
 * back alone, say A listed first. B's claim was not in A's listing and B kept it
 * from writing it to deciding, so B wrote it after A listed; B listed after
 * that, when A's claim was there unless A had already written the key, which B
 * then sees, and backs off. (This needs S3's strong read-after-write
 * consistency of PUT, LIST and HEAD, which it has had since 2020.) Liveness:
 * a contender that sees an older (smaller) claim withdraws and retries after a
 * random pause; the oldest waits a moment and lists again, so it soon finds
 * itself alone. A claim older than 30 s (server time, compared with one's own
 * claim) is a dead process's: it is ignored and deleted, so a contender must
 * not take longer than that from its claim to its write.
 */
async function claimExclusively(bucket: S3Bucket, key: string, body: string): Promise<boolean> {
  const claims = bucket.full(`${INTERNAL}/claims/${key}/`);
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
    if ((await bucket.head(bucket.full(key))) !== null) return false;
    // Ordered by time first, so a newcomer rarely outranks those already waiting.
    const mine = `${claims}${Date.now().toString(36).padStart(10, '0')}-${process.pid}-${randomUUID()}`;
    await bucket.put(mine, `${hostname()} ${process.pid}`);
    try {
      const decided = await decideClaim(bucket, key, body, claims, mine);
      if (decided !== null) return decided;
    } finally {
      await bucket.deleteKey(mine);
    }
    await sleep(10 + Math.random() * Math.min(1000, 25 * 2 ** Math.min(attempt, 6)));
  }
  // Contended throughout: report "taken" (the lock's caller waits and tries again).
  return false;
}

/** One claim's looks at the others: true when it wrote the key, false when the key is taken, null to withdraw and retry. */
async function decideClaim(bucket: S3Bucket, key: string, body: string, claims: string, mine: string): Promise<boolean | null> {
  for (let look = 0; look < 20; look += 1) {
    const { objects } = await bucket.listing(claims);
    const own = objects.find((object) => object.key === mine);
    if (!own) return null;
    const stale = objects.filter((object) => object.key !== mine && own.lastModified - object.lastModified > CLAIM_STALE_MS);
    if (stale.length > 0) await bucket.deleteKeys(stale.map((object) => object.key));
    const others = objects.filter((object) => object.key !== mine && own.lastModified - object.lastModified <= CLAIM_STALE_MS);
    if (others.length === 0) {
      if ((await bucket.head(bucket.full(key))) !== null) return false;
      await bucket.put(bucket.full(key), body);
      return true;
    }
    if (others.some((object) => object.key < mine)) return null;
    await sleep(5 + Math.random() * 20);
  }
  return null;
}

/** Creates a storage key unless it exists: If-None-Match where honoured, the claim protocol otherwise. */
export async function createExclusive(bucket: S3Bucket, support: ConditionalSupport, key: string, content: string): Promise<boolean> {
  if (!support.ifNoneMatch) return claimExclusively(bucket, key, content);
  for (let attempt = 0; ; attempt += 1) {
    try {
      await bucket.put(bucket.full(key), content, { IfNoneMatch: '*' });
      return true;
    } catch (error) {
      if (isPreconditionFailed(error)) return false;
      if (!isConditionalConflict(error) || attempt >= 5) throw error;
      await sleep(20 + Math.random() * 50);
    }
  }
}

/** Appends to a storage key: read, extend, write back over the version read (where If-Match is honoured). */
export async function appendText(bucket: S3Bucket, support: ConditionalSupport, key: string, line: string): Promise<void> {
  const { ifMatch, ifNoneMatch } = support;
  for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt += 1) {
    const current = await bucket.get(bucket.full(key));
    const next = Buffer.concat([current?.body ?? new Uint8Array(), Buffer.from(line)]);
    const guard: Partial<PutObjectCommandInput> =
      current && current.etag && ifMatch ? { IfMatch: current.etag } : !current && ifNoneMatch ? { IfNoneMatch: '*' } : {};
    try {
      await bucket.put(bucket.full(key), next, guard);
      return;
    } catch (error) {
      if (!isPreconditionFailed(error) && !isConditionalConflict(error)) throw error;
      await sleep(Math.random() * 50 * (attempt + 1));
    }
  }
  throw new Error(`Could not append to ${bucket.full(key)}: it kept changing under ${APPEND_ATTEMPTS} attempts.`);
}

/** Moves a storage file: a copy of the version looked at, then a delete of that version; false when there is none. */
export async function renameKey(bucket: S3Bucket, support: ConditionalSupport, from: string, to: string): Promise<boolean> {
  const source = bucket.full(from);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const etag = await bucket.head(source);
    if (etag === null) return false;
    try {
      // Only the version looked at is copied (servers without If-Match copy whatever is there).
      await bucket.client.send(
        new CopyObjectCommand({
          Bucket: bucket.name,
          Key: bucket.full(to),
          CopySource: `${bucket.name}/${source.split('/').map(encodeURIComponent).join('/')}`,
          ...(etag ? { CopySourceIfMatch: etag } : {}),
        }),
      );
    } catch (error) {
      if (isMissing(error)) return false;
      if (isPreconditionFailed(error)) continue;
      throw error;
    }
    // A source replaced since the copy stays (the lock relies on this); without conditional deletes it is deleted too.
    await bucket.deleteKey(source, support.deleteIfMatch && etag ? { IfMatch: etag } : {}).catch((error: unknown) => {
      if (!isPreconditionFailed(error) && !isMissing(error)) throw error;
    });
    return true;
  }
  throw new Error(`Could not move ${source}: it kept changing.`);
}
