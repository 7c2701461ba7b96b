/** The list of slowest tests `npm test` prints before its closing count (scripts/test/slowest.mjs). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { formatSlowest, slowestTests } from "./slowest.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "slowest-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("merges vitest and Playwright reports, nested describes included, slowest first, at most `count`", () => {
  const unit = path.join(dir, "unit.json");
  const e2e = path.join(dir, "e2e.json");
  writeFileSync(
    unit,
    JSON.stringify({
      testResults: [
        {
          name: path.join(process.cwd(), "db/a.test.ts"),
          assertionResults: [
            { fullName: "repo stores it", duration: 1200 },
            { fullName: "repo reads it", duration: 30 },
          ],
        },
      ],
    }),
  );
  writeFileSync(
    e2e,
    JSON.stringify({
      suites: [
        {
          title: "admin.spec.ts",
          specs: [{ title: "signs in", file: "admin.spec.ts", tests: [{ results: [{ duration: 5000 }] }] }],
          suites: [
            {
              title: "Enquiries",
              specs: [{ title: "lists them", file: "admin.spec.ts", tests: [{ results: [{ duration: 800 }] }] }],
            },
          ],
        },
      ],
    }),
  );
  const reports = [
    { file: unit, kind: "vitest", suite: "unit" },
    { file: e2e, kind: "playwright", suite: "browser" },
    { file: path.join(dir, "missing.json"), kind: "vitest", suite: "pg15" },
  ];
  expect(slowestTests(reports, 3)).toEqual([
    { suite: "browser", name: "e2e/admin.spec.ts › signs in", ms: 5000 },
    { suite: "unit", name: "db/a.test.ts › repo stores it", ms: 1200 },
    { suite: "browser", name: "e2e/admin.spec.ts › Enquiries › lists them", ms: 800 },
  ]);
  expect(formatSlowest(slowestTests(reports, 1))).toBe("   5.0 s  browser  e2e/admin.spec.ts › signs in");
});
