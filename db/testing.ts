import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import type { Kysely } from "kysely";
import pg from "pg";
import { createDb } from "./client.ts";
import { migrateToLatest } from "./migrate.ts";
import type { Database } from "./types.ts";

export type TestDatabase = {
  db: Kysely<Database>;
  /** Connection string of the throwaway database, for code that opens its own client. */
  url: string;
  kind: "pglite" | "postgres";
  destroy(): Promise<void>;
};

/**
 * A throwaway, fully migrated database for one test file. With TEST_DATABASE_URL, a fresh
 * `test_<random>` database on that server (dropped by destroy); otherwise an in-memory PGlite served
 * over TCP, so the code under test talks to it through `pg` exactly as it would to PostgreSQL.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const test = serverUrl ? await createPostgresDatabase(serverUrl) : await createPgliteDatabase();
  try {
    await migrateToLatest(test.db);
  } catch (error) {
    await test.destroy();
    throw error;
  }
  return test;
}

async function createPostgresDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb(url.toString());

  return {
    db,
    url: url.toString(),
    kind: "postgres",
    async destroy() {
      try {
        await db.destroy();
        await waitForDisconnects(admin, name);
        // Anything the test opened on its own (a second pool, a leaked client) would block the drop.
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
          [name],
        );
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await admin.end();
      }
    },
  };
}

// pg's pool.end() resolves once its clients have sent Terminate, before the server has let them go.
async function waitForDisconnects(admin: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name]);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function createPgliteDatabase(): Promise<TestDatabase> {
  const pglite = await freshPglite();
  const server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0, maxConnections: 10 });
  await server.start();
  // PGlite accepts any user and database name; these are the conventional ones.
  const url = `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  const db = createDb(url);

  return {
    db,
    url,
    kind: "pglite",
    async destroy() {
      await db.destroy();
      await server.stop();
      await pglite.close();
    },
  };
}

/**
 * A fresh, empty PGlite cluster. Its initdb costs seconds and every test file needs one, so the first
 * file saves a snapshot of the empty cluster in the OS temp folder, keyed by PGlite's version, and the
 * others load it. Migrations still run for real on top of it.
 */
async function freshPglite(): Promise<PGlite> {
  const snapshot = path.join(tmpdir(), `pglite-${pgliteVersion()}-empty-cluster.tar`);
  try {
    return await PGlite.create({ loadDataDir: new Blob([await readFile(snapshot)]) });
  } catch {
    // No snapshot yet, or an unreadable one: build the cluster and (re)write the snapshot.
  }
  const pglite = await PGlite.create();
  const dump = await pglite.dumpDataDir("none");
  const partial = `${snapshot}.${process.pid}`;
  await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
  // Renaming is atomic: a file starting at the same moment reads the whole snapshot or none.
  await rename(partial, snapshot);
  return pglite;
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const manifest = path.join(path.dirname(entry), "..", "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
