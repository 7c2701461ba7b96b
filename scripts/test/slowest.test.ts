/** The list of slowest tests `npm test` prints before its closing count (scripts/test/slowest.mjs). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { failedTests, formatFailed, formatSlowest, slowestTests } from "./slowest.mjs";

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
  expect(slowestTests(reports, 3).map(({ suite, name, ms }) => ({ suite, name, ms }))).toEqual([
    { suite: "browser", name: "e2e/admin.spec.ts › signs in", ms: 5000 },
    { suite: "unit", name: "db/a.test.ts › repo stores it", ms: 1200 },
    { suite: "browser", name: "e2e/admin.spec.ts › Enquiries › lists them", ms: 800 },
  ]);
  expect(formatSlowest(slowestTests(reports, 1))).toBe("   5.0 s  browser  e2e/admin.spec.ts › signs in");
});

// Stop 47's CI log kept only its end: "2657 passed, 2 failed", naming neither test.
test("names every failed test with its error's first line: a failed or flaky browser test, a failed vitest test, a file that did not load", () => {
  const unit = path.join(dir, "unit-failed.json");
  const e2e = path.join(dir, "e2e-failed.json");
  writeFileSync(
    unit,
    JSON.stringify({
      testResults: [
        {
          name: path.join(process.cwd(), "db/a.test.ts"),
          status: "failed",
          assertionResults: [
            { fullName: "repo stores it", status: "passed", duration: 10 },
            {
              fullName: "repo reads it",
              status: "failed",
              duration: 30_000,
              failureMessages: [
                "\n\u001b[31mError: Test timed out in 30000ms.\u001b[39m\nIf this is a long-running test…",
              ],
            },
          ],
        },
        {
          name: path.join(process.cwd(), "db/b.test.ts"),
          status: "failed",
          message: "Cannot find module 'x'",
          assertionResults: [],
        },
        {
          name: path.join(process.cwd(), "db/c.test.ts"),
          status: "passed",
          assertionResults: [{ fullName: "ok", status: "passed" }],
        },
      ],
    }),
  );
  writeFileSync(
    e2e,
    JSON.stringify({
      errors: [{ message: "Error: Timed out waiting 120000ms from config.webServer." }],
      suites: [
        {
          title: "admin.spec.ts",
          specs: [
            { title: "signs in", file: "admin.spec.ts", tests: [{ status: "expected", results: [{ duration: 5 }] }] },
            {
              title: "lists them",
              file: "admin.spec.ts",
              tests: [
                {
                  status: "unexpected",
                  results: [{ duration: 8, error: { message: "expect(locator).toBeVisible() failed" } }],
                },
              ],
            },
            {
              title: "retried",
              file: "admin.spec.ts",
              tests: [{ status: "flaky", results: [{ error: { message: "a race" } }, {}] }],
            },
            { title: "skipped", file: "admin.spec.ts", tests: [{ status: "skipped", results: [] }] },
          ],
        },
      ],
    }),
  );
  const failed = failedTests([
    { file: unit, kind: "vitest", suite: "unit" },
    { file: e2e, kind: "playwright", suite: "browser" },
  ]);
  expect(failed.map((t) => [t.name, t.error])).toEqual([
    ["db/a.test.ts › repo reads it", "Error: Test timed out in 30000ms."],
    ["db/b.test.ts", "Cannot find module 'x'"],
    ["e2e/admin.spec.ts › lists them", "expect(locator).toBeVisible() failed"],
    ["e2e/admin.spec.ts › retried", "a race"],
    ["e2e (outside any test)", "Error: Timed out waiting 120000ms from config.webServer."],
  ]);
  expect(formatFailed(failed.slice(0, 1))).toBe(
    "  unit     db/a.test.ts › repo reads it\n           Error: Test timed out in 30000ms.",
  );
});

test("says where each failure happened: the test file's line, and the locator a browser test waited for", () => {
  // Stop 47's CI named two booking tests and "Error: expect(locator).toBeVisible() failed", and neither
  // the line nor the locator: the helper they share waits for three things.
  const unit = path.join(dir, "unit-where.json");
  const e2e = path.join(dir, "e2e-where.json");
  const root = process.cwd();
  writeFileSync(
    unit,
    JSON.stringify({
      testResults: [
        {
          name: path.join(root, "db/a.test.ts"),
          status: "failed",
          assertionResults: [
            {
              fullName: "repo reads it",
              status: "failed",
              failureMessages: [
                [
                  "AssertionError: expected 2 to be 3",
                  `    at check (${path.join(root, "node_modules/vitest/dist/x.js")}:1:1)`,
                  `    at ${path.join(root, "db/a.test.ts")}:42:17`,
                ].join("\n"),
              ],
            },
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
          title: "booking.spec.ts",
          specs: [
            {
              title: "weekend days cannot be picked",
              file: "booking.spec.ts",
              tests: [
                {
                  status: "unexpected",
                  results: [
                    {
                      duration: 30_000,
                      error: {
                        message: [
                          "Error: expect(locator).toBeVisible() failed",
                          "",
                          "Locator: locator('dialog.booking-dialog').locator('td[aria-selected=true] button[data-date]')",
                          "Expected: visible",
                          "Timeout: 15000ms",
                        ].join("\n"),
                        location: { file: path.join(root, "e2e/booking.spec.ts"), line: 43, column: 3 },
                      },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    }),
  );
  const failed = failedTests([
    { file: unit, kind: "vitest", suite: "unit" },
    { file: e2e, kind: "playwright", suite: "browser" },
  ]);
  expect(failed.map((t) => t.where)).toEqual([
    "at db/a.test.ts:42",
    "at e2e/booking.spec.ts:43 · Locator: locator('dialog.booking-dialog').locator('td[aria-selected=true] button[data-date]')",
  ]);
  expect(formatFailed(failed.slice(1))).toBe(
    [
      "  browser  e2e/booking.spec.ts › weekend days cannot be picked",
      "           Error: expect(locator).toBeVisible() failed",
      "           at e2e/booking.spec.ts:43 · Locator: locator('dialog.booking-dialog').locator('td[aria-selected=true] button[data-date]')",
    ].join("\n"),
  );
});
