// The slowest tests of a run, read from the JSON reports vitest and Playwright write under test-results/
// (`npm test` prints the 15 slowest before its closing line, so the next cut starts from a measurement).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Every test of a vitest JSON report: { suite, name, ms }. */
export function vitestTests(report, suite) {
  const tests = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name);
    for (const test of file.assertionResults ?? [])
      tests.push({ suite, name: `${where} › ${test.fullName ?? test.title}`, ms: test.duration ?? 0 });
  }
  return tests;
}

/** Every test of a Playwright JSON report: { suite, name, ms } (its slowest attempt). */
export function playwrightTests(report, suite) {
  const tests = [];
  const walk = (node, titles) => {
    for (const spec of node.specs ?? [])
      for (const test of spec.tests ?? []) {
        const ms = Math.max(0, ...(test.results ?? []).map((r) => r.duration ?? 0));
        tests.push({ suite, name: `e2e/${spec.file} › ${[...titles, spec.title].join(" › ")}`, ms });
      }
    for (const child of node.suites ?? [])
      walk(child, child.title && !child.title.endsWith(".ts") ? [...titles, child.title] : titles);
  };
  for (const top of report.suites ?? []) walk(top, []);
  return tests;
}

/** The `count` slowest tests of the reports that exist among `reports` ({ file, kind, suite }). */
export function slowestTests(reports, count = 15) {
  const all = [];
  for (const { file, kind, suite } of reports) {
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, "utf8"));
    all.push(...(kind === "vitest" ? vitestTests(report, suite) : playwrightTests(report, suite)));
  }
  return all.sort((a, b) => b.ms - a.ms).slice(0, count);
}

/** The table `npm test` prints: seconds, suite, test. */
export function formatSlowest(tests) {
  return tests.map((t) => `${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.suite.padEnd(8)} ${t.name}`).join("\n");
}
