/**
 * Vitest global setup: the one PostgreSQL server of a test run and its migrated template database.
 * With TEST_DATABASE_URL, that server (CI: the machine's PostgreSQL 15); otherwise an embedded
 * PostgreSQL in a temporary folder, without fsync (nothing in it outlives the run).
 *
 * With SQL_COVERAGE_FILE (npm test's first pass), the embedded server also keeps pg_stat_statements
 * and a table of which test file each throwaway database belongs to (db/testing.ts); the teardown
 * writes, per file, the statements it ran. The PostgreSQL 15 pass then runs the files that together
 * run every one of them (scripts/test/database-tests.mjs).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedDatabase, THROWAWAY_SETTINGS } from "../scripts/runtime/embedded-db.mjs";
import { createDb } from "./client.ts";
import { migrateToLatest } from "./migrate.ts";
import { databaseUrl, withClient } from "./testing.ts";
import { looseShape } from "../scripts/test/database-tests.mjs";

/** What the coverage needs of the server: the statements' statistics, room for every file's. */
const STATEMENT_STATS = ["shared_preload_libraries=pg_stat_statements", "pg_stat_statements.max=200000"];

export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  const coverage = given ? undefined : process.env.SQL_COVERAGE_FILE;
  let dataDir: string | undefined;
  let embedded: Awaited<ReturnType<typeof startEmbeddedDatabase>> | undefined;
  if (!given) {
    dataDir = mkdtempSync(path.join(tmpdir(), "test-postgres-"));
    const settings = [...THROWAWAY_SETTINGS, ...(coverage ? STATEMENT_STATS : [])];
    embedded = await startEmbeddedDatabase({ dataDir, settings, log: {} });
  }
  const serverUrl = given || embedded!.url;
  const template = `template_${randomBytes(6).toString("hex")}`;
  await withClient(serverUrl, async (admin) => {
    await admin.query(`CREATE DATABASE ${template}`);
    if (coverage)
      await admin.query(
        "CREATE EXTENSION pg_stat_statements; CREATE TABLE test_files (oid oid PRIMARY KEY, file text NOT NULL);" +
          "CREATE TABLE test_callers (shape text NOT NULL, own boolean NOT NULL)",
      );
  });
  const db = createDb(databaseUrl(serverUrl, template));
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  project.provide("testDatabase", {
    serverUrl,
    template,
    kind: given ? "postgres" : "embedded",
    recordsFiles: Boolean(coverage),
  });

  return async () => {
    if (coverage) writeFileSync(coverage, JSON.stringify(await statementsByFile(serverUrl, project.config.root)));
    await withClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
    await embedded?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}

/**
 * `{ file: [statement, …] }` (files relative to `root`), from pg_stat_statements and test_files,
 * less each file's own reads: a statement whose shape only test files' own code ran, in any file
 * (test_callers, db/test-callers.ts). What a handler runs through its own pool is never recorded
 * there, so it always stays.
 */
async function statementsByFile(serverUrl: string, root: string): Promise<Record<string, string[]>> {
  const { statements, callers } = await withClient(serverUrl, async (admin) => ({
    statements: (
      await admin.query<{ file: string; statements: string[] }>(
        `SELECT f.file, array_agg(DISTINCT s.query) AS statements
           FROM pg_stat_statements s JOIN test_files f ON f.oid = s.dbid
          GROUP BY f.file`,
      )
    ).rows,
    callers: (await admin.query<{ shape: string; own: boolean }>("SELECT DISTINCT shape, own FROM test_callers")).rows,
  }));
  const product = new Set(callers.filter((c) => !c.own).map((c) => c.shape));
  const ownOnly = new Set(callers.filter((c) => c.own && !product.has(c.shape)).map((c) => c.shape));
  return Object.fromEntries(
    statements.map((r) => [path.relative(root, r.file), r.statements.filter((s) => !ownOnly.has(looseShape(s)))]),
  );
}
