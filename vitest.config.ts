import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    // Server and domain tests are the majority; component tests opt in with `// @vitest-environment jsdom`.
    environment: 'node',
    // The pure parts of scripts/ (e.g. the SYNC.md id check) are unit-tested beside them.
    exclude: ['**/node_modules/**', 'bench/**', 'e2e/**', 'dist/**'],
    // Integration tests start real databases (PGlite, PostgreSQL); their set-up is slow on a cold machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The summary line of `npm test` shows "0 passed", so an empty run is visible without failing.
    passWithNoTests: true,
    // One migrated PGlite for the run, copied by every test that opens one (testkit/globalSetup.ts).
    globalSetup: ['testkit/globalSetup.ts'],
    // OUTPOST_PLAIN_DEXIE=1: the data layer's faster routes off, plain Dexie only (testkit/plainDexie.ts).
    // Every app a test builds holds its answers to the documented schemas (testkit/responseCheck.ts).
    setupFiles: ['testkit/plainDexie.ts', 'testkit/responseCheck.ts'],
    // Most suites wait on a database, not the CPU: two files at a time finish sooner even on 2 cores.
    maxWorkers: 2,
    projects: [
      {
        // Server, domain and script tests share one module graph per worker: each file imported the
        // whole server again (a third of their run). They keep no state between files: every test
        // builds its own app on its own database, and nothing they import holds module-level state
        // a test changes.
        extends: true,
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          // vi.mock replaces a module for its own file only, which needs the file's own module graph.
          exclude: ['src/server/contacts/contacts.test.ts'],
          isolate: false,
        },
      },
      {
        // Client tests stay isolated, and so does a server test that mocks a module: the data layer
        // keeps one device database and its services per module, as the app does per tab.
        extends: true,
        test: {
          name: 'isolated',
          // Threads start a file's module graph sooner than forked processes: 279 s → 241 s for the 115 files.
          pool: 'threads',
          include: ['src/client/**/*.test.{ts,tsx}', 'src/server/contacts/contacts.test.ts'],
        },
      },
    ],
  },
});
