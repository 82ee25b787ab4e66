/**
 * The owner's command for the area teams' release credentials, the operator accounts of the operator
 * console and the machines' credentials (`npm run credentials -- …` at the repository root), against
 * the shop's database (DATA_DIR or DATABASE_URL, as the server reads them); `npm run credentials --
 * --help` lists every command.
 * A team's CI then releases with `RELEASE_TOKEN=<secret> RELEASE_SIGNING_KEY=<key> pnpm release deploy <area> --server <shop>`;
 * each use, allowed or refused, is in the audit log on /ops, and so is each command here (as `owner`).
 */
import { readServerConfig } from '../../config.ts';
import { createDatabase } from '../../db/create-database.ts';
import { createCredential, listCredentials, releaseIdentities, revokeCredential } from '../releases/identities.repository.ts';
import { AREAS, ensureOwnerKey, isArea, isPart, isVersionName } from '@shop/release';
import { createOperator, listOperators, resetSecondFactor, revokeOperator, revokeSessions } from './operator-admin.repository.ts';
import { createMachineCredential, listMachineCredentials, revokeMachineCredential } from './machine-credentials.repository.ts';
import { createTeamSigningKey, registerShopKey, releaseKeys } from '../releases/release-keys.repository.ts';
import { verifyAuditChain } from '../releases/audit-log.repository.ts';
import { registryBook, setFloor } from '../releases/registry.repository.ts';

const print = (line: string) => process.stdout.write(`${line}\n`);

/** Every command, what it does and an example: `npm run credentials -- --help` (or `<command> --help`). */
const COMMANDS: Record<string, { usage: string; what: string; example: string }> = {
  create: {
    usage: 'create <area> <name>',
    what: 'a credential that may release only <area> (catalog, checkout, account or content), and its signing key; both printed once, never stored',
    example: 'npm run credentials -- create checkout tim-pokladna',
  },
  revoke: {
    usage: 'revoke <name>',
    what: 'the credential stops working at once, on every server (what its key signed stays trusted)',
    example: 'npm run credentials -- revoke tim-pokladna',
  },
  'key-revoke': {
    usage: 'key-revoke <name>',
    what: 'distrusts its signing key: no upload signed with it is taken, and versions it signed are no longer served',
    example: 'npm run credentials -- key-revoke tim-pokladna',
  },
  list: { usage: 'list', what: 'every credential, its area and whether it is revoked', example: 'npm run credentials -- list' },
  'operator-create': {
    usage: 'operator-create <name>',
    what: 'an operator account of the operator console; its password is OPERATOR_PASSWORD when set, else a generated one printed once; the operator sets up the second factor at the first sign-in',
    example: 'OPERATOR_PASSWORD=… npm run credentials -- operator-create jana',
  },
  'operator-revoke': {
    usage: 'operator-revoke <name>',
    what: 'the operator can no longer sign in; its sessions end at once on every server',
    example: 'npm run credentials -- operator-revoke jana',
  },
  'operator-list': {
    usage: 'operator-list',
    what: 'every operator, whether it is revoked, and its open sessions',
    example: 'npm run credentials -- operator-list',
  },
  'shop-key-create': {
    usage: 'shop-key-create',
    what: "the shop's own release key for the owner's release tool: made once outside the data directory (RELEASE_SIGNING_KEY_FILE, else ~/.config/stavebniny/release-signing-key.pem; one an older shop kept in DATA_DIR is moved there), its public half registered in the database; servers never read it",
    example: 'npm run credentials -- shop-key-create',
  },
  floor: {
    usage: 'floor <part> <version> [--lift] [--reason TEXT]',
    what: 'marks a version never to be put in force again (no rollback, pin, preview, canary or fallback can); --lift takes the mark away',
    example: 'npm run credentials -- floor checkout 1.4.0-3fa2b9c1de --reason "únik údajov"',
  },
  'audit-verify': {
    usage: 'audit-verify',
    what: "walks the release audit log's hash chain; names the first row changed, removed or slipped in (exit 1), else the rows checked",
    example: 'npm run credentials -- audit-verify',
  },
  'sessions-revoke': {
    usage: 'sessions-revoke <name>',
    what: "ends the operator's open sessions (it may sign in again)",
    example: 'npm run credentials -- sessions-revoke jana',
  },
  'operator-totp-reset': {
    usage: 'operator-totp-reset <name>',
    what: 'for an operator who lost the device: removes the second factor and the recovery codes and ends the sessions; the next sign-in sets up a new one',
    example: 'npm run credentials -- operator-totp-reset jana',
  },
  'metrics-create': {
    usage: 'metrics-create <name>',
    what: "a machine credential that may only read /api/metrics (Prometheus's bearer token); printed once, never stored",
    example: 'npm run credentials -- metrics-create prometheus',
  },
  'metrics-revoke': {
    usage: 'metrics-revoke <name>',
    what: 'the metrics credential stops working at once, on every server',
    example: 'npm run credentials -- metrics-revoke prometheus',
  },
  'metrics-list': {
    usage: 'metrics-list',
    what: 'every machine credential, its scope and whether it is revoked',
    example: 'npm run credentials -- metrics-list',
  },
};

function help(only?: string): string {
  const shown = only ? [COMMANDS[only]!] : Object.values(COMMANDS);
  const width = Math.max(...shown.map((command) => command.usage.length));
  return [
    `Usage: npm run credentials -- ${only ? COMMANDS[only]!.usage : '<command> [arguments]'}`,
    '',
    ...(only ? [] : ['Commands:']),
    ...shown.flatMap((command) => [`  ${command.usage.padEnd(width)}  ${command.what}`, `  ${''.padEnd(width)}  e.g. ${command.example}`]),
    '',
    "The shop's database: DATA_DIR or DATABASE_URL, as the server reads them. Each command is in the audit log on /ops (as `owner`).",
    '',
  ].join('\n');
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const known = command !== undefined && Object.hasOwn(COMMANDS, command);
  if (command === '--help' || command === '-h' || command === 'help') {
    const about = command === 'help' ? rest[0] : undefined;
    process.stdout.write(help(about !== undefined && Object.hasOwn(COMMANDS, about) ? about : undefined));
    return 0;
  }
  if (known && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(help(command));
    return 0;
  }
  if (!known) {
    process.stderr.write(`${command ? `Unknown command ${command}\n\n` : ''}${help()}`);
    return 2;
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
      if (revoked > 0)
        await releaseIdentities(database.db).audit({ actor: 'owner', action: 'key-revoke', part: null, allowed: true, detail: rest[0]! });
      print(revoked > 0 ? `distrusted ${revoked} signing key(s) of ${rest[0]}` : `no trusted signing key of ${rest[0]}`);
      return revoked > 0 ? 0 : 1;
    }
    if (command === 'revoke' && rest.length === 1) {
      const revoked = await revokeCredential(database.db, rest[0]!);
      print(revoked ? `revoked ${rest[0]}` : `no active credential named ${rest[0]}`);
      return revoked ? 0 : 1;
    }
    if (command === 'list' && rest.length === 0) {
      for (const row of await listCredentials(database.db))
        print(`${row.name}\t${row.area}\tcreated ${row.created_at}${row.revoked_at ? `\trevoked ${row.revoked_at}` : ''}`);
      return 0;
    }
    if (command === 'operator-create' && rest.length === 1) {
      const given = process.env.OPERATOR_PASSWORD || undefined;
      const created = await createOperator(database.db, { name: rest[0]!, ...(given ? { password: given } : {}) });
      if (given)
        print(`operator ${created.name} created with the password in OPERATOR_PASSWORD; sign in on the operator console (OPS_URL)`);
      else {
        print(`operator ${created.name} created; its password (shown once, give it to the operator):`);
        print(created.password);
      }
      print('at the first sign-in the operator sets up the second factor (an authenticator app) and keeps the recovery codes');
      return 0;
    }
    if (command === 'operator-revoke' && rest.length === 1) {
      const revoked = await revokeOperator(database.db, rest[0]!);
      print(revoked ? `revoked operator ${rest[0]}; its sessions ended` : `no active operator named ${rest[0]}`);
      return revoked ? 0 : 1;
    }
    if (command === 'operator-list' && rest.length === 0) {
      for (const row of await listOperators(database.db)) {
        print(
          `${row.name}\tcreated ${row.created_at}${row.revoked_at ? `\trevoked ${row.revoked_at}` : ''}\t${row.totp_confirmed_at ? 'second factor set up' : 'no second factor yet'}\t${row.sessions} open session${row.sessions === 1 ? '' : 's'}`,
        );
      }
      return 0;
    }
    if (command === 'operator-totp-reset' && rest.length === 1) {
      const reset = await resetSecondFactor(database.db, rest[0]!);
      print(
        reset
          ? `the second factor of ${rest[0]} is removed and its sessions ended; at the next sign-in it sets up a new one`
          : `no active operator named ${rest[0]}`,
      );
      return reset ? 0 : 1;
    }
    if (command === 'metrics-create' && rest.length === 1) {
      const secret = await createMachineCredential(database.db, { name: rest[0]!, scope: 'metrics' });
      print(`metrics credential ${rest[0]} may only read /api/metrics; its secret (shown once, Prometheus's bearer token):`);
      print(secret);
      return 0;
    }
    if (command === 'metrics-revoke' && rest.length === 1) {
      const revoked = await revokeMachineCredential(database.db, rest[0]!);
      print(revoked ? `revoked ${rest[0]}` : `no active machine credential named ${rest[0]}`);
      return revoked ? 0 : 1;
    }
    if (command === 'metrics-list' && rest.length === 0) {
      for (const row of await listMachineCredentials(database.db))
        print(`${row.name}\t${row.scope}\tcreated ${row.created_at}${row.revoked_at ? `\trevoked ${row.revoked_at}` : ''}`);
      return 0;
    }
    if (command === 'shop-key-create' && rest.length === 0) {
      const owner = await ensureOwnerKey(process.env, { dataDir: config.dataDir, originDir: config.originDir });
      const keys = releaseKeys(database.db);
      const known = (await keys.trusted()).some((key) => key.keyId === owner.key.keyId);
      await registerShopKey(keys, owner.key);
      if (!known)
        await releaseIdentities(database.db).audit({
          actor: 'owner',
          action: 'shop-key-register',
          part: null,
          allowed: true,
          detail: owner.key.keyId,
        });
      if (owner.movedFrom) print(`moved the shop's release key out of the data directory: ${owner.movedFrom} → ${owner.file}`);
      print(
        `${owner.made ? 'made' : 'using'} the shop's release key ${owner.key.keyId} at ${owner.file} (mode 600; keep it off the servers and out of their backups)${known ? '' : '; its public half is now trusted by this shop'}`,
      );
      return 0;
    }
    if (command === 'floor' && rest.length >= 2) {
      const [part, version, ...flags] = rest as [string, string, ...string[]];
      if (!isPart(part) || !isVersionName(version))
        throw new Error('name a part (shell, catalog, checkout, account, content) and a version');
      const reasonAt = flags.indexOf('--reason');
      const reason = reasonAt >= 0 ? (flags[reasonAt + 1] ?? '').slice(0, 500) : null;
      const floored = !flags.includes('--lift');
      await setFloor(database.db, registryBook(database.db), { part, version, floored, by: 'owner', reason });
      print(floored ? `${part} ${version} is marked never to be served again` : `${part} ${version} may be put in force again`);
      return 0;
    }
    if (command === 'audit-verify' && rest.length === 0) {
      const verdict = await verifyAuditChain(database.db);
      if (verdict.intact) {
        print(`audit log intact: ${verdict.rows} row${verdict.rows === 1 ? '' : 's'} chained, last hash ${verdict.lastHash}`);
        return 0;
      }
      const row = verdict.broken;
      print(
        `audit log BROKEN at row ${row.auditId} (${row.at}, ${row.actor}, ${row.action}): ${row.why}; the ${verdict.rows} row(s) before it are intact`,
      );
      return 1;
    }
    if (command === 'sessions-revoke' && rest.length === 1) {
      const ended = await revokeSessions(database.db, rest[0]!);
      print(ended === null ? `no operator named ${rest[0]}` : `ended ${ended} session${ended === 1 ? '' : 's'} of ${rest[0]}`);
      return ended === null ? 1 : 0;
    }
    process.stderr.write(help(command));
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
