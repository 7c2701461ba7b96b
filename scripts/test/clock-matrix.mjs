// `npm run test:clock`: the booking, manage-link, reminder and calendar suites (vitest files and the
// booking and meeting-manage browser specs) with the clock set to the days that have broken tests
// before: a Friday evening, a weekend, the day before each DST change, the year's end, a leap day and
// a Dutch public holiday (times in Europe/Amsterdam). The clock is the process clock of every Node
// process of the run (scripts/test/test-clock.mjs through NODE_OPTIONS): the test runners, the vitest
// workers and the server Playwright starts; it starts at the case's moment and runs on.
//
//   npm run test:clock                              every case, vitest and browser
//   npm run test:clock -- --only=friday-evening     some cases (comma-separated names)
//   npm run test:clock -- --suites=e2e              only the browser specs (or --suites=vitest)
//
// Ends with one line `N passed, N failed` like `npm test`, after a line per case.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { buildIfNeeded } from "../build/build-if-needed.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ZONE = "Europe/Amsterdam";

/** The vitest files whose subject depends on the date, the weekday or the hour. */
export const CLOCK_VITEST_FILES = [
  "src/shared/booking.test.ts",
  "src/shared/booking-guardrails.test.ts",
  "src/shared/holidays.test.ts",
  "src/shared/office.test.ts",
  "src/shared/working-days.test.ts",
  "functions/_lib/calendars/expand.test.ts",
  "functions/_tests/availability.test.ts",
  "functions/_tests/booking-rules.test.ts",
  "functions/_tests/busy-calendars.test.ts",
  "functions/_tests/manage-limits.test.ts",
  "functions/_tests/meeting-lifecycle.test.ts",
  "functions/_tests/meeting-place.test.ts",
  "functions/_tests/meetings-feed.test.ts",
  "functions/_tests/meetings.test.ts",
  "functions/_tests/notifications.test.ts",
  "functions/_tests/radicale.test.ts",
  "functions/_tests/schedule.test.ts",
  "db/meetings.repository.integration.test.ts",
];
/** The browser specs of booking and of the manage link. */
export const CLOCK_E2E_SPECS = ["e2e/booking.spec.ts", "e2e/meeting-manage.spec.ts", "e2e/first-paint.spec.ts"];

/** `hh:mm` on `ymd` in Amsterdam as an ISO time with its offset that day (+01:00 or +02:00). */
export function amsterdam(ymd, hm) {
  const guess = new Date(`${ymd}T${hm}:00Z`);
  const name = new Intl.DateTimeFormat("en-GB", { timeZone: ZONE, timeZoneName: "longOffset" })
    .formatToParts(guess)
    .find((p) => p.type === "timeZoneName").value; // "GMT+01:00"
  return `${ymd}T${hm}:00${name.slice(3) || "+00:00"}`;
}

/** The next `weekday` (0 Sunday … 6 Saturday) after today in Amsterdam, as yyyy-MM-dd. */
function next(weekday, from = new Date()) {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(from);
  const day = new Date(`${today}T12:00:00Z`);
  do day.setUTCDate(day.getUTCDate() + 1);
  while (day.getUTCDay() !== weekday);
  return day.toISOString().slice(0, 10);
}

/** The cases: a name and the moment the clock starts at. */
export function clockCases(from = new Date()) {
  return [
    { name: "friday-evening", at: amsterdam(next(5, from), "18:00") },
    { name: "saturday", at: amsterdam(next(6, from), "11:00") },
    { name: "sunday-late", at: amsterdam(next(0, from), "23:59") },
    { name: "before-summer-time", at: amsterdam("2027-03-27", "12:00") },
    { name: "before-winter-time", at: amsterdam("2027-10-30", "12:00") },
    { name: "christmas-eve", at: amsterdam("2026-12-24", "10:00") },
    { name: "new-years-eve", at: amsterdam("2026-12-31", "17:30") },
    { name: "leap-day", at: amsterdam("2028-02-29", "09:00") },
    { name: "kings-day", at: amsterdam("2027-04-27", "10:00") },
  ];
}

function counts(file, kind) {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const r = JSON.parse(readFileSync(file, "utf8"));
  if (kind === "vitest") {
    const failed = r.numFailedTests || (r.numFailedTestSuites ? r.numFailedTestSuites : 0);
    return { passed: r.numPassedTests, failed };
  }
  return {
    passed: r.stats.expected,
    failed: r.stats.unexpected + r.stats.flaky + (r.stats.unexpected ? 0 : (r.errors?.length ?? 0)),
  };
}

function main() {
  const args = process.argv.slice(2);
  const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const only = option("only")?.split(",");
  const suites = option("suites")?.split(",") ?? ["vitest", "e2e"];
  const cases = clockCases().filter((c) => !only || only.includes(c.name));
  if (!cases.length)
    throw new Error(
      `no case named ${only}; the cases: ${clockCases()
        .map((c) => c.name)
        .join(", ")}`,
    );

  mkdirSync(path.join(ROOT, "test-results"), { recursive: true });
  if (suites.includes("e2e")) buildIfNeeded(ROOT);
  const bin = (name) => path.join(ROOT, "node_modules/.bin", name);
  const preload = `--import=${path.join(ROOT, "scripts/test/test-clock.mjs")}`;
  const total = { passed: 0, failed: 0 };
  const lines = [];
  for (const { name, at } of cases) {
    const env = {
      ...process.env,
      // The project's Node (the devDependency) for the runners and the server they start.
      PATH: `${path.join(ROOT, "node_modules/.bin")}${path.delimiter}${process.env.PATH}`,
      ASTRO_TELEMETRY_DISABLED: "1",
      NETLIFY_TELEMETRY_DISABLED: "1",
      TEST_CLOCK: at,
      TEST_CLOCK_SET_AT: String(Date.now()),
      NODE_OPTIONS: preload,
    };
    const result = { passed: 0, failed: 0 };
    const started = Date.now();
    console.log(`\n── clock ${name}: ${at} ──`);
    if (suites.includes("vitest")) {
      const report = path.join(ROOT, `test-results/clock-${name}-vitest.json`);
      rmSync(report, { force: true });
      spawnSync(
        bin("vitest"),
        ["run", ...CLOCK_VITEST_FILES, "--reporter=default", "--reporter=json", `--outputFile=${report}`],
        {
          cwd: ROOT,
          stdio: "inherit",
          env,
        },
      );
      const c = counts(report, "vitest");
      result.passed += c.passed;
      result.failed += c.failed;
    }
    if (suites.includes("e2e")) {
      const report = path.join(ROOT, `test-results/clock-${name}-e2e.json`);
      rmSync(report, { force: true });
      spawnSync(bin("playwright"), ["test", ...CLOCK_E2E_SPECS, "--reporter=list,json"], {
        cwd: ROOT,
        stdio: "inherit",
        env: { ...env, PLAYWRIGHT_JSON_OUTPUT_FILE: report },
      });
      const c = counts(report, "e2e");
      result.passed += c.passed;
      result.failed += c.failed;
    }
    total.passed += result.passed;
    total.failed += result.failed;
    lines.push(
      `${name.padEnd(20)} ${at}  ${result.passed} passed, ${result.failed} failed (${Math.round((Date.now() - started) / 1000)} s)`,
    );
  }
  console.log(`\n${lines.join("\n")}\n\n${total.passed} passed, ${total.failed} failed`);
  process.exit(total.failed ? 1 : 0);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
