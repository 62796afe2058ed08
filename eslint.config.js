import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '.astro/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'widget-sdk/dist/', 'packages/api-client/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Every schema must get the product's error messages: import z from common/zod.ts.
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "Import { z } from 'common/zod.ts' instead." }] }],
    },
  },
  { files: ['common/zod.ts'], rules: { 'no-restricted-imports': 'off' } },
  // Playwright fixtures take `use` and an empty destructuring by design.
  { files: ['tests/e2e/**'], rules: { 'react-hooks/rules-of-hooks': 'off', 'no-empty-pattern': 'off' } },
);
