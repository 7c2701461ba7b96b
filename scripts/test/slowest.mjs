// The slowest and the failed tests of a run, read from the JSON reports vitest and Playwright write under
// test-results/. `npm test` prints the 15 slowest, so the next cut starts from a measurement, and then every
// failed test with its error's first line and where it happened, last before the closing count: the part of
// a CI log that is kept is its end, and a failure it does not name cannot be found.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** An error message as text, without the terminal's colour codes. */
const plain = (message) => String(message ?? "").replace(/\u001b\[[0-9;]*m/g, "");

/** The first line of an error message that says something, at most 300 characters. */
function firstLine(message) {
  const line = plain(message)
    .split("\n")
    .map((l) => l.trim())
    .find(Boolean);
  return (line ?? "").slice(0, 300);
}

/** `file:line` of a path inside the project, relative to it; "" outside it or in node_modules. */
function projectLine(file, line) {
  const relative = path.relative(process.cwd(), String(file ?? ""));
  if (!file || !line || relative.startsWith("..") || path.isAbsolute(relative) || relative.includes("node_modules"))
    return "";
  return `${relative}:${line}`;
}

/** Where a vitest failure happened: the first frame of its stack in the project's own files. */
function vitestWhere(message) {
  for (const [, file, line] of plain(message).matchAll(/((?:\/|[A-Za-z]:\\)[^\s():]+):(\d+):\d+/g)) {
    const at = projectLine(file, line);
    if (at) return `at ${at}`;
  }
  return "";
}

/** Where a Playwright failure happened: its line in the spec, and the locator it waited for. */
function playwrightWhere(error) {
  const at = projectLine(error?.location?.file, error?.location?.line);
  const locator = /^Locator: .*/m.exec(plain(error?.message))?.[0] ?? "";
  return [at && `at ${at}`, locator.slice(0, 300)].filter(Boolean).join(" · ");
}

/**
 * Every test of a vitest JSON report: { suite, name, ms, failed, error, where }. A file that failed with no
 * failed test (it did not load, or a hook threw) is one failed entry of its own.
 */
export function vitestTests(report, suite) {
  const tests = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name);
    let failedHere = false;
    for (const test of file.assertionResults ?? []) {
      const failed = test.status === "failed";
      failedHere ||= failed;
      tests.push({
        suite,
        name: `${where} › ${test.fullName ?? test.title}`,
        ms: test.duration ?? 0,
        failed,
        error: failed ? firstLine(test.failureMessages?.[0]) : "",
        where: failed ? vitestWhere(test.failureMessages?.[0]) : "",
      });
    }
    if (file.status === "failed" && !failedHere)
      tests.push({ suite, name: where, ms: 0, failed: true, error: firstLine(file.message), where: "" });
  }
  return tests;
}

/**
 * Every test of a Playwright JSON report: { suite, name, ms, failed, error, where } (its slowest attempt). An error
 * outside any test (a global setup, the web server) is one failed entry of its own.
 */
export function playwrightTests(report, suite) {
  const tests = [];
  const walk = (node, titles) => {
    for (const spec of node.specs ?? [])
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        const ms = Math.max(0, ...results.map((r) => r.duration ?? 0));
        const failed = test.status === "unexpected" || test.status === "flaky";
        const first = failed ? results.find((r) => r.error)?.error : undefined;
        const error = first ? firstLine(first.message) : "";
        const where = first ? playwrightWhere(first) : "";
        tests.push({
          suite,
          name: `e2e/${spec.file} › ${[...titles, spec.title].join(" › ")}`,
          ms,
          failed,
          error,
          where,
        });
      }
    for (const child of node.suites ?? [])
      walk(child, child.title && !child.title.endsWith(".ts") ? [...titles, child.title] : titles);
  };
  for (const top of report.suites ?? []) walk(top, []);
  for (const error of report.errors ?? [])
    tests.push({
      suite,
      name: "e2e (outside any test)",
      ms: 0,
      failed: true,
      error: firstLine(error.message),
      where: playwrightWhere(error),
    });
  return tests;
}

/** Every test of the reports that exist among `reports` ({ file, kind, suite }). */
export function allTests(reports) {
  const all = [];
  for (const { file, kind, suite } of reports) {
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, "utf8"));
    all.push(...(kind === "vitest" ? vitestTests(report, suite) : playwrightTests(report, suite)));
  }
  return all;
}

/** The `count` slowest tests of the reports that exist among `reports`. */
export function slowestTests(reports, count = 15) {
  return allTests(reports)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}

/** The failed tests of the reports that exist among `reports`, in the order they ran. */
export function failedTests(reports) {
  return allTests(reports).filter((t) => t.failed);
}

/** The table `npm test` prints: seconds, suite, test. */
export function formatSlowest(tests) {
  return tests.map((t) => `${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.suite.padEnd(8)} ${t.name}`).join("\n");
}

/** The failed tests as `npm test` prints them: suite, test, and under it the error's first line and where. */
export function formatFailed(tests) {
  return tests
    .map((t) => [
      `  ${t.suite.padEnd(8)} ${t.name}`,
      ...[t.error, t.where].filter(Boolean).map((l) => `           ${l}`),
    ])
    .map((lines) => lines.join("\n"))
    .join("\n");
}
