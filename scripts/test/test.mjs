// `npm test`: every suite (unit with vitest, the deploy rehearsal, the fault drill, browser with
// Playwright), each stage's time, the 15 slowest tests, then one closing line `N passed, N failed`
// that sums them, which CI reads. Exits non-zero when anything failed. Stages that wait on different
// things run side by side (the build beside the unit tests; beside the browser tests the PostgreSQL 15
// pass, then the rehearsal, then the Friday-evening clock, then the fault drill), the ones beside at a
// lower priority; docs/benchmarks.md has the figures behind each pairing.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { loadAverage, machineReference } from "../bench/machine.mjs";
import { findChromium, HEADLESS_SHELL } from "./chromium.mjs";
import { secondPassFiles } from "./database-tests.mjs";
import { failedTests, formatFailed, formatSlowest, slowestTests } from "./slowest.mjs";

const bin = (name) => `node_modules/.bin/${name}`;
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env } });
/** `run`, without blocking this process: what runs in the background can end, and start the next, meanwhile. */
const runAsync = (cmd, args, env = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: "inherit",
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env },
    });
    child.on("close", (status) => resolve({ status }));
  });
const totals = { passed: 0, failed: 0, skipped: 0 };
let problems = 0;

/** Each stage's wall time, printed at the end (docs/benchmarks.md keeps the figures). */
const stages = [];
function timed(label, work) {
  const started = Date.now();
  const done = () => {
    stages.push({ label, seconds: (Date.now() - started) / 1000 });
    console.log(`── ${label}: ${((Date.now() - started) / 1000).toFixed(0)} s ──`);
  };
  let result;
  try {
    result = work();
  } catch (error) {
    done();
    throw error;
  }
  if (result instanceof Promise) return result.finally(done);
  done();
  return result;
}

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
// This shared machine's speed varies by a third from hour to hour: runs are compared by this figure
// (3 s), taken before anything else runs.
const machine = `machine reference ${await machineReference()} req/s at load ${loadAverage().join(" ")}`;
console.log(`\n── ${machine} ──`);

/**
 * What runs beside a stage runs at a lower priority (nice 10): the stage in the foreground is the
 * run's critical path (the browser tests end last), while what runs beside it has time to spare and
 * takes the CPU the foreground leaves (docs/benchmarks.md, "The side stages niced").
 */
const BESIDE_NICENESS = "10";

/**
 * Runs a command beside the one in the foreground, at BESIDE_NICENESS: its output goes to
 * test-results/<label>.log and is printed whole when it ends, so the two never interleave. Resolves
 * with { status }.
 */
function background(label, cmd, args, env = {}) {
  const started = Date.now();
  const logFile = `test-results/${label.replaceAll(" ", "-")}.log`;
  const out = openSync(logFile, "w");
  // The shell notes when the command ended: this process may be inside a foreground stage then.
  const endFile = `${logFile}.end`;
  rmSync(endFile, { force: true });
  const child = spawn(
    "nice",
    ["-n", BESIDE_NICENESS, "sh", "-c", '"$@"; status=$?; date +%s%3N > "$END_FILE"; exit $status', "sh", cmd, ...args],
    {
      stdio: ["ignore", out, out],
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env, END_FILE: endFile },
    },
  );
  return new Promise((resolve) => {
    child.on("close", (status) => {
      closeSync(out);
      const ended = existsSync(endFile) ? Number(readFileSync(endFile, "utf8")) : Date.now();
      stages.push({ label, seconds: (ended - started) / 1000 });
      resolve({
        status,
        print: () =>
          console.log(
            `\n── ${label} (ran beside the stage before; ${logFile}) ──\n${existsSync(logFile) ? readFileSync(logFile, "utf8") : "(its log is gone)"}`,
          ),
      });
    });
  });
}

/** Adds a vitest JSON report's counts to the totals. */
function countVitest(report, status) {
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, "utf8"));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    // A file that fails to load has no failed test but must still count.
    if (r.numFailedTestSuites && !r.numFailedTests) totals.failed += r.numFailedTestSuites;
  } else if (status !== 0) {
    totals.failed += 1;
    problems++;
  }
}

const vitestArgs = (label, files) => [
  "run",
  ...files,
  "--reporter=default",
  "--reporter=json",
  `--outputFile=test-results/${label}.json`,
];

// 1. Unit and integration tests, the database ones on an embedded PostgreSQL started for the run. Beside
// them, the site is built once, for the drill, the browser tests and the clock case (each then finds
// it current): the build keeps about one core busy while the tests wait on PostgreSQL.
for (const label of ["unit", "postgres"]) rmSync(`test-results/${label}.json`, { force: true });
// Which statements each database file runs (db/test-setup.ts), for the PostgreSQL 15 pass below.
const sqlCoverage = "test-results/sql-coverage.json";
rmSync(sqlCoverage, { force: true });
const building = background("build", process.execPath, ["scripts/build/build.mjs"]);
console.log("\n── unit ──");
const unit = timed("unit", () =>
  run(bin("vitest"), vitestArgs("unit", []), { TEST_DATABASE_URL: "", SQL_COVERAGE_FILE: sqlCoverage }),
);
countVitest("test-results/unit.json", unit.status);
const build = await building;
build.print();
const built = build.status === 0;
if (!built) {
  totals.failed += 1;
  problems++;
}

// 2. The browser tests against the production build. Beside them, the suites that open a database run
// again on the PostgreSQL of TEST_DATABASE_URL when one is given (CI: the machine's PostgreSQL 15, the
// oldest the product supports): of them, the files that together run every statement the first pass
// ran (scripts/test/database-tests.mjs, from db/test-setup.ts's record of each file's statements).
// A file whose every statement another of them runs would check nothing new there.
const secondPass = process.env.TEST_DATABASE_URL
  ? secondPassFiles(process.cwd(), sqlCoverage, "test-results/unit.json")
  : undefined;
if (secondPass)
  console.log(
    `\nThe PostgreSQL 15 pass: ${secondPass.files.length} of the ${secondPass.all.length} database files, ` +
      `which run every statement the first pass ran: ${secondPass.files.join(", ")}`,
  );
const onPostgres = secondPass
  ? // Two workers: the browser tests keep the other half of the machine.
    background("postgres", bin("vitest"), [...vitestArgs("postgres", secondPass.files), "--maxWorkers=2"])
  : undefined;
// When that pass ends (after about a third of the browser stage), the deploy rehearsal
// (scripts/drill/rehearse-deploy.mjs) takes its place beside the browser tests: packaged functions,
// PgBouncer, a burst, the migrations, a preview build (`--no-site`: dist/ is not touched), Neon's
// driver, the outbox backlog. It uses the machine's PostgreSQL too, so never beside the pass.
// One result: passed or failed.
const rehearsing = (onPostgres ?? Promise.resolve()).then(() =>
  // One cold start per function, not the median of three: the checks read the first; the figure is
  // npm run rehearse:deploy's.
  background("deploy rehearsal", process.execPath, ["scripts/drill/rehearse-deploy.mjs"], {
    REHEARSE_COLD_RUNS: process.env.REHEARSE_COLD_RUNS ?? "1",
  }),
);
// 3. When the rehearsal ends, the browser tests' last minutes leave about a quarter of the machine
// idle: the booking specs run once more there, on a Friday evening (scripts/test/clock-matrix.mjs),
// the day after office hours whose first bookable day is the one the dialog opens on. Their servers
// take ports of their own (8903 and 8905; the browser tests hold 8899–8902) and Playwright an output
// folder of its own, as it empties its folder when it starts. `npm run test:clock` runs every clock
// case, the vitest suites included.
const friday = "test-results/clock-friday-evening-e2e.json";
rmSync(friday, { force: true });
const clocking = built
  ? rehearsing.then(() =>
      background(
        "clock friday-evening",
        process.execPath,
        ["scripts/test/clock-matrix.mjs", "--only=friday-evening", "--suites=e2e"],
        { E2E_PORT: "8903", E2E_OUTPUT_DIR: "test-results/e2e-clock" },
      ),
    )
  : undefined;
// 4. After it, still beside the browser tests' tail, the fault drill (scripts/drill/drill.mjs): the
// embedded PostgreSQL killed, SIGTERM, the mail server refusing, each during a burst on `npm start`,
// with limits on how soon it serves again (120 s) and exits (10 s; it took 1.0 s and 29 s in all when
// it ran alone, 30 November). One result per step.
rmSync("test-results/drill.json", { force: true });
const drilling = (clocking ?? rehearsing).then(() =>
  background("fault drill", process.execPath, ["scripts/drill/drill.mjs", "--report=test-results/drill.json"]),
);
if (built && ensureChromium()) {
  rmSync("test-results/e2e.json", { force: true });
  console.log("\n── browser ──");
  // Not spawnSync: this process must see the PostgreSQL 15 pass end meanwhile, to start the rehearsal.
  const e2e = await timed("browser", () => runAsync(bin("playwright"), ["test"]));
  if (existsSync("test-results/e2e.json")) {
    const { stats, errors } = JSON.parse(readFileSync("test-results/e2e.json", "utf8"));
    totals.passed += stats.expected;
    totals.failed += stats.unexpected + stats.flaky + (errors?.length && !stats.unexpected ? errors.length : 0);
    totals.skipped += stats.skipped;
  } else if (e2e.status !== 0) {
    totals.failed += 1;
    problems++;
  }
} else {
  totals.failed += 1;
  problems++;
}
if (onPostgres) {
  const pg = await onPostgres;
  pg.print();
  countVitest("test-results/postgres.json", pg.status);
}

const rehearsal = await rehearsing;
rehearsal.print();
if (rehearsal.status === 0) totals.passed += 1;
else totals.failed += 1;
if (clocking) (await clocking).print();
if (existsSync(friday)) {
  const { stats } = JSON.parse(readFileSync(friday, "utf8"));
  totals.passed += stats.expected;
  totals.failed += stats.unexpected + stats.flaky;
} else {
  totals.failed += 1;
  problems++;
}

const drill = await drilling;
drill.print();
if (existsSync("test-results/drill.json")) {
  const report = JSON.parse(readFileSync("test-results/drill.json", "utf8"));
  totals.passed += report.passed;
  totals.failed += report.failed || (drill.status === 0 ? 0 : 1);
} else {
  totals.failed += 1;
  problems++;
}

const reports = [
  { file: "test-results/unit.json", kind: "vitest", suite: "unit" },
  { file: "test-results/postgres.json", kind: "vitest", suite: "pg15" },
  { file: "test-results/e2e.json", kind: "playwright", suite: "browser" },
  { file: "test-results/clock-friday-evening-e2e.json", kind: "playwright", suite: "clock" },
];
const slowest = slowestTests(reports);
const failed = failedTests(reports);
const install = process.env.CI_INSTALL_SECONDS ? `install ${process.env.CI_INSTALL_SECONDS} s, ` : "";
const since = Number(process.env.CI_STARTED_AT);
const whole = since ? `; the whole run ${Math.round(Date.now() / 1000 - since)} s, begun ${begun(since)}` : "";
console.log(
  `\nStages (${machine}): ${install}${stages.map((s) => `${s.label} ${s.seconds.toFixed(0)} s`).join(", ")}${whole}`,
);
console.log(`\nThe 15 slowest tests:\n${formatSlowest(slowest)}`);
// Last before the count: a CI log is often kept only by its end. The rehearsal and the drill name their own.
if (failed.length) console.log(`\nFailed (${failed.length}):\n${formatFailed(failed)}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(totals.failed || problems ? 1 : 0);

/** When the run began, with its weekday, in UTC and in the office's time zone: runs are compared by hour and day. */
function begun(unixSeconds) {
  const at = new Date(unixSeconds * 1000);
  const format = (timeZone) =>
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(at);
  return `${format("UTC")} UTC (${format(OFFICE_TIME_ZONE)} in Amsterdam)`;
}
