import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { loadOrCreateJwtSecret, startEmbeddedDatabase } from "../scripts/runtime/embedded-db.mjs";

// The embedded PostgreSQL behind `npm start` (scripts/runtime/embedded-db.mjs), tested here with the rest
// of the data layer. The first start runs initdb (about a second), hence the generous timeouts.
const SLOW = { timeout: 30_000 };

// One folder for the file: the first start creates the cluster (slow), later starts reopen it.
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "embedded-db-"));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const lockFile = () => path.join(dataDir, "server.lock");

describe("startEmbeddedDatabase", () => {
  test("serves a database pg can use: 20 parallel queries through a pool of 10", SLOW, async () => {
    const running = await startEmbeddedDatabase({ dataDir, log: {} });
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
    const running = await startEmbeddedDatabase({ dataDir, log: {} });
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
    expect(existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
    expect(existsSync(lockFile())).toBe(false);
  });

  test("refuses a folder this process already serves", SLOW, async () => {
    const running = await startEmbeddedDatabase({ dataDir, log: {} });
    try {
      await expect(startEmbeddedDatabase({ dataDir, log: {} })).rejects.toThrow(
        /already in use by process \d+ \(this one\)/,
      );
    } finally {
      await running.close();
    }
  });

  test("refuses a folder another live process serves", async () => {
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      writeFileSync(lockFile(), `${holder.pid}\n`);

      await expect(startEmbeddedDatabase({ dataDir, log: {} })).rejects.toThrow(
        `already in use by process ${holder.pid}`,
      );
      expect(readFileSync(lockFile(), "utf8").trim()).toBe(String(holder.pid));
    } finally {
      holder.kill();
      rmSync(lockFile(), { force: true });
    }
  });

  test("takes over the lock of a process that died", SLOW, async () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(lockFile(), `${dead}\n`);

    const running = await startEmbeddedDatabase({ dataDir, log: {} });
    try {
      expect(readFileSync(lockFile(), "utf8").trim()).toBe(String(process.pid));
    } finally {
      await running.close();
    }
  });
});

describe("startEmbeddedDatabase after a crash", () => {
  const serverPid = () => Number.parseInt(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8"), 10);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  test("stops the server a killed process left running, and keeps its data", SLOW, async () => {
    // A child process starts the database, writes a row, then dies without any cleanup (kill -9).
    const script = `
      const { startEmbeddedDatabase } = await import(${JSON.stringify(path.resolve("scripts/runtime/embedded-db.mjs"))});
      const pg = (await import("pg")).default;
      const running = await startEmbeddedDatabase({ dataDir: ${JSON.stringify(dataDir)}, log: {} });
      const client = new pg.Client({ connectionString: running.url });
      await client.connect();
      await client.query("INSERT INTO notes (body) VALUES ('written before the crash')");
      await client.end();
      console.log("ready");
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
      child.once("exit", (code) => reject(new Error(`child exited with ${code}`)));
    });
    const orphan = serverPid();
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(alive(orphan)).toBe(true);

    const running = await startEmbeddedDatabase({ dataDir, log: {} });
    const client = new pg.Client({ connectionString: running.url });
    try {
      expect(alive(orphan)).toBe(false);
      await client.connect();
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM notes WHERE body = 'written before the crash'",
      );
      expect(rows[0].n).toBe(1);
    } finally {
      await client.end();
      await running.close();
    }
  });

  test("starts despite a stale postmaster.pid naming a live process that is not PostgreSQL", SLOW, async () => {
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      writeFileSync(
        path.join(dataDir, "postgres", "postmaster.pid"),
        `${other.pid}\n${path.join(dataDir, "postgres")}\n`,
      );
      const running = await startEmbeddedDatabase({ dataDir, log: {} });
      await running.close();
      expect(alive(other.pid!)).toBe(true);
    } finally {
      other.kill();
    }
  });

  test("close() shuts the server down", SLOW, async () => {
    const running = await startEmbeddedDatabase({ dataDir, log: {} });
    const pid = serverPid();
    await running.close();
    expect(alive(pid)).toBe(false);
    await expect(new pg.Client({ connectionString: running.url }).connect()).rejects.toThrow();
  });
});

describe("startEmbeddedDatabase under supervision (npm start)", () => {
  const lines: string[] = [];
  // The supervisor's lines (not "Creating the embedded PostgreSQL database…" of a first start).
  const keep = (m: string) => m.startsWith("[db]") && lines.push(m);
  const log = { log: keep, error: keep };
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
    const end = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const answers = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {});
    try {
      await client.connect();
      return (await client.query("SELECT count(*)::int AS n FROM notes")).rows[0].n as number;
    } catch {
      return undefined;
    } finally {
      await client.end().catch(() => {});
    }
  };
  beforeEach(() => {
    lines.length = 0;
  });

  test(
    "a server killed with kill -9 is started again on the same data and port, in one line each way",
    SLOW,
    async () => {
      const running = await startEmbeddedDatabase({ dataDir, log, supervise: true });
      try {
        const before = await answers(running.url);
        const killed = running.pid!;
        process.kill(killed, "SIGKILL");
        await until("the restart", () => running.pid !== undefined && running.pid !== killed && lines.length >= 2);
        await until("the restarted server to answer", async () => (await answers(running.url)) === before);
        expect(alive(killed)).toBe(false);
        expect(lines).toEqual([
          expect.stringMatching(/^\[db\] The embedded PostgreSQL stopped unexpectedly \(killed by SIGKILL\)/),
          expect.stringMatching(
            /^\[db\] The embedded PostgreSQL restarted after [\d.]+ s \(attempt \d\); the site serves again\.$/,
          ),
        ]);
      } finally {
        await running.close();
      }
      expect(existsSync(lockFile())).toBe(false);
    },
  );

  test(
    "when every restart fails, one line says that it stopped and why; close() still frees the folder",
    SLOW,
    async () => {
      const running = await startEmbeddedDatabase({ dataDir, log, supervise: true, restartDelaysMs: [50, 50, 50] });
      const cluster = path.join(dataDir, "postgres");
      const moved = `${cluster}-moved`;
      try {
        // The data folder goes away with the server: no restart can find it.
        renameSync(cluster, moved);
        process.kill(running.pid!, "SIGKILL");
        await until("the last line", () => lines.some((line) => /could not be restarted/.test(line)));
        expect(lines).toHaveLength(2);
        expect(lines[1]).toMatch(
          /^\[db\] The embedded PostgreSQL stopped and could not be restarted \(3 tries in \d+ s, last: .*(does not exist|No such file).*\); requests that need the database are answered 503 until npm start is run again\.$/,
        );
      } finally {
        await running.close();
        renameSync(moved, cluster);
      }
      expect(existsSync(lockFile())).toBe(false);
    },
  );

  test("close() during a restart waits for it and leaves no server running", SLOW, async () => {
    const running = await startEmbeddedDatabase({ dataDir, log, supervise: true });
    const killed = running.pid!;
    process.kill(killed, "SIGKILL");
    await until("the supervisor to notice", () => lines.length >= 1);
    await running.close();
    expect(running.pid).toBeUndefined();
    expect(existsSync(lockFile())).toBe(false);
    await expect(answers(running.url)).resolves.toBeUndefined();
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
