// The default database when DATABASE_URL is not set: PGlite (PostgreSQL compiled to WebAssembly) with
// its files in `${DATA_DIR}/pgdata`, served over TCP so every consumer — functions, scripts — connects
// through `pg` with an ordinary postgres:// URL, exactly as it would to a real server.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { createDb } from "../../db/client.ts";

const LOCK_FILE = "pglite.lock";
const SECRET_FILE = "jwt-secret";

/**
 * Opens the PGlite database in `${dataDir}/pgdata` and serves it on 127.0.0.1:`port` (0 picks a free
 * port). Returns the connection URL and `close()`. Refuses to start while another live process serves
 * the same folder: two PGlite instances writing one data directory would corrupt it.
 */
export async function startEmbeddedDatabase({
  dataDir = process.env.DATA_DIR || ".data",
  port = 0,
  // Every function module keeps its own pool (up to 5 connections), and the server multiplexes all
  // connections onto PGlite's single session anyway, so a generous cap costs nothing.
  maxConnections = 100,
} = {}) {
  const root = path.resolve(dataDir);
  const pgdata = path.join(root, "pgdata");
  mkdirSync(pgdata, { recursive: true });
  const releaseLock = acquireLock(path.join(root, LOCK_FILE));

  let pglite;
  let server;
  try {
    pglite = await PGlite.create(pgdata);
    server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port, maxConnections });
    await server.start();
  } catch (error) {
    await pglite?.close().catch(() => {});
    releaseLock();
    throw new Error(
      `Could not open the embedded database in ${pgdata}: ${error instanceof Error ? error.message : error}`,
      {
        cause: error,
      },
    );
  }

  // PGlite accepts any user, password and database name, and speaks no TLS.
  const url = `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  let closing;
  return {
    url,
    close() {
      closing ??= (async () => {
        await server.stop();
        await pglite.close();
        releaseLock();
      })();
      return closing;
    },
  };
}

/** Takes the lock file for this process; returns its release. Throws while a live process holds it. */
function acquireLock(lockPath) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(lockPath, `${process.pid}\n`, { flag: "wx" });
    } catch (error) {
      if (error?.code !== "EEXIST") throw error;
      const holder = Number.parseInt(readFileSync(lockPath, "utf8"), 10);
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new Error(
          `The embedded database in ${path.dirname(lockPath)} is already in use by process ${holder}` +
            `${holder === process.pid ? " (this one)" : ""}. Stop that process first, or set DATA_DIR to another folder ` +
            "(or DATABASE_URL to a PostgreSQL server).",
        );
      }
      // Left behind by a process that died without cleaning up: take it over.
      rmSync(lockPath, { force: true });
      continue;
    }
    // A crash or process.exit() skips close(); the exit hook still frees the folder for the next start.
    const release = () => {
      process.off("exit", release);
      if (existsSync(lockPath) && readFileSync(lockPath, "utf8").trim() === String(process.pid)) rmSync(lockPath);
    };
    process.on("exit", release);
    return release;
  }
  throw new Error(`Could not take the lock ${lockPath}: another process keeps recreating it.`);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error?.code === "EPERM";
  }
}

/**
 * The secret that signs session tokens when none is configured: 64 random bytes as hex, created once
 * in `${dataDir}/jwt-secret` (readable by the owner only) so sessions survive restarts.
 */
export function loadOrCreateJwtSecret(dataDir = process.env.DATA_DIR || ".data") {
  const file = path.join(path.resolve(dataDir), SECRET_FILE);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(64).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process created it between the check and the write: use theirs.
      if (error?.code !== "EEXIST") throw error;
    }
  }
  const secret = readFileSync(file, "utf8").trim();
  if (!/^[0-9a-f]{128}$/.test(secret)) {
    throw new Error(`${file} does not hold a 64-byte hex secret; delete it to have a new one created.`);
  }
  return secret;
}

/**
 * For command-line scripts: a Kysely client on DATABASE_URL or, when it is unset, on the embedded
 * database (which must not be in use by a running `npm start`). Says which one it uses.
 */
export async function openScriptDatabase({ log = console } = {}) {
  const url = process.env.DATABASE_URL;
  if (url) {
    log.log(`Database: ${redact(url)}`);
    const db = createDb(url);
    return { db, close: () => db.destroy() };
  }
  const dataDir = process.env.DATA_DIR || ".data";
  log.log(`Database: DATABASE_URL is not set, using the embedded database in ${path.resolve(dataDir, "pgdata")}`);
  const embedded = await startEmbeddedDatabase({ dataDir });
  const db = createDb(embedded.url);
  return {
    db,
    async close() {
      await db.destroy();
      await embedded.close();
    },
  };
}

function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(DATABASE_URL is not a valid URL)";
  }
}
