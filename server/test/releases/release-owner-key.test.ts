/**
 * The owner's release key, on SQLite and PostgreSQL (DATABASE_URL): the owner's command makes it
 * outside the data directory (moving an older one out of it) and the shop trusts only its public
 * half; a key file inside the data directory is refused; a server started with a private key in
 * its environment refuses to start.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '@shop/release';
import { releaseKeys } from '../../src/domains/releases/release-keys.repository.ts';
import type { TestApi } from '../helpers/test-api.ts';
import { tempDir } from '@shop/release/testing';
import { signedShop } from '../helpers/signed-shop.ts';

const shop = signedShop({ registryInDatabase: true });
let api: TestApi;

beforeAll(async () => {
  ({ api } = await shop.start());
});
afterAll(shop.stop);

describe("the owner's release key", () => {
  const credentials = (args: string[], env: NodeJS.ProcessEnv) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/domains/operators/credentials-cli.ts', ...args], {
        cwd: join(import.meta.dirname, '..', '..'),
        env: {
          ...process.env,
          DATA_DIR: api.dataDir,
          DATABASE_URL: api.databaseUrl ?? '',
          RELEASE_SIGNING_KEY: '',
          RELEASE_SIGNING_KEY_FILE: '',
          ...env,
        },
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code: code ?? 1, output }));
    });

  it('is made by the owner’s command outside the data directory (an older one moved out of it) and only its public half is trusted', async () => {
    const config = tempDir('owner-config-');
    // An older shop kept its key in the data directory: the command moves it to the owner's place.
    const legacy = generateSigningKey();
    writeFileSync(join(api.dataDir, 'release-signing-key.pem'), legacy.privateKeyPem, { mode: 0o600 });
    const made = await credentials(['shop-key-create'], { XDG_CONFIG_HOME: config });
    expect(made.code, made.output).toBe(0);
    const file = join(config, 'stavebniny', 'release-signing-key.pem');
    expect(readFileSync(file, 'utf8')).toBe(legacy.privateKeyPem);
    expect(() => readFileSync(join(api.dataDir, 'release-signing-key.pem'))).toThrow();
    const trusted = await releaseKeys(api.db).trusted();
    expect(trusted.find((key) => key.keyId === legacy.keyId)).toMatchObject({ owner: 'shop', area: null });
    expect(JSON.stringify(trusted)).not.toContain('PRIVATE KEY');
    // A key file inside the data directory is refused: servers read it and backups copy it.
    const inside = await credentials(['shop-key-create'], { RELEASE_SIGNING_KEY_FILE: join(api.dataDir, 'owner.pem') });
    expect(inside.code).toBe(1);
    expect(inside.output).toContain('which servers read and backups copy');
  });

  it('is never in a server’s reach: a server started with a private key in its environment refuses to start', async () => {
    const names = ['RELEASE_SIGNING_KEY', 'RELEASE_SIGNING_KEY_FILE'];
    const starts = await Promise.all(
      names.map(
        (name) =>
          new Promise<{ code: number; output: string }>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
              cwd: join(import.meta.dirname, '..', '..'),
              env: { ...process.env, DATA_DIR: tempDir('server-key-'), [name]: 'anything', GATEWAY_URL: 'http://127.0.0.1:9' },
            });
            let output = '';
            child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
            child.on('exit', (code) => resolve({ code: code ?? 1, output }));
          }),
      ),
    );
    starts.forEach((started, index) => {
      expect(started.code).toBe(1);
      expect(started.output).toContain(`${names[index]} set in the server's environment`);
    });
  }, 120_000);
});
