import js from '@eslint/js';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      'dist/',
      '.ralph/',
      'coverage/',
      'examples/*/template/',
      'examples/*/steps/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  comments.recommended,
  {
    // A rule switched off says why, in one line: `// eslint-disable-next-line rule -- why`.
    rules: { '@eslint-community/eslint-comments/require-description': 'error' },
  },
  {
    // Small files with one job each: past 400 lines a file does more than one; past 80 lines
    // (blank and comment lines aside) a function does. Tests and fixtures are exempt.
    files: ['{lambdas,agent,local,bin,lib,bench}/**/*.{ts,mjs}'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tool configuration that must be CommonJS (dependency-cruiser's).
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly' },
    },
  },
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      // Destructuring with a rest drops what it names: those names are meant to go unused.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The core is pure: no AWS SDK, no adapters, no environment, no wall clock.
    files: ['lambdas/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aws-sdk/*', 'aws-cdk-lib', 'aws-cdk-lib/*'],
              message: 'core is pure TypeScript',
            },
            {
              group: ['**/adapters/**', '**/handlers/**'],
              message: 'core must not depend on adapters',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'read configuration in handlers, not in core',
        },
        { object: 'Date', property: 'now', message: 'use the Clock port' },
      ],
    },
  },
);
