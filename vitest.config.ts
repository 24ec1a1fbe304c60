import { defineConfig } from 'vitest/config';

// Three projects: `unit` needs nothing but Node (npm test); `services` needs the real
// PostgreSQL and Redis on 127.0.0.1; `e2e` drives the built gateway and the compose stack.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'common/**/*.test.ts',
            'gateway/**/*.test.ts',
            'cli-ink/**/*.test.ts',
            'sidecars/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', '**/*.services.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'services',
          include: ['**/*.services.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 30_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          exclude: ['**/node_modules/**'],
          // testcontainers' reaper (ryuk) is an image from Docker Hub, which cannot be pulled
          // here; each suite stops its own containers instead.
          env: { TESTCONTAINERS_RYUK_DISABLED: 'true' },
          testTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
