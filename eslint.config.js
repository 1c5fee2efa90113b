// ESLint (flat config): typescript-eslint's recommended rules, React's hook rules for the views, and a few rules that
// keep machines and types honest. Prettier owns the layout (eslint-config-prettier turns off what it formats).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/** casts that hide a type error instead of fixing it, and machines outside setup() (named, typed implementations) */
const house = [
  {
    selector: 'TSAsExpression > TSNeverKeyword',
    message: 'No `as never`: give the value its real type.',
  },
  {
    selector: 'TSAsExpression[expression.type="TSAsExpression"][expression.typeAnnotation.type="TSUnknownKeyword"]',
    message: 'No `as unknown as`: narrow with a type guard or fix the type at its source.',
  },
  {
    selector: 'TSAsExpression > TSTypeReference[typeName.name="Promise"]',
    message: 'No `as Promise<…>`: type the call that makes the promise.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'data/',
      '.test-data/',
      'test-results/',
      'coverage/',
      '.scratch/',
      'engine/.image/',
      'engine/.spd.*',
      'locales/',
      'openapi/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
    rules: {
      'no-restricted-syntax': ['error', ...house],
      // control characters are matched on purpose: names, cells and uploads are cleaned of them
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // lines stay readable beside a diff; Prettier wraps code, this catches long comments and strings
      'max-len': ['error', { code: 120 }],
    },
  },
  {
    files: ['src/machines/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...house,
        {
          selector: 'CallExpression[callee.name="createMachine"]',
          message: 'Build machines with setup({ actors, actions, guards }).createMachine(...): named implementations.',
        },
      ],
    },
  },
  {
    // tests feed malformed values and build fakes of platform objects on purpose
    files: ['tests/**'],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // bench harnesses read socket and JSON payloads of every kind
    files: ['server/bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // a migration must not depend on today's schema types (Kysely's advice: Kysely<any> in migrations)
    files: ['server/db/migrations/index.ts', 'server/db/migrations/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    // the two rules of hooks; the plugin's React Compiler rules are for code the compiler rewrites, and it is not used
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
