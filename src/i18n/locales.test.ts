/**
 * `npm test` runs the copy check on the real locale and content files (STYLE: locale files are
 * contracts): no errors, no warnings. The failure message is the check's own report, with file,
 * line and key, so it reads the same as `npm run check:copy`.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { checkCopy } from "#tools/copy-check/copy-check.ts";
import { formatReport } from "#tools/copy-check/format.ts";
import { repoRoot } from "#tools/copy-check/testing.ts";

test("the locale and content files pass the copy check (npm run check:copy)", () => {
  const report = checkCopy({ root: repoRoot });
  const problems = report.problems.map(
    (p) => `${p.severity}: ${p.file}${p.line ? `, line ${p.line}` : ""}: ${p.message}`,
  );
  expect(problems, formatReport(report, { root: repoRoot })).toEqual([]);
});

test("npm run check:copy runs on Node alone and says the copy is in order", () => {
  const node = path.join(repoRoot, "node_modules", ".bin", "node");
  const result = spawnSync(node, ["scripts/build/check-copy.ts"], { cwd: repoRoot, encoding: "utf8" });
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

describe("Persian text keeps embedded Latin and number runs in their own order", () => {
  test("postcodes, phone numbers, email addresses and the brand are isolated by t('fa')", async () => {
    const { t } = await import("./index");
    const tr = t("fa");
    expect(tr("contact.netherlandsOffice.address")).toContain("\u20661017 BZ\u2069");
    expect(tr("contact.iranOffice.phone")).toBe("\u2066+98 21 8888 1234\u2069");
    expect(tr("newsletter.placeholder")).toContain("\u2066name@company.com\u2069");
    expect(tr("general.homeLink")).toMatch(/\u2066\w+\u2069/);
    // Left-to-right languages are untouched.
    expect(t("nl")("contact.netherlandsOffice.address")).not.toContain("\u2066");
  });
});
