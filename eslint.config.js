import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      '.ralph/',
      'coverage/',
      'examples/*/template/',
      'examples/*/steps/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
