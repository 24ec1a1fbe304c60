// Lint rules carry architecture: no `any`, no floating promises, no console outside the
// logger/CLI output, and `process.env` only inside a `config/` folder.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Built, not written: redoc's bundle is copied into gateway/assets by the build.
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'gateway/drizzle/**',
      'gateway/assets/**',
      'coverage/**',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read the environment only in a config/ folder.',
        },
      ],
    },
  },
  {
    files: ['**/config/**', '**/*.test.ts', 'bench/**', 'e2e/**', 'scripts/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.test.ts', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  // The web client runs in the browser (its service worker in a worker scope).
  { files: ['web/src/**'], languageOptions: { globals: globals.browser } },
  { files: ['web/public/sw.js'], languageOptions: { globals: globals.serviceworker } },
  { files: ['web/public/voice-capture.js'], languageOptions: { globals: globals.audioWorklet } },
  prettier,
);
