// Lint for the whole workspace, with the boundary rules of the architecture:
// an area imports only shared-kernel and its own files; the shell never
// imports an area's source; the API shares only the kernel's pure modules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const AREAS = ['mf-catalog', 'mf-checkout', 'mf-account', 'mf-content'];

/** Import patterns that reach into another part of the workspace. */
function foreignParts(own) {
  const parts = ['shell', ...AREAS, 'api', 'e2e'].filter((part) => part !== own);
  return parts.flatMap((part) => [`**/${part}/**`, `**/${part}`, `@shop/${part}`, `@shop/${part}/**`]);
}

const boundary = (own, paths = []) => ({
  files: [`${own}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [...foreignParts(own), '**/shared-kernel/src/**'],
            message: 'Parts talk only through @shop/shared-kernel (stores, event bus, URLs); never import another part.',
          },
        ],
        paths,
      },
    ],
  },
});

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
  boundary('api', [
    {
      name: '@shop/shared-kernel',
      message: 'The API uses only the pure @shop/shared-kernel/rules and the @shop/shared-kernel/contract types.',
    },
  ]),
  {
    files: ['shared-kernel/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: foreignParts('shared-kernel'), message: 'The kernel depends on no part of the shop.' }] },
      ],
    },
  },
);
