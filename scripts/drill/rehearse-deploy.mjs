// `npm run rehearse:deploy`: the Netlify + Neon deploy, rehearsed on this machine (CI runs it too,
// from scripts/test/test.mjs). PgBouncer in transaction mode stands in for Neon's `-pooler` endpoint, the
// machine's PostgreSQL (or an embedded one) for Neon's compute.
//  1. A deploy-preview build (scripts/build/netlify-build.mjs, without the site) against an empty database:
//     it must create no table.
//  2. The production build against a database one migration behind, over the direct URL, while
//     clients query through the pooler: it must finish (no hang), apply everything and leave no lock.
//     It does not bundle the functions again (`--no-functions`, which netlify-build.mjs explains).
//  3. The functions packaged with @netlify/zip-it-and-ship-it, as Netlify's build packages them; each
//     run in a fresh Node process through the pooler (cold start: import to first answer), and a table
//     of size, contents and cold start (the median of REHEARSE_COLD_RUNS processes, 3 by default; `npm
//     test` asks for 1, as the figure is a benchmark's and each check reads the first process). A
//     function carrying a database driver it never uses fails.
//  4. 60 instances of the packaged `contact` at once through the pooler: every one must answer 201.
//  5. Neon's serverless driver over a WebSocket-to-TCP proxy (the `ws` package) in front of the
//     pooler, after `npm run admin:create` (the first admin is the first consultant): an enquiry, a
//     booking and a booking of the same slot (409, rolled back).
//  6. The packaged scheduled `outbox-retry` against an SMTP server that takes 150 ms per message,
//     with 2,000 messages due: how long the backlog takes to go, each message exactly once.
// Exits 1 when a check fails. Ports: free ones, or REHEARSE_PGBOUNCER_PORT / REHEARSE_WS_PORT.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Migrator } from "kysely";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { WebSocketServer } from "ws";
import { createDb } from "#db/client.ts";
import { migrations } from "#db/migrations/index.ts";
import { bundleReport, DATABASE_DRIVERS, FUNCTIONS_DIST } from "../build/bundle-functions.mjs";
import { coldStart, coldStartAsync, formFields, median } from "../bench/cold-start.mjs";
import { startEmbeddedDatabase } from "../runtime/embedded-db.mjs";
import { ROUTES, withQuery } from "#shared/routes.ts";

const root = process.cwd();
const work = mkdtempSync(path.join(tmpdir(), "rehearse-deploy-"));
chmodSync(work, 0o755);
const failures = [];
const cleanups = [];
const fail = (message) => {
  failures.push(message);
  console.log(`  ✗ ${message}`);
};
const ok = (message) => console.log(`  ✓ ${message}`);
let stepStarted = Date.now();
const step = (title) => {
  console.log(`   (${((Date.now() - stepStarted) / 1000).toFixed(1)} s)\n── ${title}`);
  stepStarted = Date.now();
};
const started = Date.now();

try {
  // ── The database server and the pooler in front of it ──
  step("PostgreSQL and PgBouncer (transaction mode)");
  const server = await databaseServer();
  const tag = `rehearse_${process.pid}`;
  const names = { prod: `${tag}_prod`, preview: `${tag}_preview`, neon: `${tag}_neon`, mail: `${tag}_mail` };
  const admin = new pg.Client(server.adminUrl);
  await admin.connect();
  for (const name of Object.values(names)) await admin.query(`CREATE DATABASE ${name}`);
  cleanups.push(async () => {
    for (const name of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const bouncer = await startPgBouncer(server);
  cleanups.push(bouncer.stop);
  const direct = (db) => server.url(db);
  const pooled = (db) => `postgres://${server.user}@127.0.0.1:${bouncer.port}/${db}`;
  ok(`PostgreSQL at ${server.host}, PgBouncer ${bouncer.version} on 127.0.0.1:${bouncer.port}`);

  const buildEnv = (context, db, extra = {}) => ({
    ...process.env,
    CONTEXT: context,
    NODE_ENV: "production",
    DATABASE_URL: pooled(db),
    DATABASE_URL_UNPOOLED: direct(db),
    JWT_SECRET: randomBytes(32).toString("hex"),
    SMTP_URL: "smtp://127.0.0.1:1",
    ...extra,
  });

  // ── 1. A deploy preview against an empty database ──
  step("Deploy-preview build against an empty database");
  // The limit is for a build that never ends: bundling the functions is CPU-bound and takes minutes
  // on a loaded 2-core machine.
  const preview = await runBuild(buildEnv("deploy-preview", names.preview), 600_000);
  if (preview.status !== 0) fail(`the deploy-preview build failed:\n${preview.output}`);
  const previewTables = await tablesIn(direct(names.preview));
  if (previewTables.length) fail(`the deploy-preview build created tables: ${previewTables.join(", ")}`);
  else ok(`no table created (${/Migrations skipped[^\n]*/.exec(preview.output)?.[0] ?? "no migration"})`);

  // ── 2. Production: migrate over the direct URL while clients query through the pooler ──
  step("Production build: migrations over the direct URL while clients query through the pooler");
  const all = Object.keys(migrations);
  const behind = createDb(direct(names.prod));
  await new Migrator({ db: behind.withoutPlugins(), provider: { getMigrations: async () => migrations } }).migrateTo(
    all.at(-2),
  );
  await behind.destroy();
  const clients = queryWhileMigrating(pooled(names.prod), 12);
  // The preview's build plus one migration, less the bundling: 90 s for the migration on top of twice
  // the preview's time, so a slow machine is not taken for a hang.
  const limit = 90_000 + 2 * preview.ms;
  const production = await runBuild(buildEnv("production", names.prod), limit, ["--no-functions"]);
  const load = await clients.stop();
  if (production.timedOut)
    fail(
      `the production build's migration hung (no end after ${Math.round(limit / 1000)} s, the preview's build took ${Math.round(preview.ms / 1000)} s)`,
    );
  else if (production.status !== 0) fail(`the production build failed:\n${production.output}`);
  const applied = await appliedMigrations(direct(names.prod));
  const locks = await advisoryLocks(direct(names.prod));
  if (applied.length !== all.length) fail(`migrations applied: ${applied.length} of ${all.length}`);
  if (locks) fail(`${locks} advisory locks left behind`);
  if (load.errors) fail(`${load.errors} client queries failed during the migration: ${load.firstError}`);
  if (!production.timedOut && production.status === 0 && applied.length === all.length && !locks && !load.errors)
    ok(
      `migrated in ${(production.ms / 1000).toFixed(1)} s (${all.at(-1)} applied), ${load.queries} client queries ` +
        "answered meanwhile, no lock left",
    );

  // ── 3. Packaged as Netlify packages them; each in a fresh process ──
  step("Functions packaged with @netlify/zip-it-and-ship-it, each run in a fresh process");
  const bundles = bundleReport(path.join(root, FUNCTIONS_DIST));
  const packaged = await packageFunctions(path.join(root, FUNCTIONS_DIST), path.join(work, "zips"));
  const runtimeEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: pooled(names.prod),
    JWT_SECRET: randomBytes(32).toString("hex"),
    SMTP_URL: "",
    DATA_DIR: path.join(work, "data"),
    // The abuse limits would (rightly) hold back 60 enquiries in a second; this is about connections.
    RATE_LIMIT: "off",
  };
  const rows = [];
  const coldRuns = Math.max(1, Number(process.env.REHEARSE_COLD_RUNS) || 3);
  for (const bundle of bundles) {
    const pack = packaged.get(bundle.name);
    if (!pack) {
      fail(`${bundle.name}: not packaged`);
      continue;
    }
    const drivers = DATABASE_DRIVERS.filter((d) => bundle.eager.includes(d) || bundle.lazy.includes(d));
    if (drivers.length && !bundle.usesDatabase) fail(`${bundle.name} carries ${drivers.join(", ")} but never queries`);
    // The Dutch hyphenation patterns are for pages only (src/i18n/typography.ts); server code takes
    // plainT from src/i18n/plain.ts.
    if ([...bundle.eager, ...bundle.lazy].includes("hyphen"))
      fail(`${bundle.name} carries the hyphenation patterns: import plainT from src/i18n/plain.ts`);
    const eagerDrivers = DATABASE_DRIVERS.filter((d) => bundle.eager.includes(d));
    if (eagerDrivers.length) fail(`${bundle.name} loads ${eagerDrivers.join(", ")} at import, not on its first query`);
    const runs = Array.from({ length: coldRuns }, () =>
      coldStart({ name: bundle.name, entry: pack.main, env: runtimeEnv }),
    );
    const status = runs[0].status;
    if (status >= 500) fail(`${bundle.name}: first answer ${status}`);
    rows.push({
      function: bundle.name,
      "zip KB": Math.round(pack.zipBytes / 1024),
      files: pack.files,
      "at import": bundle.eager.join(" ") || "(own code only)",
      "on demand": bundle.lazy.filter((p) => !p.startsWith("pg-") && !p.startsWith("postgres-")).join(" ") || "-",
      "cold ms": Math.round(median(runs.map((r) => r.ms))),
      "cpu ms": Math.round(median(runs.map((r) => r.cpuMs))),
      answer: status ?? "(scheduled)",
    });
  }
  console.table(rows);
  console.log(
    `  cold ms: import to first answer, ${coldRuns === 1 ? "one fresh process" : `median of ${coldRuns} fresh processes`} (this machine is shared: cpu ms, the\n` +
      "  process's own CPU time, is what load inflates least). pg-* and postgres-* helpers of pg are left out.",
  );

  // ── 4. 60 instances at once through the pooler ──
  step("60 instances of the packaged contact function at once, through the pooler");
  const burst = await fireInstances(packaged.get("contact").main, runtimeEnv, 60);
  const statuses = Object.entries(countBy(burst)).map(([s, n]) => `${n} × ${s}`);
  if (burst.some((s) => s !== 201)) fail(`burst answers: ${statuses.join(", ")}`);
  else ok(`${statuses.join(", ")} (PgBouncer shares ${bouncer.poolSize} server connections among them)`);

  // ── 5. Neon's driver over WebSockets ──
  step("Neon's serverless driver over a WebSocket-to-TCP proxy");
  await migrateDirect(direct(names.neon));
  // The deploy checklist's next step (docs/operator.md): the first admin, made over the direct URL
  // by `npm run admin:create`. It is the install's first consultant; before it nobody can be booked.
  const created = spawnSync(
    process.execPath,
    ["scripts/ops/admin-create.mjs", "--username", "owner", "--password", randomBytes(18).toString("base64url")],
    {
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: pooled(names.neon), DATABASE_URL_UNPOOLED: direct(names.neon) },
    },
  );
  if (created.status !== 0) fail(`npm run admin:create answered ${created.status}: ${created.stderr}${created.stdout}`);
  const proxy = await startWebSocketProxy("127.0.0.1", bouncer.port);
  cleanups.push(proxy.stop);
  const neon = await neonDriverChecks(pooled(names.neon), proxy.port);
  for (const problem of neon.problems) fail(`Neon driver: ${problem}`);
  if (!neon.problems.length) ok(neon.summary);

  // ── 6. The outbox: 2,000 messages against a slow SMTP server ──
  step("Outbox backlog: 2,000 messages, SMTP server taking 150 ms per message");
  const smtp = await startSlowSmtp(150);
  cleanups.push(smtp.stop);
  await migrateDirect(direct(names.mail));
  await fillOutbox(direct(names.mail), 2000);
  const drainStarted = Date.now();
  const retryRuns = [];
  while (retryRuns.length < 5) {
    const run = await coldStartAsync({
      name: "outbox-retry",
      entry: packaged.get("outbox-retry").main,
      env: { ...runtimeEnv, DATABASE_URL: pooled(names.mail), SMTP_URL: smtp.url },
    });
    const left = await dueCount(direct(names.mail));
    retryRuns.push({ ms: run.ms, left });
    if (!left) break;
  }
  const drainMs = Date.now() - drainStarted;
  const unique = new Set(smtp.messageIds).size;
  console.log(
    `  ${retryRuns.length} run(s): ${retryRuns.map((r) => `${(r.ms / 1000).toFixed(1)} s`).join(", ")}; ` +
      `${smtp.messageIds.length} messages received, ${unique} distinct, in ${(drainMs / 1000).toFixed(1)} s`,
  );
  if (retryRuns.at(-1).left) fail(`${retryRuns.at(-1).left} messages still due after ${retryRuns.length} runs`);
  if (smtp.messageIds.length !== 2000 || unique !== 2000)
    fail(`expected 2,000 distinct messages, got ${smtp.messageIds.length} (${unique} distinct)`);
  if (retryRuns.some((r) => r.ms > 30_000)) fail("a retry run took longer than the platform's 30 s");
  if (drainMs > 5 * 60_000) fail(`the backlog took ${(drainMs / 60_000).toFixed(1)} minutes`);
  if (!retryRuns.at(-1).left && unique === 2000 && smtp.messageIds.length === 2000)
    ok(`2,000 messages sent exactly once in ${(drainMs / 1000).toFixed(1)} s (target: 5 minutes)`);
} catch (error) {
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error(`cleanup: ${error}`));
  rmSync(work, { recursive: true, force: true });
}

console.log(`\nRehearsal took ${((Date.now() - started) / 1000).toFixed(0)} s.`);
if (failures.length) {
  console.log(`Rehearsal FAILED:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log("Rehearsal passed.");
process.exit(0);

// ── helpers ──

/** The machine's PostgreSQL at 127.0.0.1:5432 when it answers (trust auth, as in CI), else an embedded one. */
async function databaseServer() {
  const machine = process.env.REHEARSE_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const probe = new pg.Client({ connectionString: machine, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
    await probe.end();
    const base = new URL(machine);
    return {
      host: base.host,
      user: decodeURIComponent(base.username) || "postgres",
      password: decodeURIComponent(base.password),
      hostname: base.hostname,
      port: Number(base.port || 5432),
      adminUrl: machine,
      url: (db) => Object.assign(new URL(machine), { pathname: `/${db}` }).toString(),
    };
  } catch {
    await probe.end().catch(() => {});
  }
  const embedded = await startEmbeddedDatabase({ dataDir: path.join(work, "pg"), log: {} });
  cleanups.push(() => embedded.close());
  const base = new URL(embedded.url);
  return {
    host: `${base.host} (embedded)`,
    user: decodeURIComponent(base.username),
    password: decodeURIComponent(base.password),
    hostname: base.hostname,
    port: Number(base.port),
    adminUrl: Object.assign(new URL(embedded.url), { pathname: "/postgres" }).toString(),
    url: (db) => Object.assign(new URL(embedded.url), { pathname: `/${db}` }).toString(),
  };
}

/** Debian's pgbouncer binary, installed with apt-get when missing and running as root (as .ci/run does for Chromium). */
function pgbouncerBinary() {
  const find = () => ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].find((p) => existsSync(p));
  if (find()) return find();
  if (process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    console.log("  pgbouncer is missing: installing Debian's pgbouncer package…");
    spawnSync("apt-get", ["update", "-qq"], { stdio: "ignore" });
    spawnSync("apt-get", ["install", "-y", "-qq", "pgbouncer"], {
      stdio: "ignore",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
  const found = find();
  if (!found) throw new Error("pgbouncer is required: install it with `sudo apt-get install -y pgbouncer`");
  return found;
}

async function startPgBouncer(server) {
  const binary = pgbouncerBinary();
  const port = Number(process.env.REHEARSE_PGBOUNCER_PORT) || (await freePort());
  const dir = path.join(work, "pgbouncer");
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o777);
  const poolSize = 10;
  const password = server.password ? ` password=${server.password}` : "";
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port} user=${server.user}${password}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      // As Neon's pooler: transaction mode, many clients, few server connections.
      "pool_mode = transaction",
      "max_client_conn = 1000",
      `default_pool_size = ${poolSize}`,
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  writeFileSync(path.join(dir, "users.txt"), `"${server.user}" ""\n`);
  for (const file of readdirSync(dir)) chmodSync(path.join(dir, file), 0o666);
  // PgBouncer refuses to run as root; Debian's package brings its postgres user.
  const asRoot = process.getuid?.() === 0 ? ["-u", "postgres"] : [];
  const child = spawn(binary, [...asRoot, path.join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${output}`);
    if (await canConnect(port)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const version = spawnSync(binary, ["--version"], { encoding: "utf8" })
    .stdout.split("\n")[0]
    .replace("PgBouncer ", "");
  return {
    port,
    poolSize,
    version,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** scripts/build/netlify-build.mjs without the site, as its own process; { status, output, ms, timedOut }. */
function runBuild(env, timeout = 120_000, flags = []) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/build/netlify-build.mjs", "--no-site", ...flags], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeout);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output, ms: Date.now() - t0, timedOut });
    });
  });
}

async function withClient(url, fn) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function tablesIn(url) {
  return withClient(url, async (c) =>
    (await c.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).rows.map(
      (r) => r.table_name,
    ),
  );
}
function appliedMigrations(url) {
  return withClient(url, async (c) => (await c.query("SELECT name FROM kysely_migration")).rows.map((r) => r.name));
}
function advisoryLocks(url) {
  return withClient(url, async (c) =>
    Number((await c.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")).rows[0].count),
  );
}
function dueCount(url) {
  return withClient(url, async (c) =>
    Number((await c.query("SELECT count(*) FROM email_outbox WHERE status <> 'sent'")).rows[0].count),
  );
}

async function migrateDirect(url) {
  const db = createDb(url);
  try {
    const { error } = await new Migrator({
      db: db.withoutPlugins(),
      provider: { getMigrations: async () => migrations },
    }).migrateToLatest();
    if (error) throw error;
  } finally {
    await db.destroy();
  }
}

/** `count` clients querying in a loop through the pooler until stop(): { queries, errors, firstError }. */
function queryWhileMigrating(url, count) {
  const result = { queries: 0, errors: 0, firstError: "" };
  let running = true;
  const loops = Array.from({ length: count }, async () => {
    const client = new pg.Client(url);
    await client.connect();
    try {
      while (running) {
        try {
          await client.query("SELECT count(*) FROM meetings WHERE created_at > now() - interval '1 day'");
          result.queries++;
        } catch (error) {
          result.errors++;
          result.firstError ||= error.message;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await client.end();
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return result;
    },
  };
}

/**
 * Packages `dir` with Netlify's packaging library, as its build does, and unzips each function:
 * Map name → { main (the function's own module inside the package), zipBytes, files }.
 */
async function packageFunctions(dir, out) {
  const { zipFunctions } = await import("@netlify/zip-it-and-ship-it");
  mkdirSync(out, { recursive: true });
  const results = await zipFunctions([dir], out, { archiveFormat: "zip", basePath: dir, repositoryRoot: root });
  const packaged = new Map();
  for (const result of results) {
    const unzipped = path.join(out, result.name);
    const unzip = spawnSync("unzip", ["-q", "-o", result.path, "-d", unzipped], { encoding: "utf8" });
    if (unzip.status !== 0) throw new Error(`unzip ${result.path}: ${unzip.stderr}`);
    const files = listFiles(unzipped);
    // The package's entry point wraps the function for AWS Lambda; the function itself is the module
    // named after it, which is what is timed here.
    const main = files.find((f) => path.basename(f) === `${result.name}.mjs`);
    if (!main) throw new Error(`${result.name}: no ${result.name}.mjs in its package`);
    packaged.set(result.name, {
      main: pathToFileURL(main).href,
      zipBytes: statSync(result.path).size,
      files: files.length,
    });
  }
  return packaged;
}

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

/** Starts `count` fresh processes at once, each one instance of the function answering one enquiry; their statuses. */
async function fireInstances(main, env, count) {
  const script = (i) => `
    const fields = ${JSON.stringify(formFields(env.JWT_SECRET))};
    const { default: handler } = await import(${JSON.stringify(main)});
    const req = new Request("http://localhost:8888/api/contact", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:8888" },
      body: JSON.stringify({ firstName: "Burst", lastName: "Visitor ${i}", email: "burst${i}@example.com",
        service: "startup-visa", message: "Sixty visitors at once, each a fresh instance.", ...fields }),
    });
    const pending = [];
    const res = await handler(req, { ip: "203.0.113.${i % 250}", geo: {}, params: {}, deploy: { context: "production" },
      waitUntil: (p) => pending.push(p) });
    console.log("STATUS " + res.status);
    await Promise.allSettled(pending);
    process.exit(0);`;
  const runs = Array.from(
    { length: count },
    (_, i) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script(i)], {
          env,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.on("data", (c) => (out += c));
        child.stderr.on("data", (c) => (out += c));
        child.on("close", () => {
          const status = Number(/STATUS (\d+)/.exec(out)?.[1]);
          if (status !== 201) console.log(`  instance ${i}: ${out.trim().split("\n").slice(-3).join(" | ")}`);
          resolve(status || "crash");
        });
      }),
  );
  return Promise.all(runs);
}

function countBy(values) {
  return values.reduce((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});
}

/** A WebSocket-to-TCP proxy as Neon runs in front of its endpoints: each WebSocket is one TCP connection. */
async function startWebSocketProxy(host, port) {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: Number(process.env.REHEARSE_WS_PORT) || 0 });
  await new Promise((resolve) => wss.once("listening", resolve));
  wss.on("connection", (ws) => {
    const socket = net.connect(port, host);
    socket.on("data", (data) => ws.readyState === ws.OPEN && ws.send(data));
    socket.on("close", () => ws.close());
    socket.on("error", () => ws.close());
    ws.on("message", (data) => socket.write(data));
    ws.on("close", () => socket.destroy());
  });
  return { port: wss.address().port, stop: () => new Promise((resolve) => wss.close(() => resolve())) };
}

/**
 * The real functions, in this process, on Neon's driver through the proxy: an enquiry, a booking,
 * and a second booking of the same slot, which must be a 409 whose transaction left nothing behind.
 */
async function neonDriverChecks(url, proxyPort) {
  const problems = [];
  const { neonConfig } = await import("@neondatabase/serverless");
  neonConfig.wsProxy = (host, port) => `127.0.0.1:${proxyPort}/v1?address=${host}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineConnect = false;
  neonConfig.forceDisablePgSSL = true;
  Object.assign(process.env, {
    DATABASE_URL: url,
    DATABASE_DRIVER: "neon",
    JWT_SECRET: randomBytes(32).toString("hex"),
    DATA_DIR: path.join(work, "neon-data"),
    RATE_LIMIT: "off",
  });
  delete process.env.SMTP_URL;
  delete process.env.DATABASE_URL_UNPOOLED;
  const { closeDb } = await import("#db/client.ts");
  const contact = (await import("#functions/contact.ts")).default;
  const meetings = (await import("#functions/meetings.ts")).default;
  const context = { ip: "203.0.113.5", geo: {}, params: {}, waitUntil: () => {} };
  const call = async (handler, pathname, body) => {
    const req = new Request(`http://localhost:8888${pathname}`, {
      method: body ? "POST" : "GET",
      headers: { "content-type": "application/json", origin: "http://localhost:8888" },
      body: body ? JSON.stringify({ ...body, ...formFields(process.env.JWT_SECRET) }) : undefined,
    });
    const res = await handler(req, context);
    return { status: res.status, json: await res.json() };
  };
  try {
    const enquiry = await call(contact, ROUTES.contact, {
      firstName: "Neon",
      lastName: "Driver",
      email: "neon@example.com",
      service: "startup-visa",
      message: "Stored over a WebSocket, in a transaction.",
    });
    if (enquiry.status !== 201) problems.push(`enquiry answered ${enquiry.status}: ${JSON.stringify(enquiry.json)}`);
    let date;
    let time;
    for (let day = 1; day < 30 && !time; day++) {
      date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
      const slots = await call(meetings, withQuery(ROUTES.meetings.availableSlots, { date }));
      time = slots.json?.data?.[0];
    }
    if (!time) problems.push("no free slot found to book");
    const booking = { name: "Neon Visitor", email: "neon-visitor@example.com", phone: "+31 20 123 4567", date, time };
    const first = await call(meetings, ROUTES.meetings.schedule, booking);
    const second = await call(meetings, ROUTES.meetings.schedule, { ...booking, email: "second@example.com" });
    if (first.status !== 201) problems.push(`booking answered ${first.status}: ${JSON.stringify(first.json)}`);
    if (second.status !== 409) problems.push(`the same slot again answered ${second.status}, not 409`);
    const counts = await withClient(
      url,
      async (c) =>
        (
          await c.query(
            "SELECT (SELECT count(*) FROM meetings) AS meetings, (SELECT count(*) FROM email_outbox WHERE meeting_id IS NOT NULL) AS mails, (SELECT count(*) FROM enquiries) AS enquiries",
          )
        ).rows[0],
    );
    if (Number(counts.meetings) !== 1 || Number(counts.mails) !== 2 || Number(counts.enquiries) !== 1)
      problems.push(`rows after the 409: ${JSON.stringify(counts)} (expected 1 meeting, its 2 emails, 1 enquiry)`);
    return {
      problems,
      summary: `enquiry 201, booking 201, same slot 409 with its transaction rolled back (${counts.meetings} meeting, ${counts.mails} emails)`,
    };
  } finally {
    await closeDb();
  }
}

/** An SMTP server that takes `delayMs` to accept each message; records each Message-ID. */
async function startSlowSmtp(delayMs) {
  const messageIds = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    maxClients: 100,
    onData(stream, _session, callback) {
      let head = "";
      stream.on("data", (chunk) => {
        if (head.length < 4096) head += chunk.toString("latin1");
      });
      stream.on("end", () =>
        setTimeout(() => {
          messageIds.push(/^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? "?");
          callback();
        }, delayMs),
      );
    },
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    messageIds,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** `count` due messages in the outbox, as a mail server's long outage leaves them. */
async function fillOutbox(url, count) {
  await withClient(url, (c) =>
    c.query(
      `INSERT INTO email_outbox (kind, to_address, subject, text_body, html_body, status, attempts, next_attempt_at)
       SELECT 'enquiry.visitor', 'backlog' || n || '@example.com', 'Backlog message ' || n, 'Hello ' || n,
              '<p>Hello ' || n || '</p>', 'failed', 1, now() - interval '1 minute'
       FROM generate_series(1, $1) AS n`,
      [count],
    ),
  );
}
