/**
 * The owner's command for the area teams' release credentials (`npm run credentials -- …` at the
 * repository root), against the shop's database (DATA_DIR or DATABASE_URL, as the server reads them):
 *   create <area> <name>   a credential that may release only <area>, and its Ed25519 signing key for
 *                          that area: the secret and the private key are printed once, never stored
 *   revoke <name>          it stops working at once, on every server (what its key signed stays trusted)
 *   key-revoke <name>      distrusts its signing key: no upload signed with it is taken, and no version
 *                          it signed is served any more (those in force go back to the last intact one)
 *   list                   every credential, its area and whether it is revoked
 *   operator-create <name> an operator account for /ops; its password is OPERATOR_PASSWORD when set,
 *                          else a generated one printed once
 *   operator-revoke <name> the operator can no longer sign in, and its sessions end at once on every server
 *   operator-list          every operator, whether it is revoked, and its open sessions
 *   sessions-revoke <name> ends the operator's open sessions (it may sign in again)
 * A team's CI then releases with `RELEASE_TOKEN=<secret> RELEASE_SIGNING_KEY=<key> pnpm release deploy <area> --server <shop>`;
 * each use, allowed or refused, is in the audit log on /ops, and so is each command here (as `owner`).
 */
import { readServerConfig } from '../config.ts';
import { createDatabase } from '../db/create-database.ts';
import { createCredential, listCredentials, releaseIdentities, revokeCredential } from './identities.ts';
import { AREAS, isArea } from './registry.ts';
import { createOperator, listOperators, revokeOperator, revokeSessions } from './operators.ts';
import { createTeamSigningKey, releaseKeys } from './release-keys.ts';

const USAGE = 'usage: credentials create <area> <name> | revoke <name> | key-revoke <name> | list | operator-create <name> | operator-revoke <name> | operator-list | sessions-revoke <name>';
const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === '--help' || command === 'help' || !command) {
    print(USAGE);
    return command ? 0 : 2;
  }
  const config = readServerConfig(process.env);
  const database = await createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    if (command === 'create' && rest.length === 2) {
      const [area, name] = rest as [string, string];
      if (!isArea(area)) throw new Error(`unknown area ${area}: one of ${AREAS.join(', ')}`);
      // The credential and its key together, or neither.
      const { secret, key } = await database.db.transaction().execute(async (trx) => ({
        secret: await createCredential(trx, { name, area }),
        key: await createTeamSigningKey(releaseKeys(trx), name, area),
      }));
      print(`credential ${name} may release ${area} only; its secret (shown once, keep it in the team's CI secrets as RELEASE_TOKEN):`);
      print(secret);
      print(`its signing key ${key.keyId} (shown once, keep it in the team's CI secrets as RELEASE_SIGNING_KEY):`);
      process.stdout.write(key.privateKeyPem);
      return 0;
    }
    if (command === 'key-revoke' && rest.length === 1) {
      const revoked = await releaseKeys(database.db).revokeOwner(rest[0]!);
      if (revoked > 0) await releaseIdentities(database.db).audit({ actor: 'owner', action: 'key-revoke', part: null, allowed: true, detail: rest[0]! });
      print(revoked > 0 ? `distrusted ${revoked} signing key(s) of ${rest[0]}` : `no trusted signing key of ${rest[0]}`);
      return revoked > 0 ? 0 : 1;
    }
    if (command === 'revoke' && rest.length === 1) {
      const revoked = await revokeCredential(database.db, rest[0]!);
      print(revoked ? `revoked ${rest[0]}` : `no active credential named ${rest[0]}`);
      return revoked ? 0 : 1;
    }
    if (command === 'list' && rest.length === 0) {
      for (const row of await listCredentials(database.db)) print(`${row.name}\t${row.area}\tcreated ${row.created_at}${row.revoked_at ? `\trevoked ${row.revoked_at}` : ''}`);
      return 0;
    }
    if (command === 'operator-create' && rest.length === 1) {
      const given = process.env.OPERATOR_PASSWORD || undefined;
      const created = await createOperator(database.db, { name: rest[0]!, ...(given ? { password: given } : {}) });
      if (given) print(`operator ${created.name} created with the password in OPERATOR_PASSWORD; sign in on /ops`);
      else {
        print(`operator ${created.name} created; its password (shown once, give it to the operator):`);
        print(created.password);
      }
      return 0;
    }
    if (command === 'operator-revoke' && rest.length === 1) {
      const revoked = await revokeOperator(database.db, rest[0]!);
      print(revoked ? `revoked operator ${rest[0]}; its sessions ended` : `no active operator named ${rest[0]}`);
      return revoked ? 0 : 1;
    }
    if (command === 'operator-list' && rest.length === 0) {
      for (const row of await listOperators(database.db)) {
        print(`${row.name}\tcreated ${row.created_at}${row.revoked_at ? `\trevoked ${row.revoked_at}` : ''}\t${row.sessions} open session${row.sessions === 1 ? '' : 's'}`);
      }
      return 0;
    }
    if (command === 'sessions-revoke' && rest.length === 1) {
      const ended = await revokeSessions(database.db, rest[0]!);
      print(ended === null ? `no operator named ${rest[0]}` : `ended ${ended} session${ended === 1 ? '' : 's'} of ${rest[0]}`);
      return ended === null ? 1 : 0;
    }
    print(USAGE);
    return 2;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`credentials: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
