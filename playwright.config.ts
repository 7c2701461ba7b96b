import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { findTestBrowser } from "./scripts/test/chromium.mjs";

const port = Number(process.env.E2E_PORT || 8899);
const baseURL = process.env.E2E_BASE_URL || `http://localhost:${port}`;
// Every run starts on a fresh embedded database (and never touches the developer's .data/).
const dataDir =
  process.env.E2E_DATA_DIR || (process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), "bridgewise-e2e-")));

/**
 * The specs that link more consultants run against a server of their own, two ports up
 * (content-editor.spec.ts takes the next one, team-member.spec.ts the one after): on the other
 * specs' server a second consultant would leave every slot they book free for one more visitor.
 * e2e/consultants.ts links them.
 */
const CONSULTANT_SPECS = [
  "**/booking-consultant.spec.ts",
  "**/consultant-staff.spec.ts",
  "**/consultants-panel.spec.ts",
];
const consultantsPort = port + 2;
const consultantsURL = process.env.E2E_BASE_URL || `http://localhost:${consultantsPort}`;
const consultantsDataDir =
  process.env.E2E_CONSULTANTS_DATA_DIR ||
  (process.env.E2E_CONSULTANTS_DATA_DIR = mkdtempSync(path.join(tmpdir(), "bridgewise-e2e-consultants-")));

/** `npm start` for the browser tests, on `serverPort` and the embedded database in `data`. */
function server(serverPort: number, data: string, origin: string) {
  return {
    command: "node scripts/test/e2e-server.mjs",
    // Many bookings and enquiries from one address: the abuse limits are off (the bot traps stay on;
    // the limits have their own tests in functions/_tests/abuse.test.ts).
    env: {
      PORT: String(serverPort),
      DATA_DIR: data,
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "e2e-admin-password",
      RATE_LIMIT: "off",
      // The calendar specs serve their feeds from loopback (test-only switch; ignored in production).
      CALENDAR_FETCH_ALLOW: "loopback",
      // Passkeys are bound to the address the browser uses (e2e/admin-factors.spec.ts).
      PASSKEY_ORIGIN: origin,
    },
    url: `${origin}/en/`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe" as const,
    // npm start stops in order on SIGTERM, PostgreSQL last (it runs in a process group of its own,
    // so Playwright's default, SIGKILL to the server's group, would leave it running).
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
  };
}

/**
 * Browser tests run against the production build served by `npm start` (scripts/runtime/server.mjs),
 * started through scripts/test/e2e-server.mjs: the admin account below has a cost-4 fixture hash, so the
 * tests' many sign-ins and step-ups as the admin do not queue behind cost-12 comparisons.
 */
export default defineConfig({
  testDir: "e2e",
  // Playwright empties its output folder when it starts: its own, so the vitest reports and the logs of
  // the stages `npm test` runs beside the browser tests (test-results/*.json, *.log) stay, and one of
  // each run when two run at once (E2E_OUTPUT_DIR: `npm test` runs the Friday-evening clock's beside).
  outputDir: process.env.E2E_OUTPUT_DIR || "test-results/e2e",
  // Generous limits for a busy 2-core machine. Tests wait for what a user would see; speed is
  // measured by `npm run bench:web` and `npm run bench:api`, not here.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  // E2E_WORKERS chooses; CI takes 2, a developer's run Playwright's default (half the cores). With 3,
  // a slow hour's run failed three tests on timeouts (a rebuild over 180 s, a test over 60 s) where 2
  // passed in the same hour, and was no faster (docs/benchmarks.md, "Three workers in CI"). All sign
  // in from 127.0.0.1, which RATE_LIMIT=off lets have the server's whole share of password comparisons.
  workers: Number(process.env.E2E_WORKERS) || (process.env.CI ? 2 : undefined),
  // No retries: a test that fails now and then is a race to find and fix.
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL,
    // A trace of each test, kept when it fails, doubles what a test costs the CPU (admin-shell.spec.ts:
    // 52–53 s of CPU with it, 25–27 s without; docs/benchmarks.md). CI, where nobody opens it, runs
    // without; a developer's run keeps it for a failed test. E2E_TRACE=off, on or retain-on-failure chooses.
    trace: (process.env.E2E_TRACE ?? (process.env.CI ? "off" : "retain-on-failure")) as
      "off" | "on" | "retain-on-failure",
    launchOptions: {
      // Chromium's headless shell when installed, the full browser otherwise (scripts/test/chromium.mjs).
      executablePath: findTestBrowser() ?? undefined,
      // The machine is offline: keep Chromium from calling home.
      args: [
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "chromium", testIgnore: CONSULTANT_SPECS, use: { ...devices["Desktop Chrome"], channel: undefined } },
    {
      name: "consultants",
      testMatch: CONSULTANT_SPECS,
      use: { ...devices["Desktop Chrome"], channel: undefined, baseURL: consultantsURL },
    },
  ],
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : [server(port, dataDir, baseURL), server(consultantsPort, consultantsDataDir, consultantsURL)],
});
