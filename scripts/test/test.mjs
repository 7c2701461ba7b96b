// `npm test`: every suite (unit with vitest, the deploy rehearsal, the fault drill, browser with
// Playwright), then one closing line `N passed, N failed` that sums them, which CI reads. Exits
// non-zero when anything failed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { findChromium, HEADLESS_SHELL } from "./chromium.mjs";
import { buildIfNeeded } from "../build/build-if-needed.mjs";

const bin = (name) => `node_modules/.bin/${name}`;
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env } });
const totals = { passed: 0, failed: 0, skipped: 0 };
let problems = 0;

function ensureChromium() {
  const isRoot = process.getuid?.() === 0;
  const canInstall = isRoot && existsSync("/usr/bin/apt-get") && !process.env.CHROMIUM_PATH;
  if (!findChromium() && canInstall) {
    console.log("Chromium is missing: installing Debian's chromium package…");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium", "fonts-noto-core"]);
  }
  if (!findChromium()) {
    console.error(
      "Chromium is required for the browser tests and could not be installed.\n" +
        "Install it with `sudo apt-get install -y chromium` (or set CHROMIUM_PATH) and run `npm test` again.",
    );
    return false;
  }
  // The headless shell only makes the browser suite faster (scripts/test/chromium.mjs): tried once, quietly.
  if (canInstall && !existsSync(HEADLESS_SHELL)) {
    console.log("Installing Debian's chromium-headless-shell for the browser tests…");
    spawnSync("apt-get", ["install", "-y", "-qq", "chromium-headless-shell"], { stdio: "ignore" });
  }
  return true;
}

/**
 * Debian's radicale (a CalDAV server) for the connected-calendar tests (functions/_tests/radicale.test.ts):
 * installed as the browser is, when missing and run as root; otherwise that test says how to install it.
 */
function ensureRadicale() {
  const present = () => !spawnSync("radicale", ["--version"], { stdio: "ignore" }).error;
  if (present()) return;
  if (process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    console.log("radicale is missing: installing Debian's radicale package for the calendar tests…");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "radicale"]);
  }
  if (!present())
    console.error(
      "radicale could not be installed: the calendar test against it will fail. " +
        "Install it with `sudo apt-get install -y radicale` and run `npm test` again.",
    );
}

mkdirSync("test-results", { recursive: true });
ensureRadicale();

/** Runs vitest once and adds its counts to the totals. */
function vitest(label, args, env) {
  const report = `test-results/${label}.json`;
  rmSync(report, { force: true });
  console.log(`\n── ${label} ──`);
  const result = run(
    bin("vitest"),
    ["run", ...args, "--reporter=default", "--reporter=json", `--outputFile=${report}`],
    env,
  );
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, "utf8"));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    // A file that fails to load has no failed test but must still count.
    if (r.numFailedTestSuites && !r.numFailedTests) totals.failed += r.numFailedTestSuites;
  } else if (result.status !== 0) {
    totals.failed += 1;
    problems++;
  }
}

// 1. Unit and integration tests, the database ones on an embedded PostgreSQL started for the run…
vitest("unit", [], { TEST_DATABASE_URL: "" });
// …and the database and API suites again on the PostgreSQL of TEST_DATABASE_URL when one is given.
if (process.env.TEST_DATABASE_URL) vitest("postgres", ["db", "functions"], {});

// 2. The deploy rehearsal (scripts/drill/rehearse-deploy.mjs): packaged functions, PgBouncer, a burst, the
// migrations, a preview build, Neon's driver, the outbox backlog. One result: passed or failed.
console.log("\n── deploy rehearsal ──");
const rehearsal = run(process.execPath, ["scripts/drill/rehearse-deploy.mjs"]);
if (rehearsal.status === 0) totals.passed += 1;
else totals.failed += 1;

// 3. The fault drill (scripts/drill/drill.mjs): the embedded PostgreSQL killed, SIGTERM, the mail server
// refusing, each during a burst on `npm start`. One result per step.
console.log("\n── fault drill ──");
rmSync("test-results/drill.json", { force: true });
const drill = run(process.execPath, ["scripts/drill/drill.mjs", "--report=test-results/drill.json"]);
if (existsSync("test-results/drill.json")) {
  const report = JSON.parse(readFileSync("test-results/drill.json", "utf8"));
  totals.passed += report.passed;
  totals.failed += report.failed || (drill.status === 0 ? 0 : 1);
} else {
  totals.failed += 1;
  problems++;
}

// 4. Browser tests against the production build.
if (ensureChromium()) {
  buildIfNeeded(process.cwd(), { force: true });
  rmSync("test-results/e2e.json", { force: true });
  const e2e = run(bin("playwright"), ["test"]);
  if (existsSync("test-results/e2e.json")) {
    const { stats, errors } = JSON.parse(readFileSync("test-results/e2e.json", "utf8"));
    totals.passed += stats.expected;
    totals.failed += stats.unexpected + stats.flaky + (errors?.length && !stats.unexpected ? errors.length : 0);
    totals.skipped += stats.skipped;
  } else if (e2e.status !== 0) {
    totals.failed += 1;
    problems++;
  }
  // 5. The booking specs once more on a Friday evening (scripts/test/clock-matrix.mjs): the day after
  // office hours whose first bookable day is the one the dialog opens on. `npm run test:clock` runs
  // every clock case, the vitest suites included.
  rmSync("test-results/clock-friday-evening-e2e.json", { force: true });
  run(process.execPath, ["scripts/test/clock-matrix.mjs", "--only=friday-evening", "--suites=e2e"]);
  const friday = "test-results/clock-friday-evening-e2e.json";
  if (existsSync(friday)) {
    const { stats } = JSON.parse(readFileSync(friday, "utf8"));
    totals.passed += stats.expected;
    totals.failed += stats.unexpected + stats.flaky;
  } else {
    totals.failed += 1;
    problems++;
  }
} else {
  totals.failed += 1;
  problems++;
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(totals.failed || problems ? 1 : 0);
