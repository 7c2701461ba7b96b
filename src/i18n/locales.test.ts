/**
 * `npm test` runs the copy check on the real locale and content files (STYLE: locale files are
 * contracts): no errors, no warnings. The failure message is the check's own report, with file,
 * line and key, so it reads the same as `npm run check:copy`.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "vitest";
import { checkCopy } from "./check/copy-check";
import { formatReport } from "./check/format";
import { repoRoot } from "./check/testing";

test("the locale and content files pass the copy check (npm run check:copy)", () => {
  const report = checkCopy({ root: repoRoot });
  const problems = report.problems.map(
    (p) => `${p.severity}: ${p.file}${p.line ? `, line ${p.line}` : ""}: ${p.message}`,
  );
  expect(problems, formatReport(report, { root: repoRoot })).toEqual([]);
});

test("the check takes well under a second", () => {
  const report = checkCopy({ root: repoRoot });
  expect(report.durationMs).toBeLessThan(1000);
});

test("npm run check:copy runs on Node alone and says the copy is in order", () => {
  const node = path.join(repoRoot, "node_modules", ".bin", "node");
  const result = spawnSync(node, ["scripts/check-copy.ts"], { cwd: repoRoot, encoding: "utf8" });
  expect(result.stderr).toBe("");
  expect(result.stdout).toMatch(/Copy check: ✓ copy is in order/);
  expect(result.status).toBe(0);
});

test("the i18n module, soft hyphens included, loads on Node alone (the functions import it for emails)", () => {
  const node = path.join(repoRoot, "node_modules", ".bin", "node");
  const script =
    'const i = await import("./src/i18n/index.ts"); console.log(i.t("nl")("globalVision.steps.consultation.title"), i.plainT("nl")("globalVision.steps.consultation.title"));';
  const result = spawnSync(node, ["--input-type=module", "-e", script], { cwd: repoRoot, encoding: "utf8" });
  expect(result.stderr).toBe("");
  expect(result.stdout.trim()).toBe("Ken\u00ADnis\u00ADma\u00ADkings\u00ADge\u00ADsprek Kennismakingsgesprek");
});
