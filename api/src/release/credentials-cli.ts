/**
 * The owner's command for the area teams' release credentials (`npm run credentials -- …` at the
 * repository root), against the shop's database (DATA_DIR or DATABASE_URL, as the server reads them):
 *   create <area> <name>   a credential that may release only <area>; its secret is printed once
 *   revoke <name>          it stops working at once, on every server
 *   list                   every credential, its area and whether it is revoked
 *   operator-create <name> an operator account for /ops; its password is OPERATOR_PASSWORD when set,
 *                          else a generated one printed once
 *   operator-revoke <name> the operator can no longer sign in, and its sessions end at once on every server
 *   operator-list          every operator, whether it is revoked, and its open sessions
 *   sessions-revoke <name> ends the operator's open sessions (it may sign in again)
 * A team's CI then releases with `RELEASE_TOKEN=<secret> pnpm release deploy <area> --server <shop>`;
 * each use, allowed or refused, is in the audit log on /ops, and so is each command here (as `owner`).
 */
import { readServerConfig } from '../config.ts';
import { createDatabase } from '../db/create-database.ts';
import { createCredential, listCredentials, revokeCredential } from './identities.ts';
import { isArea } from './registry.ts';
import { createOperator, listOperators, revokeOperator, revokeSessions } from './operators.ts';

const USAGE = 'usage: credentials create <area> <name> | revoke <name> | list | operator-create <name> | operator-revoke <name> | operator-list | sessions-revoke <name>';
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
      if (!isArea(area)) throw new Error(`unknown area ${area}: one of catalog, checkout, account, content`);
      const secret = await createCredential(database.db, { name, area });
      print(`credential ${name} may release ${area} only; its secret (shown once, keep it in the team's CI secrets):`);
      print(secret);
      return 0;
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
