/**
 * Listing and deleting many keys of a bucket. ListObjects (version 1, paged by Marker) rather than
 * V2: every S3-compatible server has it, and s3rver's V2 continuation tokens are DES-encrypted,
 * which Node's OpenSSL 3 refuses (any truncated V2 listing fails there with InternalError).
 */
import { DeleteObjectsCommand, ListObjectsCommand, type S3Client } from '@aws-sdk/client-s3';
import { eachLimited } from './each-limited.ts';

/** The most keys one DeleteObjects request may name (the API's limit). */
const DELETE_BATCH = 1000;

/** Every object under `prefix` (all pages, sorted by key); with a delimiter, also the "folders" directly under it. */
export async function listS3(
  client: S3Client,
  bucket: string,
  prefix: string,
  delimiter?: string,
): Promise<{ objects: { key: string; lastModified: number }[]; keys: string[]; folders: string[] }> {
  const objects: { key: string; lastModified: number }[] = [];
  const folders: string[] = [];
  let marker: string | undefined;
  for (;;) {
    const page = await client.send(
      new ListObjectsCommand({
        Bucket: bucket,
        Prefix: prefix,
        ...(delimiter ? { Delimiter: delimiter } : {}),
        ...(marker ? { Marker: marker } : {}),
      }),
    );
    const seen: string[] = [];
    for (const object of page.Contents ?? []) {
      if (!object.Key) continue;
      objects.push({ key: object.Key, lastModified: object.LastModified?.getTime() ?? 0 });
      seen.push(object.Key);
    }
    for (const folder of page.CommonPrefixes ?? []) {
      if (!folder.Prefix) continue;
      if (!folders.includes(folder.Prefix)) folders.push(folder.Prefix);
      seen.push(folder.Prefix);
    }
    if (!page.IsTruncated) break;
    // S3 gives NextMarker only with a delimiter; otherwise the page's last key is the marker.
    const next = page.NextMarker || seen.sort().at(-1);
    if (!next || (marker !== undefined && next <= marker)) throw new Error(`S3 listing of ${prefix} is truncated but does not move on.`);
    marker = next;
  }
  objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { objects, keys: objects.map((o) => o.key), folders: folders.sort() };
}

/**
 * Deletes bucket keys, at most a thousand a request, `concurrency` requests at once (default one);
 * a missing key is no error.
 */
export async function deleteS3Keys(client: S3Client, bucket: string, keys: readonly string[], concurrency = 1): Promise<void> {
  const batches: string[][] = [];
  for (let start = 0; start < keys.length; start += DELETE_BATCH) batches.push(keys.slice(start, start + DELETE_BATCH));
  await eachLimited(batches, concurrency, async (batch) => {
    const answer = await client.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
    );
    const failed = answer.Errors ?? [];
    if (failed.length > 0)
      throw new Error(
        `S3 could not delete ${failed.length} key(s), e.g. ${failed[0]!.Key}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`,
      );
  });
}
