// Lint for the whole workspace, with the boundary rules of the architecture:
// an area imports only shared-kernel and its own files; the shell never
// imports an area's source; the API shares only the kernel's pure modules;
// an API domain never imports another domain's routes; no import cycles.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

const AREAS = ['mf-catalog', 'mf-checkout', 'mf-account', 'mf-content'];

const NO_RAW_FETCH =
  "Call the API through the kernel's client (@shop/shared-kernel): `call('GET /api/…', { params, query, body })` as the contract names the call (a new call is a new row of a contract table); it sends the session, signs out on a 401 and throws ApiError.";

/** Import patterns that reach into another part of the workspace. */
function foreignParts(own) {
  const parts = ['shell', ...AREAS, 'api', 'e2e'].filter((part) => part !== own);
  return parts.flatMap((part) => [`**/${part}/**`, `**/${part}`, `@shop/${part}`, `@shop/${part}/**`]);
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

/** In api/src/routes/<domain>/: another domain's routes module (`../<other>/index.ts`, `../../routes/<other>/index.ts`). */
const OTHER_DOMAINS_ROUTES = {
  regex: '^\\.\\./(?:\\.\\./routes/)?[\\w-]+/index(?:\\.ts)?$',
  message: "A domain must not import another domain's routes; move the shared rule to a module both may import",
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
    files: ['**/*.tsx', 'shared-kernel/src/react/**/*.ts', 'shell/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Migrations are frozen in time and typed Kysely<any> on purpose.
    files: ['api/src/db/migrations/**', 'api/src/db/dialect.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...AREAS.map((area) => boundary(area)),
  boundary('shell'),
  boundary('api', API_PATHS),
  // The same rule with one pattern more: a later block's options replace an earlier one's.
  boundary('api', API_PATHS, ['api/src/routes/**/*.ts'], [OTHER_DOMAINS_ROUTES]),
  // The server renderer gives the parts' server builds the server's one copy of the kernel (and configures its client).
  boundary('api', [], ['api/src/web/ssr/**/*.ts']),
  {
    // Queries live in repositories only (api/src/README.md): domains and infrastructure read as rules, not SQL.
    files: ['api/src/routes/**/*.ts', 'api/src/lib/**/*.ts', 'api/src/web/**/*.ts'],
    ignores: ['**/*.repository.ts', 'api/src/routes/*/repository/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression > MemberExpression.callee > Identifier.property[name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]",
          message: 'Queries belong in a repository (*.repository.ts over Db or DbOrTrx).',
        },
        { selector: "TaggedTemplateExpression > Identifier.tag[name='sql']", message: 'Queries belong in a repository (*.repository.ts over Db or DbOrTrx).' },
      ],
    },
  },
  {
    // One way to call the API: the kernel's client (a 401 signs the shopper out, errors are ApiError).
    files: ['shell/src/**/*.{ts,tsx}', 'mf-*/src/**/*.{ts,tsx}'],
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
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: [`${import.meta.dirname}/*/tsconfig.json`], noWarnOnMultipleProjects: true })],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
