/**
 * The help of `npm run credentials`: every command, what it does and an example. Kept apart from the
 * command itself so it answers without opening a database (and is checked in-process).
 */

/** Every command, what it does and an example: `npm run credentials -- --help` (or `<command> --help`). */
export const COMMANDS: Record<string, { usage: string; what: string; example: string }> = {
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

export function help(only?: string): string {
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

/** Whether `command` is one of the commands. */
export const isCommand = (command: string | undefined): command is string => command !== undefined && Object.hasOwn(COMMANDS, command);

/**
 * What the arguments ask of the help, or null when they ask for a command to run: `--help` (or `help
 * [command]`, `<command> --help`) on stdout with exit 0; no command or an unknown one, the overview on
 * stderr with exit 2.
 */
export function helpAsked(args: string[]): { text: string; code: 0 | 2 } | null {
  const [command, ...rest] = args;
  if (command === '--help' || command === '-h' || command === 'help') {
    const about = command === 'help' ? rest[0] : undefined;
    return { text: help(isCommand(about) ? about : undefined), code: 0 };
  }
  if (!isCommand(command)) return { text: `${command ? `Unknown command ${command}\n\n` : ''}${help()}`, code: 2 };
  return rest.includes('--help') || rest.includes('-h') ? { text: help(command), code: 0 } : null;
}
