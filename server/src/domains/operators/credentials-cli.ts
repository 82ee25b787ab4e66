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
import { help, helpAsked } from './credentials-help.ts';
import { verifyAuditChain } from '../releases/audit-log.repository.ts';
import { registryBook, setFloor } from '../releases/registry.repository.ts';

const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(args: string[]): Promise<number> {
  const asked = helpAsked(args);
  if (asked) {
    (asked.code === 0 ? process.stdout : process.stderr).write(asked.text);
    return asked.code;
  }
  const [command, ...rest] = args as [string, ...string[]];
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
