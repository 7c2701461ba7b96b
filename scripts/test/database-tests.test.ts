/**
 * The PostgreSQL 15 pass's choice of files (scripts/test/database-tests.mjs): statement shapes, the
 * covering set, and, on a real run of two database files, that db/test-setup.ts records each file's
 * own statements.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { coveringFiles, looseShape, secondPassFiles, statementShape } from "./database-tests.mjs";

test("a statement's shape leaves out parameter numbers, list lengths and row counts", () => {
  expect(statementShape('select "id" from "leads" where "id" in ($1, $2, $3)')).toBe(
    statementShape('select "id" from "leads" where "id" in ($7)'),
  );
  expect(statementShape('insert into "tags" ("a", "b") values ($1, $2), ($3, $4), ($5, $6)')).toBe(
    statementShape('insert into "tags" ("a", "b") values ($1, $2)'),
  );
  expect(statementShape("select $1\n   from  x")).toBe(statementShape("select $2 from x"));
  // Another column, another statement.
  expect(statementShape('select "id" from "leads" where "id" = $1')).not.toBe(
    statementShape('select "id" from "leads" where "ref" = $1'),
  );
  expect(statementShape("insert into t values ($1, default)")).not.toBe(statementShape("insert into t values ($1)"));
});

test("a statement as its client sent it has the loose shape of pg_stat_statements' record of it", () => {
  // What a test sent (its constants inline, a leading line break), and what the server kept of it.
  expect(looseShape("\n  SELECT count(*) AS n FROM email_outbox WHERE status IN ('pending', 'it''s')")).toBe(
    looseShape("SELECT count(*) AS n FROM email_outbox WHERE status IN ($1 /*, ... */)"),
  );
  expect(looseShape('select "id" from "leads" order by 1 limit 20')).toBe(
    looseShape('select "id" from "leads" order by 1 limit $1'),
  );
  // Names with digits stay; another column is another statement.
  expect(looseShape('select "t1"."a2" from t1')).toBe('select "t1"."a2" from t1');
  expect(looseShape("select a from t where b = 'x'")).not.toBe(looseShape("select a from t where c = 'x'"));
});

test("statement shapes of hostile length take linear time", () => {
  const long = `select ${Array.from({ length: 50_000 }, (_, i) => `$${i + 1}`).join(", ")} (${"$1, ".repeat(50_000)}`;
  const started = performance.now();
  statementShape(long);
  looseShape(long);
  looseShape(`select '${"''".repeat(50_000)}`);
  // A backtracking pattern takes minutes here; a linear one milliseconds.
  expect(performance.now() - started).toBeLessThan(2_000);
});

test("every statement runs in some chosen file; the cheapest cover is taken; unrecorded files always run", () => {
  const statements = {
    "a.test.ts": ["select 1", "select 2", "select 3"],
    "b.test.ts": ["select 1", "select 2"],
    "c.test.ts": ["select 3"],
    "d.test.ts": ["select 1"],
  };
  const files = Object.keys(statements);
  // d is taken first (one statement a second), then a; a runs d's statement too, so d is dropped.
  expect(coveringFiles(files, statements, { "a.test.ts": 10, "b.test.ts": 8, "c.test.ts": 8, "d.test.ts": 1 })).toEqual(
    ["a.test.ts"],
  );
  // a is slow: b and c run its statements for less, and d adds nothing to them.
  const chosen = coveringFiles(files, statements, {
    "a.test.ts": 100,
    "b.test.ts": 2,
    "c.test.ts": 1,
    "d.test.ts": 5,
  });
  expect(chosen).toEqual(["b.test.ts", "c.test.ts"]);
  const covered = new Set(chosen.flatMap((f) => statements[f as keyof typeof statements]));
  expect([...new Set(Object.values(statements).flat())].every((s) => covered.has(s))).toBe(true);
  // A file the first pass left no record of (it failed to load, or ran no SQL there) runs.
  expect(coveringFiles(["a.test.ts", "e.test.ts"], statements, {})).toEqual(["a.test.ts", "e.test.ts"]);
});

test("without the first pass's record or report, every database file runs", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "second-pass-"));
  try {
    const { files, all } = secondPassFiles(process.cwd(), path.join(dir, "missing.json"), path.join(dir, "no.json"));
    expect(files).toEqual(all);
    expect(all).toContain("functions/_tests/leads.test.ts");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a real first pass records each database file's own statements", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sql-coverage-"));
  const coverage = path.join(dir, "coverage.json");
  const report = path.join(dir, "report.json");
  const files = ["db/rate-limits.repository.integration.test.ts", "functions/_tests/control-characters.test.ts"];
  try {
    execFileSync(
      path.join("node_modules", ".bin", "vitest"),
      ["run", ...files, "--reporter=json", `--outputFile=${report}`],
      { env: { ...process.env, TEST_DATABASE_URL: "", SQL_COVERAGE_FILE: coverage }, stdio: "ignore" },
    );
    const recorded = JSON.parse(readFileSync(coverage, "utf8")) as Record<string, string[]>;
    expect(Object.keys(recorded).sort()).toEqual(files);
    // Each file's statements, not the other's: only the enquiry test stores an enquiry.
    const storesEnquiry = (file: string) => recorded[file].some((s) => /insert into "enquiries"/i.test(s));
    expect(storesEnquiry("functions/_tests/control-characters.test.ts")).toBe(true);
    expect(storesEnquiry("db/rate-limits.repository.integration.test.ts")).toBe(false);
    // The repository's statements, and not the test file's own reads of what they stored
    // (db/test-callers.ts): `select * from rate_counters` is only ever the test's.
    const rateLimits = recorded["db/rate-limits.repository.integration.test.ts"].join("\n");
    expect(rateLimits).toMatch(/INSERT INTO rate_counters/);
    expect(rateLimits).not.toMatch(/select \* from "rate_counters"/);
    // Neither runs all the other's statements: both are taken.
    const { files: chosen, all } = secondPassFiles(process.cwd(), coverage, report);
    expect(chosen).toEqual(expect.arrayContaining(files));
    // The database files this pass did not run have no record, so they are taken too.
    expect(chosen).toEqual(all);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
