import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { loadOrCreateJwtSecret, startEmbeddedDatabase } from "../scripts/lib/embedded-db.mjs";

// The embedded database behind `npm start` (scripts/lib/embedded-db.mjs), tested here with the rest of
// the data layer. Opening PGlite on disk takes seconds, hence the generous timeouts.
const SLOW = { timeout: 30_000 };

// One folder for the file: the first start creates the cluster (slow), later starts reopen it.
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "embedded-db-"));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const lockFile = () => path.join(dataDir, "pglite.lock");

describe("startEmbeddedDatabase", () => {
  test("serves a database pg can use: 20 parallel queries through a pool of 10", SLOW, async () => {
    const running = await startEmbeddedDatabase({ dataDir });
    const pool = new pg.Pool({ connectionString: running.url, max: 10 });
    try {
      await pool.query("CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)");

      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          pool.query<{ id: number; body: string }>("INSERT INTO notes (body) VALUES ($1) RETURNING id, body", [
            `نوشته ${i}`,
          ]),
        ),
      );

      expect(answers.map((a) => a.rows[0].body)).toEqual(Array.from({ length: 20 }, (_, i) => `نوشته ${i}`));
      expect(new Set(answers.map((a) => a.rows[0].id)).size).toBe(20);
    } finally {
      await pool.end();
      await running.close();
    }
  });

  test("keeps the data in the folder across restarts and frees the lock on close", SLOW, async () => {
    const running = await startEmbeddedDatabase({ dataDir });
    expect(readFileSync(lockFile(), "utf8").trim()).toBe(String(process.pid));
    const client = new pg.Client({ connectionString: running.url });
    try {
      await client.connect();
      const { rows } = await client.query("SELECT count(*)::int AS n FROM notes");
      expect(rows[0].n).toBe(20);
    } finally {
      await client.end();
      await running.close();
    }
    expect(existsSync(path.join(dataDir, "pgdata", "PG_VERSION"))).toBe(true);
    expect(existsSync(lockFile())).toBe(false);
  });

  test("refuses a folder this process already serves", SLOW, async () => {
    const running = await startEmbeddedDatabase({ dataDir });
    try {
      await expect(startEmbeddedDatabase({ dataDir })).rejects.toThrow(/already in use by process \d+ \(this one\)/);
    } finally {
      await running.close();
    }
  });

  test("refuses a folder another live process serves", async () => {
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      writeFileSync(lockFile(), `${holder.pid}\n`);

      await expect(startEmbeddedDatabase({ dataDir })).rejects.toThrow(`already in use by process ${holder.pid}`);
      expect(readFileSync(lockFile(), "utf8").trim()).toBe(String(holder.pid));
    } finally {
      holder.kill();
      rmSync(lockFile(), { force: true });
    }
  });

  test("takes over the lock of a process that died", SLOW, async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(lockFile(), `${dead}\n`);

    const running = await startEmbeddedDatabase({ dataDir });
    try {
      expect(readFileSync(lockFile(), "utf8").trim()).toBe(String(process.pid));
    } finally {
      await running.close();
    }
  });
});

describe("loadOrCreateJwtSecret", () => {
  let secretDir: string;
  beforeEach(() => {
    secretDir = mkdtempSync(path.join(tmpdir(), "jwt-secret-"));
  });
  afterEach(() => {
    rmSync(secretDir, { recursive: true, force: true });
  });

  test("creates a 64-byte hex secret readable by its owner only, and keeps it", () => {
    const secret = loadOrCreateJwtSecret(secretDir);

    expect(secret).toMatch(/^[0-9a-f]{128}$/);
    expect(statSync(path.join(secretDir, "jwt-secret")).mode & 0o777).toBe(0o600);
    expect(loadOrCreateJwtSecret(secretDir)).toBe(secret);
  });

  test("refuses a damaged secret file instead of replacing it", () => {
    writeFileSync(path.join(secretDir, "jwt-secret"), "not hex");

    expect(() => loadOrCreateJwtSecret(secretDir)).toThrow(/does not hold a 64-byte hex secret/);
  });
});
