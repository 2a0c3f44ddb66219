// One linter for the whole repo (flat config). Type-aware rules stay off so lint is fast
// and does not need a build; `pnpm typecheck` covers types.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '**/.turbo/**',
      '**/data/**',
      'artifacts/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Decimal'][callee.property.name='set']",
          message: 'Use Decimal.clone() instead of the global Decimal.set().',
        },
      ],
    },
  },
  {
    files: ['**/*.tsx', 'apps/portal/src/**/*.ts', 'packages/ui/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Keep the arrows one way: pricing and ui import nothing of ours.
    files: ['packages/pricing/**/*.{ts,tsx}', 'packages/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@firm/*', '**/apps/**'] }],
    },
  },
  {
    // The portal and the API import the packages, never each other.
    files: ['apps/portal/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@firm/api', '**/apps/api/**'] }] },
  },
  {
    files: ['apps/api/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@firm/portal', '**/apps/portal/**'] }],
    },
  },
);
