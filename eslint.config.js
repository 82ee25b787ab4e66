// Lint for the whole workspace, with the boundary rules of the architecture:
// an area imports only shared-kernel and its own files; the shell never
// imports an area's source; the API shares only the kernel's pure modules;
// an API domain never imports another domain's routes, infrastructure no domain; no package
// reaches into another through a relative path; no import cycles (between API folders:
// tools/scripts/folder-graph.mjs, run by server/test/platform/folder-graph.test.ts).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * The deployable apps, read from the root (`shell`, `mf-*`, `server`; folder = package name), so no
 * list here repeats the contract's AREAS (shared-kernel/src/contract/parts.test.ts checks the
 * folders against it).
 */
const rootDir = new URL('./', import.meta.url);
const APPS = readdirSync(rootDir).filter(
  (dir) =>
    (dir === 'shell' || dir === 'server' || dir.startsWith('mf-')) &&
    existsSync(new URL(`${dir}/package.json`, rootDir)) &&
    JSON.parse(readFileSync(new URL(`${dir}/package.json`, rootDir), 'utf8')).name === `@shop/${dir}`,
);
/** The areas: every browser app (a Vite build) but the shell. */
const AREAS = APPS.filter((dir) => dir.startsWith('mf-') && existsSync(new URL(`${dir}/vite.config.ts`, rootDir)));

const NO_RAW_FETCH =
  "Call the API through the kernel's client (@shop/shared-kernel): `call('GET /api/…', { params, query, body })` as the contract names the call (a new call is a new row of a contract table); it sends the session, signs out on a 401 and throws ApiError.";

/**
 * Package imports that reach another part of the workspace (relative paths into another package
 * are refused for every app and package by import-x/no-relative-packages below).
 */
function foreignParts(own) {
  // The API alone uses the release tool's package and the S3 client's; its tests start the gateway
  // simulator (its production code may not: the no-restricted-paths zone below).
  const tools = own === 'server' ? [] : ['release', 's3', 'gateway-simulator'];
  const names = [...APPS.filter((dir) => dir !== own), 'e2e', 'bench', ...tools];
  return names.flatMap((name) => [`@shop/${name}`, `@shop/${name}/**`]);
}

const boundary = (own, paths = [], files = [`${own}/**/*.{ts,tsx}`], morePatterns = []) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [...foreignParts(own), '**/shared-kernel/src/**'],
            message: 'Parts talk only through @shop/shared-kernel (stores, event bus, URLs); never import another part.',
          },
          ...morePatterns,
        ],
        paths,
      },
    ],
  },
});

const API_PATHS = [
  {
    name: '@shop/shared-kernel',
    message: 'The API uses only the pure @shop/shared-kernel/rules and the @shop/shared-kernel/contract types.',
  },
];

const CONSOLE_PATHS = [
  {
    name: '@shop/shared-kernel',
    message: "The operator console loads no shop code: only the kernel's pure /rules and the /contract types (its own client: src/api.ts).",
  },
];

/** In api/src/domains/<domain>/<folder>/: another folder's routes module (`../<other>/index.ts`, `../../<domain>/<other>/index.ts`). */
const OTHER_DOMAINS_ROUTES = {
  regex: '^\\.\\./(?:[\\w.-]+/)*index(?:\\.ts)?$',
  message: "A domain must not import another domain's routes; move the shared rule to a module both may import",
};

/** In api/src/infra/: anything above infrastructure (tools/scripts/folder-graph.mjs checks the same in npm test). */
const ABOVE_INFRA = {
  regex: '^(?:\\.\\./)+(?:domains|web|backup)/|^(?:\\.\\./)+(?:app|server)\\.ts$',
  message: 'Infrastructure imports no domain and nothing built on it (domains → infra → db, api/src/README.md).',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data*/**', '**/__mf__temp/**', '**/.__mf__temp/**', '**/test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.tsx', 'shared-kernel/src/react/**/*.ts', 'shell/src/**/*.ts', 'server/console/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Migrations are frozen in time and typed Kysely<any> on purpose.
    files: ['server/src/db/migrations/**', 'server/src/db/dialect.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...AREAS.map((area) => boundary(area)),
  boundary('shell'),
  boundary('server', API_PATHS),
  // The operator console (a browser app the server serves on the operator origin): the kernel's pure
  // rules and contract types only, nothing of the server, the shell or an area.
  boundary(
    'server',
    CONSOLE_PATHS,
    ['server/console/**/*.{ts,tsx}'],
    [
      {
        group: ['**/server/src/**', '../src/**', '../../src/**'],
        message: 'The console runs in the browser: it talks to the server only through the API.',
      },
    ],
  ),
  // The same rule with one pattern more: a later block's options replace an earlier one's.
  boundary('server', API_PATHS, ['server/src/domains/**/*.ts'], [OTHER_DOMAINS_ROUTES]),
  boundary('server', API_PATHS, ['server/src/infra/**/*.ts'], [ABOVE_INFRA]),
  // The server renderer gives the parts' server builds the server's one copy of the kernel (and configures its client).
  boundary('server', [], ['server/src/web/ssr/**/*.ts']),
  {
    // Queries live in repositories only (api/src/README.md): domains and infrastructure read as rules, not SQL.
    files: ['server/src/domains/**/*.ts', 'server/src/infra/**/*.ts', 'server/src/web/**/*.ts'],
    ignores: ['**/*.repository.ts', 'server/src/domains/*/*/repository/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression > MemberExpression.callee > Identifier.property[name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message: 'Queries belong in a repository (*.repository.ts over Db or DbOrTrx).',
        },
        {
          selector: "TaggedTemplateExpression > Identifier.tag[name='sql']",
          message: 'Queries belong in a repository (*.repository.ts over Db or DbOrTrx).',
        },
      ],
    },
  },
  {
    // One way to call the API: the kernel's client (a 401 signs the shopper out, errors are ApiError).
    files: ['shell/src/**/*.{ts,tsx}', ...AREAS.map((area) => `${area}/src/**/*.{ts,tsx}`)],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: NO_RAW_FETCH }],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].map((object) => ({ object, property: 'fetch', message: NO_RAW_FETCH })),
      ],
    },
  },
  {
    files: ['shared-kernel/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: foreignParts('shared-kernel'), message: 'The kernel depends on no part of the shop.' }] },
      ],
    },
  },
  {
    // No import cycles (type-only imports do not count: they are gone at run time). Resolved as
    // each package's tsconfig resolves them; npm packages are not followed. Costs about 8 s of lint
    // time on 2 cores (every module is parsed once more to follow its imports).
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [...APPS, 'server/console', 'shared-kernel', 'release', 'tools/s3', 'tools/gateway-simulator', 'e2e', 'tools/bench'].map(
            (dir) => `${import.meta.dirname}/${dir}/tsconfig.json`,
          ),
          noWarnOnMultipleProjects: true,
        }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // An area team runs the release command without the shop's server.
            {
              target: './release',
              from: ['./server', './shell', ...AREAS.map((area) => `./${area}`)],
              message: 'The release tool imports nothing of the API or the parts.',
            },
            // The S3 client is a library: it knows nothing of releases, files, backups or the parts.
            {
              target: './tools/s3',
              from: ['./server', './release', './shell', './shared-kernel', ...AREAS.map((area) => `./${area}`)],
              message: 'The S3 client (@shop/s3) imports nothing of the shop; its users import it.',
            },
            // The simulator is a dev tool: launchers and tests start it, the server never does. The S3
            // client (tools/s3) is a library the server and the release tool share.
            {
              target: './server/src',
              from: './tools',
              except: ['./s3'],
              message: 'Production code never starts a dev tool; a launcher or a test starts it and passes its address.',
            },
          ],
        },
      ],
    },
  },
  {
    // A package's code reaches another package only by its name and exports (tests and tools may read sources).
    files: [
      ...[...APPS, 'server/console', 'shared-kernel', 'release', 'tools/s3', 'tools/gateway-simulator'].map(
        (dir) => `${dir}/src/**/*.{ts,tsx}`,
      ),
    ],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-relative-packages': 'error' },
  },
);
