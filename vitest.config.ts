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
    // `gate hook` forwards to a background gate daemon by default; tests that spawn hooks judge
    // in-process unless they test the daemon itself (packages/cli/test/gate-daemon.test.ts), so
    // no daemon outlives the suite.
    env: { ARBITER_GATE_DAEMON: 'off' },
  },
});
