import { defineConfig } from "vitest/config";
import { friendlyJson } from "./tools/copy-check/integration.ts";

export default defineConfig({
  // A JSON syntax mistake under src/ fails with the copy check's message (file, line, plain words).
  plugins: [friendlyJson(import.meta.dirname)],
  test: {
    include: [
      "src/**/*.test.ts",
      "server/**/*.test.ts",
      "tools/**/*.test.ts",
      "functions/**/*.test.ts",
      "db/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    environment: "node",
    // The deploy bundles scripts/build/bundle-functions.test.ts writes to temporary folders load in Node
    // itself, as Netlify loads them: through Vite's transform, 45 bundles took 60–220 s, natively 10 s.
    server: { deps: { external: [/\/bundle-(entries|worker)-[^/]+\//] } },
    // One PostgreSQL server per run with a migrated template; each test file copies it.
    globalSetup: ["db/test-setup.ts"],
    // A worker runs one file after another instead of being spawned afresh for each: a new worker cost
    // each of the 141 files about 1.2 s of CPU (the whole pass 664 s of CPU against 489 s). Before each
    // file the setup file gives it the worker's first environment and fresh project modules.
    isolate: false,
    setupFiles: ["scripts/test/vitest-file-setup.ts"],
    // bcrypt at cost 12 and real databases: generous limits so a busy 2-core machine does not
    // turn slowness into failures. Speed is measured by benchmarks, not by test timeouts.
    testTimeout: 30_000,
    // The database suites mostly wait on PostgreSQL (another process): four files at a time keep two
    // cores busy; more workers gain nothing (docs/benchmarks.md).
    maxWorkers: 4,
    hookTimeout: 120_000,
  },
});
