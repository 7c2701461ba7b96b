import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "functions/**/*.test.ts", "db/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    // One PostgreSQL server per run with a migrated template; each test file copies it.
    globalSetup: ["db/test-setup.ts"],
    // bcrypt at cost 12 and real databases: generous limits so a busy 2-core machine does not
    // turn slowness into failures. Speed is measured by benchmarks, not by test timeouts.
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
