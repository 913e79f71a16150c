import { defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript sources under the `arbiter-source`
// condition, so tests run against the code as written, not a stale build.
export default defineConfig({
  resolve: { conditions: ['arbiter-source'] },
  ssr: { resolve: { conditions: ['arbiter-source'] } },
  test: {
    include: ['packages/**/src/**/*.test.ts', 'packages/**/test/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    allowOnly: false,
  },
});
