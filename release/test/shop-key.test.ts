import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureOwnerKey } from '../src/shop-key.ts';
import { tempDir } from './support/temp-dirs.ts';

describe("the owner's release key", () => {
  it('made by several owner commands at once is one key: each gets it whole, the file is 600 and nothing else is left', async () => {
    const owner = tempDir('owner-key-');
    const dataDir = tempDir('owner-key-shop-');
    const env = { RELEASE_SIGNING_KEY_FILE: join(owner, 'release-signing-key.pem') };
    const results = await Promise.all(Array.from({ length: 8 }, () => ensureOwnerKey(env, { dataDir })));
    const pem = readFileSync(env.RELEASE_SIGNING_KEY_FILE, 'utf8');
    expect(new Set(results.map((result) => result.key.keyId)).size).toBe(1);
    expect(results.filter((result) => result.made)).toHaveLength(1);
    expect(pem).toContain('PRIVATE KEY');
    expect(statSync(env.RELEASE_SIGNING_KEY_FILE).mode & 0o777).toBe(0o600);
    expect(readdirSync(owner)).toEqual(['release-signing-key.pem']);
  });
});
