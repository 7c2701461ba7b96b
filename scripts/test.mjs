// `npm test`: every suite (unit with vitest, browser with Playwright), then one closing line
// `N passed, N failed` that sums them, which CI reads. Exits non-zero when anything failed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { findChromium } from "./lib/chromium.mjs";
import { buildIfNeeded } from "./lib/build-if-needed.mjs";

const bin = (name) => `node_modules/.bin/${name}`;
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env } });
const totals = { passed: 0, failed: 0, skipped: 0 };
let problems = 0;

function ensureChromium() {
  if (findChromium()) return true;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log("Chromium is missing: installing Debian's chromium package…");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium"]);
    if (findChromium()) return true;
  }
  console.error("Chromium is required for the browser tests and could not be installed.\n" + "Install it with `sudo apt-get install -y chromium` (or set CHROMIUM_PATH) and run `npm test` again.");
  return false;
}

mkdirSync("test-results", { recursive: true });

// 1. Unit and integration tests.
rmSync("test-results/unit.json", { force: true });
const unit = run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", "--outputFile=test-results/unit.json"]);
if (existsSync("test-results/unit.json")) {
  const report = JSON.parse(readFileSync("test-results/unit.json", "utf8"));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  if (report.numFailedTestSuites && !report.numFailedTests) totals.failed += report.numFailedTestSuites;
} else if (unit.status !== 0) {
  totals.failed += 1;
  problems++;
}

// 2. Browser tests against the production build.
if (ensureChromium()) {
  buildIfNeeded(process.cwd(), { force: true });
  rmSync("test-results/e2e.json", { force: true });
  const e2e = run(bin("playwright"), ["test"]);
  if (existsSync("test-results/e2e.json")) {
    const { stats, errors } = JSON.parse(readFileSync("test-results/e2e.json", "utf8"));
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected + (errors?.length && !stats.unexpected ? errors.length : 0);
    totals.skipped += stats.skipped;
  } else if (e2e.status !== 0) {
    totals.failed += 1;
    problems++;
  }
} else {
  totals.failed += 1;
  problems++;
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(totals.failed || problems ? 1 : 0);
