import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'tools',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          // The tools' tests run the commands they test in processes of their own (the checks, the build).
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts', 'packages/server/test/**/*.test.ts'],
          environment: 'node',
          execArgv: ['--no-node-snapshot'],
          globalSetup: ['packages/server/test/global-setup.ts'],
          // The server's modules are loaded once per worker, not once per test file: each file
          // works in a database of its own and none of them mocks a module, stubs the environment
          // or fakes the clock, so loading them again (about a third of the project's time) buys nothing.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['packages/web/src/**/*.test.{ts,tsx}', 'packages/web/test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['packages/web/test/setup.ts'],
          // antd screens in jsdom are slow on a loaded two-core machine.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
