import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    // Server and domain tests are the majority; component tests opt in with `// @vitest-environment jsdom`.
    environment: 'node',
    // The pure parts of scripts/ (e.g. the SYNC.md id check) are unit-tested beside them.
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
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
  },
});
