/**
 * The release command (@shop/release) reads where the shop keeps its data from the environment
 * without the API's code: the same data directory, origin, public address and key file as the
 * server's configuration, or a release would go where no server looks.
 */
import { describe, expect, it } from 'vitest';
import { RELEASE_KEY_FILE, shopDataDir, shopOriginDir, shopPublicUrl, workspaceRoot } from '@shop/release';
import { readCheckoutConfig, readServerConfig } from '../../src/config.ts';
import { RETIRED_SECRET_FILES, SECRET_FILES } from '../../src/infra/secret-files.ts';
import { repoRoot } from '../../src/infra/paths.ts';

const ENVIRONMENTS: NodeJS.ProcessEnv[] = [
  {},
  { DATA_DIR: '/srv/shop/data' },
  { DATA_DIR: 'relative/data', ORIGIN_DIR: '/mnt/origin' },
  { ORIGIN_DIR: 'origin-here' },
  { PORT: '4000' },
  { HOST: '0.0.0.0', PORT: '8080' },
  { HOST: 'shop.internal', PORT: '3000' },
  { PUBLIC_URL: 'https://www.stavebniny-domov.sk/' },
  { HOST: '::1', PUBLIC_URL: '' },
];

describe('the release command finds the shop as the server does', () => {
  it('the same repository', () => {
    expect(workspaceRoot()).toBe(repoRoot);
  });

  it.each(ENVIRONMENTS)('the same data directory, origin and public address for %o', (env) => {
    const server = readServerConfig(env);
    expect(shopDataDir(env, repoRoot)).toBe(server.dataDir);
    expect(shopOriginDir(env, repoRoot)).toBe(server.originDir);
    expect(shopPublicUrl(env)).toBe(readCheckoutConfig(env, server).publicUrl);
  });

  it("keeps the shop's private release key out of the secrets a backup copies (and never restores an older backup's)", () => {
    expect(Object.values(SECRET_FILES)).not.toContain(RELEASE_KEY_FILE);
    expect(RETIRED_SECRET_FILES).toContain(RELEASE_KEY_FILE);
  });
});
