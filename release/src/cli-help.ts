/**
 * What `pnpm release --help` and `pnpm release <command> --help` print: every command and every
 * option, each with an example. The parser (cli.ts) takes exactly the options listed here; a test
 * (test/cli-help.test.ts) runs the command and checks that every command is listed.
 */

type Option = { flag: string; what: string; example: string };
type Command = { usage: string; what: string; details: string[]; options: Option[]; examples: string[] };

const PARTS = 'catalog, checkout, account, content or shell';

/** Options every command takes. */
const GLOBAL: Option[] = [
  {
    flag: '--origin DIR',
    what: 'the release origin (default: ORIGIN_DIR, else DATA_DIR/origin, the one the server reads); with S3_BUCKET only where its local cache goes',
    example: 'pnpm release status --origin /srv/shop/data/origin',
  },
  {
    flag: '--reason TEXT',
    what: 'why, kept in the history with who released it and from which commit (at most 500 characters)',
    example: 'pnpm release rollback checkout --reason "košík nepočíta DPH"',
  },
  {
    flag: '--no-wait',
    what: "on the origin: leave the signed move request for the shop's server and return at once (it is applied when a server starts or within seconds while one runs); without it the command waits RELEASE_APPLY_WAIT_MS for the outcome",
    example: 'pnpm release deploy all --no-build --only-new --no-wait',
  },
  { flag: '--help, -h', what: 'this help; after a command, the help of that command', example: 'pnpm release deploy --help' },
];

const DEPLOY_OPTIONS: Option[] = [
  {
    flag: '--dist DIR',
    what: 'release this build folder instead of building the part',
    example: 'pnpm release deploy checkout --dist mf-checkout/dist',
  },
  {
    flag: '--no-build',
    what: "release the part's last build (its dist/ folder) without building it again",
    example: 'pnpm release deploy all --no-build',
  },
  {
    flag: '--canary PERCENT',
    what: 'in force for that share of shoppers only (1 to 99), beside the stable version; areas only',
    example: 'pnpm release deploy checkout --canary 10',
  },
  {
    flag: '--stages PERCENTS',
    what: "a staged canary (a ramp): 1 to 5 shares from 1 to 99, each larger, e.g. 5,25,50; the shop's canary watch moves it on when errors and speed hold for a stage's time, aborts it from any stage (instead of --canary)",
    example: 'pnpm release deploy checkout --stages 5,25,50 --stage-min 30',
  },
  {
    flag: '--stage-min MINUTES',
    what: "with --stages: how long each stage must hold without regression, 1 to 1440 minutes (default: the server's CANARY_STAGE_MS, 30 minutes)",
    example: 'pnpm release deploy checkout --stages 5,25,50 --stage-min 60',
  },
  {
    flag: '--auto-promote',
    what: 'with --stages: after the last stage holds, promote to every shopper; without it the canary waits at its last stage for an operator',
    example: 'pnpm release deploy checkout --stages 10,50 --auto-promote',
  },
  {
    flag: '--preview',
    what: 'upload and check, in force for nobody; prints a signed preview link for this browser',
    example: 'pnpm release deploy catalog --preview',
  },
  {
    flag: '--override-pin',
    what: 'move a part that a rollback or `pin` holds at its version',
    example: 'pnpm release deploy checkout --override-pin --reason "oprava po rollbacku"',
  },
  {
    flag: '--only-new',
    what: 'with `all`: skip the parts released before (that build is on the origin already) or pinned',
    example: 'pnpm release deploy all --no-build --only-new',
  },
  {
    flag: '--init',
    what: "start a new origin (its first registry; the shop's key is made by `npm run credentials -- shop-key-create`)",
    example: 'pnpm release deploy all --no-build --init',
  },
  {
    flag: '--server URL',
    what: "upload to a running shop's operator origin (its OPS_URL) instead of writing the origin (CI: RELEASE_TOKEN, the area team's credential, and RELEASE_SIGNING_KEY, its key)",
    example: 'RELEASE_TOKEN=… RELEASE_SIGNING_KEY=… pnpm release deploy checkout --server https://ops.shop.example.sk',
  },
];

const COMMANDS = {
  deploy: {
    usage: `deploy <part|all> [options]`,
    what: 'build the part (in a folder of its own), check it, sign and upload it, then move its pointer',
    details: [`A part is ${PARTS}; \`all\` releases every part as one set, checked together and moved in one registry write.`],
    options: DEPLOY_OPTIONS,
    examples: [
      'pnpm release deploy checkout --reason "nový krok dopravy"',
      'pnpm release deploy checkout --canary 10',
      'pnpm release deploy checkout --stages 5,25,50 --stage-min 30 --auto-promote',
    ],
  },
  override: {
    usage: 'override <area> [options]',
    what: 'try your local build of one area against the real shop in your browser only: checked, served on 127.0.0.1, a link for one browser; serves until Ctrl+C, then revokes the link',
    details: [
      "The build is checked as a release's is (facts, routes, files and bytes here; kernel contract, React and route clashes against what is in force by the shop), each script's SHA-384 recorded in the link: a file changed afterwards does not run (make a new link).",
      "The link is a preview link: 24 h, the first browser that opens it only, listed in the console's Náhľady (lokálna zostava) and revocable there, in the audit log. No page of that browser is server-rendered. Needs RELEASE_TOKEN (your area's credential) and the shop's operator origin (--server, else OPS_URL).",
    ],
    options: [
      {
        flag: '--dist DIR',
        what: 'serve this build folder instead of building the area',
        example: 'pnpm release override checkout --dist mf-checkout/dist',
      },
      {
        flag: '--no-build',
        what: "serve the area's last build (its dist/ folder) without building it again",
        example: 'pnpm release override checkout --no-build',
      },
      {
        flag: '--port N',
        what: 'the loopback port to serve on (default: any free one)',
        example: 'pnpm release override checkout --port 5180',
      },
      {
        flag: '--server URL',
        what: "the shop's operator origin (its OPS_URL) that makes the link; default: OPS_URL",
        example: 'RELEASE_TOKEN=… pnpm release override checkout --server https://ops.shop.example.sk',
      },
    ],
    examples: [
      'pnpm release override checkout --server https://ops.shop.example.sk',
      'pnpm release override catalog --dist mf-catalog/dist --port 5180',
    ],
  },
  rollback: {
    usage: 'rollback <part> [VERSION]',
    what: 'move the pointer back (to the version before, or to VERSION still on the origin) and pin it there; no build; the version left is marked never to be served again',
    details: [
      "`pnpm release unpin <part>` lets deploys move it again; lifting the mark is an operator's (or `npm run credentials -- floor <part> <version> --lift`).",
    ],
    options: [
      {
        flag: '--server URL',
        what: "a team's rollback on a running shop's operator origin (its OPS_URL): RELEASE_TOKEN (its credential) and the rollback signed with RELEASE_SIGNING_KEY (its key)",
        example: 'RELEASE_TOKEN=… RELEASE_SIGNING_KEY=… pnpm release rollback checkout --server https://ops.shop.example.sk',
      },
    ],
    examples: ['pnpm release rollback checkout --reason "…"', 'pnpm release rollback checkout 0.1.0-17eac8b42f'],
  },
  promote: {
    usage: 'promote <area>',
    what: "finish an area's canary: its version for every shopper",
    details: [],
    options: [],
    examples: ['pnpm release promote checkout'],
  },
  abort: {
    usage: 'abort <area>',
    what: "finish an area's canary: its version for no one, the stable one stays",
    details: [],
    options: [],
    examples: ['pnpm release abort checkout --reason "chyby v platbe"'],
  },
  pin: {
    usage: 'pin <part>',
    what: 'hold a part at the version in force: deploys leave it there (unless --override-pin)',
    details: [],
    options: [],
    examples: ['pnpm release pin shell --reason "výpredaj cez víkend"'],
  },
  unpin: {
    usage: 'unpin <part>',
    what: 'let deploys move a pinned part again',
    details: [],
    options: [],
    examples: ['pnpm release unpin checkout'],
  },
  flag: {
    usage: 'flag <area> <name> on|off|<share>',
    what: "switch one of an area's features on, off, or on for a share (0-100 %) of browsers, without a release",
    details: [
      'Signed and applied by the shop’s server like a pin: a team’s key may switch only its own area’s features. Open pages follow within seconds; every change is in the audit log.',
      'A name is lower-case letters, digits and dashes (at most 40, starting with a letter); an area has at most 20 switches. A switch never set is on.',
    ],
    options: [],
    examples: [
      'pnpm release flag checkout card-payment off --reason "výpadok platobnej brány"',
      'pnpm release flag checkout pickup-points 25',
    ],
  },
  status: {
    usage: 'status',
    what: "what is in force: each part's version, since when and by whom, pins, canaries, rollback targets, the lock",
    details: [],
    options: [],
    examples: ['pnpm release status'],
  },
  history: {
    usage: 'history [part]',
    what: 'every move: when, who, what, from which commit (+dirty), why; of one part or of all',
    details: [],
    options: [],
    examples: ['pnpm release history checkout'],
  },
} satisfies Record<string, Command>;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];
export const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

function optionLines(options: Option[]): string[] {
  const width = Math.max(...options.map((option) => option.flag.length));
  return options.flatMap((option) => [`  ${option.flag.padEnd(width)}  ${option.what}`, `  ${''.padEnd(width)}  e.g. ${option.example}`]);
}

const ENVIRONMENT = [
  "Environment: DATA_DIR (the shop's data directory), ORIGIN_DIR, S3_BUCKET with S3_ENDPOINT, S3_REGION, S3_PREFIX",
  "(releases in a bucket, as the server reads them), RELEASE_SIGNING_KEY (else the shop's key in DATA_DIR),",
  "RELEASE_TOKEN (with --server, and for override), OPS_URL (override's --server), RELEASE_USER (who; else git's user.name).",
  'A refusal says why and exits 2; nothing was changed. Any other error exits 1.',
];

/** The overview: every command with what it does and an example, then the options every command takes. */
export function overview(): string {
  const width = Math.max(...Object.values(COMMANDS).map((command) => command.usage.length));
  const lines = [
    'Usage: pnpm release <command> [part] [options]   (npm run release -- <command> …)',
    '',
    'Commands:',
    ...Object.values(COMMANDS).flatMap((command) => [
      `  ${command.usage.padEnd(width)}  ${command.what}`,
      `  ${''.padEnd(width)}  e.g. ${command.examples[0]}`,
    ]),
    '',
    'Options of deploy:',
    ...optionLines(DEPLOY_OPTIONS),
    '',
    'Options of every command:',
    ...optionLines(GLOBAL),
    '',
    ...ENVIRONMENT,
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/** One command's help: usage, what it does, its options and the global ones, examples. */
export function commandHelp(name: CommandName): string {
  const command: Command = COMMANDS[name];
  const lines = [
    `Usage: pnpm release ${command.usage}`,
    '',
    `${command.what[0]!.toUpperCase()}${command.what.slice(1)}.`,
    ...command.details,
    '',
    ...(command.options.length > 0 ? ['Options:', ...optionLines(command.options), ''] : []),
    'Options of every command:',
    ...optionLines(GLOBAL),
    '',
    'Examples:',
    ...command.examples.map((example) => `  ${example}`),
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/** `--help` (or `help [command]`) answers on stdout and exits 0; no command or an unknown one gets the overview on stderr and exits 1. */
export function helpAsked(argv: string[]): { text: string; ok: boolean } | null {
  const [command, ...rest] = argv;
  const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h');
  if (command === undefined) return { text: overview(), ok: false };
  if (command === 'help' || wantsHelp([command])) {
    const about = command === 'help' ? rest[0] : undefined;
    if (about === undefined) return { text: overview(), ok: true };
    return isCommand(about) ? { text: commandHelp(about), ok: true } : { text: `Unknown command ${about}\n\n${overview()}`, ok: false };
  }
  if (!isCommand(command)) return { text: `Unknown command ${command}\n\n${overview()}`, ok: false };
  return wantsHelp(rest) ? { text: commandHelp(command), ok: true } : null;
}
