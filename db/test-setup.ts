/**
 * Vitest global setup: the one PostgreSQL server of a test run and its migrated template database.
 * With TEST_DATABASE_URL, that server (CI: the machine's PostgreSQL 15); otherwise an embedded
 * PostgreSQL in a temporary folder, without fsync (nothing in it outlives the run).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedDatabase, THROWAWAY_SETTINGS } from "../scripts/runtime/embedded-db.mjs";
import { createDb } from "./client.ts";
import { migrateToLatest } from "./migrate.ts";
import { databaseUrl, withClient } from "./testing.ts";

export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  let dataDir: string | undefined;
  let embedded: Awaited<ReturnType<typeof startEmbeddedDatabase>> | undefined;
  if (!given) {
    dataDir = mkdtempSync(path.join(tmpdir(), "test-postgres-"));
    embedded = await startEmbeddedDatabase({ dataDir, settings: THROWAWAY_SETTINGS, log: {} });
  }
  const serverUrl = given || embedded!.url;
  const template = `template_${randomBytes(6).toString("hex")}`;
  await withClient(serverUrl, (admin) => admin.query(`CREATE DATABASE ${template}`));
  const db = createDb(databaseUrl(serverUrl, template));
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  project.provide("testDatabase", { serverUrl, template, kind: given ? "postgres" : "embedded" });

  return async () => {
    await withClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
    await embedded?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}
