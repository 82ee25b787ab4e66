/**
 * The file store (complaint photos, invoice copies), the same behaviour on a local directory and
 * on a real local S3-compatible server (s3rver, `startS3Server` of `@shop/release/testing`); then what is particular
 * to each, the data directory's layout (folderFileStore) and the choice by the environment.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  folderFileStore,
  localDataFileStore,
  localFileStore,
  MAX_FILE_KEY_LENGTH,
  type FileStore,
} from '../../src/infra/storage/file-store.ts';
import { fileStoreFromEnv } from '../../src/file-store-from-env.ts';
import { s3FileStore } from '../../src/infra/storage/s3-file-store.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3TestServer, tempDir } from '@shop/release/testing';

let s3: S3TestServer;

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.stop();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** Every byte value, twice, and a megabyte of noise. */
const BINARY = Buffer.concat([Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)), randomBytes(1024 * 1024)]);

const BAD_KEYS = [
  '',
  '/abs.jpg',
  '../up.jpg',
  'a/../b.jpg',
  '..',
  'a/..',
  'a..b',
  'a//b',
  'a/',
  '.',
  'a/./b',
  'a b',
  'a\\b',
  'ä.jpg',
  'a\u0000b',
  'x'.repeat(MAX_FILE_KEY_LENGTH + 1),
];

type Backend = { name: string; kind: 'local' | 's3'; make(): { store: FileStore; dir?: string; prefix?: string } };
const backends: Backend[] = [
  {
    name: 'a local directory',
    kind: 'local',
    make: () => {
      const dir = tempDir('file-store-');
      return { store: localFileStore(dir), dir };
    },
  },
  {
    name: 's3rver',
    kind: 's3',
    make: () => {
      const prefix = `t-${randomUUID().slice(0, 8)}/files`;
      return { store: s3FileStore({ client: s3.client, bucket: s3.bucket, prefix }), prefix };
    },
  },
];

describe.each(backends)('file store on $name', (backend) => {
  it('gives back the binary data it was given, at the top and in folders', async () => {
    const { store } = backend.make();
    await store.put('photo.jpg', BINARY, 'image/jpeg');
    await store.put('complaints/2026/a1b2.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]), 'image/png');
    await store.put('empty.bin', Buffer.alloc(0), 'application/octet-stream');
    const back = await store.get('photo.jpg');
    expect(Buffer.isBuffer(back)).toBe(true);
    expect(back!.equals(BINARY)).toBe(true);
    expect([...(await store.get('complaints/2026/a1b2.png'))!]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    expect((await store.get('empty.bin'))!.length).toBe(0);
  });

  it('answers null for a key that is not there', async () => {
    const { store } = backend.make();
    expect(await store.get('missing.jpg')).toBeNull();
    expect(await store.get('no/such/folder.jpg')).toBeNull();
    await store.put('a.jpg', Buffer.from('a'), 'image/jpeg');
    // A "folder" that is a file, and a key that is a folder's name.
    expect(await store.get('a.jpg/b.jpg')).toBeNull();
    await store.put('f/inner.jpg', Buffer.from('i'), 'image/jpeg');
    expect(await store.get('f')).toBeNull();
  });

  it('removes a file, and removing a missing one is no error', async () => {
    const { store } = backend.make();
    await store.put('gone.webp', Buffer.from('w'), 'image/webp');
    await store.put('kept.webp', Buffer.from('k'), 'image/webp');
    await store.remove('gone.webp');
    expect(await store.get('gone.webp')).toBeNull();
    expect((await store.get('kept.webp'))!.toString()).toBe('k');
    await expect(store.remove('gone.webp')).resolves.toBeUndefined();
    await expect(store.remove('never/was.webp')).resolves.toBeUndefined();
  });

  it('replaces a file whole (a shorter one leaves nothing of the longer)', async () => {
    const { store } = backend.make();
    await store.put('invoices/faktura-1.pdf', Buffer.from('%PDF- a long first version'), 'application/pdf');
    await store.put('invoices/faktura-1.pdf', Buffer.from('%PDF-2'), 'application/pdf');
    expect((await store.get('invoices/faktura-1.pdf'))!.toString()).toBe('%PDF-2');
  });

  it('refuses bad keys before reading or writing anything', async () => {
    const { store } = backend.make();
    for (const key of BAD_KEYS) {
      await expect(store.put(key, Buffer.from('x'), 'text/plain'), JSON.stringify(key)).rejects.toThrow(/File key/);
      await expect(store.get(key), JSON.stringify(key)).rejects.toThrow(/File key/);
      await expect(store.remove(key), JSON.stringify(key)).rejects.toThrow(/File key/);
    }
    const longest = `${'k'.repeat(MAX_FILE_KEY_LENGTH - 4)}.jpg`;
    await store.put(longest, Buffer.from('ok'), 'image/jpeg');
    expect((await store.get(longest))!.toString()).toBe('ok');
    expect(await store.get('up.jpg')).toBeNull();
  });

  it('lists the keys under a folder, or all of them, sorted (what a backup copies)', async () => {
    const { store } = backend.make();
    expect(await store.list('')).toEqual([]);
    for (const key of ['invoices/f.pdf', 'complaints/a.jpg', 'b.jpg', 'complaints/2026/x.png'])
      await store.put(key, Buffer.from(key), 'application/octet-stream');
    expect(await store.list('')).toEqual(['b.jpg', 'complaints/2026/x.png', 'complaints/a.jpg', 'invoices/f.pdf']);
    expect(await store.list('complaints')).toEqual(['complaints/2026/x.png', 'complaints/a.jpg']);
    expect(await store.list('complaints/2026')).toEqual(['complaints/2026/x.png']);
    expect(await store.list('nothing')).toEqual([]);
    expect(await store.list('b.jpg')).toEqual([]);
    for (const prefix of ['../up', '/abs', 'a//b']) await expect(store.list(prefix), prefix).rejects.toThrow(/File key/);
  });

  it.skipIf(backend.kind !== 'local')('writes files with mode 0600 under the key’s path, leaving no temporary file', async () => {
    const { store, dir } = backend.make();
    await store.put('complaints/x.jpg', BINARY, 'image/jpeg');
    await store.put('complaints/x.jpg', Buffer.from('again'), 'image/jpeg');
    const path = join(dir!, 'complaints', 'x.jpg');
    expect(readFileSync(path, 'utf8')).toBe('again');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir!, 'complaints'))).toEqual(['x.jpg']);
    expect(store.describe()).toBe(`local directory ${dir}`);
  });

  it.skipIf(backend.kind !== 's3')('stores each key as an object under the prefix, with its content type', async () => {
    const { store, prefix } = backend.make();
    await store.put('complaints/y.png', Buffer.from('png'), 'image/png');
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/complaints/y.png` }));
    expect(head.ContentType).toBe('image/png');
    expect(head.ContentLength).toBe(3);
    expect(store.describe()).toBe(`s3://${s3.bucket}/${prefix}/`);
  });
});

describe('the data directory’s layout', () => {
  it('keeps complaint photos and invoice copies in their folders, by their file names', async () => {
    const data = tempDir('file-store-data-');
    const store = localDataFileStore({ complaintsDir: join(data, 'complaints'), invoicesDir: join(data, 'invoices') });
    await store.put('complaints/abc.jpg', Buffer.from('jpg'), 'image/jpeg');
    await store.put('invoices/faktura-2026000001.pdf', Buffer.from('%PDF-'), 'application/pdf');
    expect(readFileSync(join(data, 'complaints', 'abc.jpg'), 'utf8')).toBe('jpg');
    expect(readFileSync(join(data, 'invoices', 'faktura-2026000001.pdf'), 'utf8')).toBe('%PDF-');
    expect((await store.get('complaints/abc.jpg'))!.toString()).toBe('jpg');
    await store.remove('complaints/abc.jpg');
    expect(existsSync(join(data, 'complaints', 'abc.jpg'))).toBe(false);
    expect(store.describe()).toContain(join(data, 'complaints'));
  });

  it('lists both folders’ files under their folder names', async () => {
    const data = tempDir('file-store-data-');
    const store = localDataFileStore({ complaintsDir: join(data, 'complaints'), invoicesDir: join(data, 'invoices') });
    await store.put('invoices/faktura-1.pdf', Buffer.from('%PDF-'), 'application/pdf');
    await store.put('complaints/abc.jpg', Buffer.from('jpg'), 'image/jpeg');
    expect(await store.list('')).toEqual(['complaints/abc.jpg', 'invoices/faktura-1.pdf']);
    expect(await store.list('invoices')).toEqual(['invoices/faktura-1.pdf']);
    expect(await store.list('other')).toEqual([]);
  });

  it('refuses a key in no folder of its own, and bad keys', async () => {
    const store = folderFileStore({ complaints: localFileStore(tempDir('file-store-c-')) });
    for (const key of ['x.jpg', 'other/x.jpg', 'constructor/x.jpg', '__proto__/x.jpg', 'complaints/../x.jpg']) {
      await expect(store.put(key, Buffer.from('x'), 'image/jpeg'), key).rejects.toThrow(/File key/);
      await expect(store.get(key), key).rejects.toThrow(/File key/);
    }
  });
});

describe('fileStoreFromEnv', () => {
  it('is the data directory without S3_BUCKET, photos where they have always been', async () => {
    const data = tempDir('file-store-env-');
    for (const env of [{}, { S3_BUCKET: ' ' }]) {
      const store = fileStoreFromEnv(env, data);
      expect(store.describe()).toBe(
        `complaints/: local directory ${join(data, 'complaints')}; invoices/: local directory ${join(data, 'invoices')}`,
      );
    }
    await fileStoreFromEnv({}, data).put('complaints/old.jpg', Buffer.from('o'), 'image/jpeg');
    expect(readFileSync(join(data, 'complaints', 'old.jpg'), 'utf8')).toBe('o');
  });

  it('is the bucket under <S3_PREFIX>/files/ with S3_BUCKET, and refuses bad settings', () => {
    expect(fileStoreFromEnv({ S3_BUCKET: 'shop-files', S3_PREFIX: 'prod/' }, '/srv/data').describe()).toBe('s3://shop-files/prod/files/');
    expect(fileStoreFromEnv({ S3_BUCKET: 'shop-files' }, '/srv/data').describe()).toBe('s3://shop-files/files/');
    // The settings are checked where the release storage reads them (release/test/storage.test.ts): one bad one is enough here.
    expect(() => fileStoreFromEnv({ S3_BUCKET: 'Shop' }, '/srv/data')).toThrow(/S3_BUCKET/);
  });

  it('reaches an S3-compatible server by S3_ENDPOINT', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
    const prefix = `t-${randomUUID().slice(0, 8)}`;
    const store = fileStoreFromEnv({ S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_PREFIX: prefix }, '/srv/data');
    await store.put('complaints/z.jpg', BINARY, 'image/jpeg');
    expect((await store.get('complaints/z.jpg'))!.equals(BINARY)).toBe(true);
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/files/complaints/z.jpg` }));
    expect(head.ContentLength).toBe(BINARY.length);
    await store.remove('complaints/z.jpg');
    expect(await store.get('complaints/z.jpg')).toBeNull();
  });
});
