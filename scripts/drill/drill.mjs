// `npm run drill`: the fault drill. `npm start` (scripts/runtime/start.mjs) runs as its own process on a
// fresh data folder, with its embedded PostgreSQL, and is made to fail:
//  1. kill -9 of the embedded PostgreSQL during a burst of 60 enquiries: the server survives, every
//     enquiry answered 201 is in the database, every other answer is a clear 503 (the API's JSON
//     error, Retry-After), and the server serves again by itself (its supervisor restarts PostgreSQL).
//  2. SIGTERM during a burst: the requests in flight finish (201, stored with their emails), those
//     sent with the signal are answered 201 or never taken (and then not stored), new connections
//     are refused, the process exits 0 within 10 s leaving no postgres process, and the next start
//     serves the same data.
//  3. The mail server refusing for a while, then accepting (and slow), while retry runs race the
//     first sends: every email goes out exactly once.
// Prints the figures (answers by status, time to recover, exit time, emails sent against expected)
// and exits 1 on a miss. `--report=<file>` also writes { passed, failed, steps } as JSON
// (scripts/test/test.mjs counts each step). Everything waits for conditions, with generous timeouts.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { buildIfNeeded } from "../build/build-if-needed.mjs";
import { machineReference } from "../bench/site.mjs";
import { LIMITS } from "#shared/limits.ts";
import { createDb } from "#db/client.ts";
import { TestMailServer } from "#functions/_tests/mail-server.ts";
import { deliverDue } from "#functions/_lib/mail/delivery.ts";
import { smtpTransport } from "#functions/_lib/mail/transport.ts";

const root = process.cwd();
const reportFile = process.argv.find((a) => a.startsWith("--report="))?.slice("--report=".length);
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const EXIT_LIMIT_MS = 10_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `everyMs` until it answers something truthy; throws `what` after `timeoutMs`. */
async function waitFor(what, check, { timeoutMs = 60_000, everyMs = 50 } = {}) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** `npm start` as its own process (the same Node flags as package.json's start script). */
class Site {
  static async start(env, { timeoutMs = 180_000 } = {}) {
    const script = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
    const flags = /^node((?:\s+--\S+)*)\s+scripts\/runtime\/start\.mjs$/
      .exec(script)?.[1]
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    const child = spawn(process.execPath, [...(flags ?? []), path.join(root, "scripts/runtime/start.mjs")], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const site = new Site(child);
    await site.waitForOutput(/Site ready: (http:\/\/\S+?)\/?\s/, timeoutMs).then((match) => (site.url = match[1]));
    site.dbPort = Number(/Embedded PostgreSQL: .* on 127\.0\.0\.1:(\d+)/.exec(site.output)?.[1]);
    return site;
  }

  constructor(child) {
    this.child = child;
    this.output = "";
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() }));
    });
    child.stdout.on("data", (chunk) => (this.output += chunk));
    child.stderr.on("data", (chunk) => (this.output += chunk));
  }

  get running() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the match once the process's output matches `pattern` (from `from` on). */
  async waitForOutput(pattern, timeoutMs = 60_000, from = 0) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.output.slice(from));
      if (match) return match;
      if (!this.running) throw new Error(`npm start exited before printing ${pattern}:\n${this.tail()}`);
      if (Date.now() > until)
        throw new Error(`npm start did not print ${pattern} in ${timeoutMs / 1000} s:\n${this.tail()}`);
      await sleep(50);
    }
  }

  tail(lines = 25) {
    return this.output.trim().split("\n").slice(-lines).join("\n");
  }

  /** The postmaster: the process's child whose command is postgres. */
  postmasterPid() {
    return postgresChildren(this.child.pid)[0];
  }

  /** The postmaster and its backends and workers. */
  postgresProcesses() {
    const postmaster = this.postmasterPid();
    return postmaster ? [postmaster, ...postgresChildren(postmaster)] : [];
  }

  /** Sends `signal` and resolves with { code, signal, ms } once the process has exited. */
  async stop(signal = "SIGTERM", timeoutMs = 60_000) {
    const sent = Date.now();
    if (this.running) this.child.kill(signal);
    const exit = await Promise.race([this.exited, sleep(timeoutMs).then(() => null)]);
    if (!exit) {
      this.child.kill("SIGKILL");
      throw new Error(`npm start did not exit within ${timeoutMs / 1000} s of ${signal}:\n${this.tail()}`);
    }
    return { ...exit, ms: exit.at - sent };
  }
}

/** The postgres processes whose parent is `parent`. */
function postgresChildren(parent) {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [, comm, rest] = /^\d+ \((.*)\) (.*)$/s.exec(readFileSync(`/proc/${entry}/stat`, "utf8"));
      if (comm === "postgres" && Number(rest.split(" ")[1]) === parent) found.push(Number(entry));
    } catch {
      // gone in between
    }
  }
  return found;
}

/** The postgres processes among `pids` that still run (a process that exited is not one any more). */
function stillPostgres(pids) {
  return pids.filter((pid) => {
    try {
      return /^\d+ \(postgres\) /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
    } catch {
      return false;
    }
  });
}

/**
 * One HTTP request on a connection of its own. Resolves with { status, headers, json } or with
 * { error } (ECONNREFUSED, ECONNRESET, …). With `hold`, the body waits: the request is sent with
 * `Expect: 100-continue`, `continued` resolves once the server has taken it (and answered
 * 100 Continue), and the body goes when `release()` is called.
 */
function request(url, { method = "GET", body, hold = false } = {}) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  let release;
  let continued;
  const started = Date.now();
  const answer = new Promise((resolve) => {
    const target = new URL(url);
    const req = http.request(target, {
      method,
      agent: false,
      headers: {
        ...(payload && {
          "content-type": "application/json",
          "content-length": payload.length,
          origin: target.origin,
        }),
        ...(hold && { expect: "100-continue" }),
      },
      timeout: 120_000,
    });
    const settle = (result) => resolve({ ...result, started, ms: Date.now() - started });
    req.once("response", (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.once("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        settle({ status: res.statusCode, headers: res.headers, json, text });
      });
      res.once("error", (error) => settle({ error: error.code ?? error.message }));
    });
    req.once("error", (error) => settle({ error: error.code ?? error.message }));
    req.once("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    if (hold) {
      continued = new Promise((resolve) => req.once("continue", resolve));
      release = () => req.end(payload);
    } else {
      req.end(payload);
    }
  });
  return { answer, continued, release };
}

/** `count` form tokens, old enough to be accepted (a form shown less than the minimum age ago is refused). */
async function formTokens(url, count) {
  const tokens = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, () => request(`${url}/api/form-token`).answer),
    );
    for (const res of batch) {
      if (res.status !== 200) throw new Error(`GET /api/form-token: ${res.status ?? res.error}`);
      tokens.push(res.json.token);
    }
  }
  const readyAt = Date.now() + LIMITS.formToken.minAgeSeconds * 1000 + 200;
  await sleep(readyAt - Date.now());
  return tokens;
}

const enquiry = (tag, i, token) => ({
  firstName: "Drill",
  lastName: `${tag} ${i}`,
  email: `drill-${tag}-${i}@example.com`,
  company: "Fault Drill BV",
  service: "business-launchpad",
  message: `Fault drill ${tag}, enquiry ${i}: please ignore this message.`,
  language: "en",
  formToken: token,
  website: "",
});

/** The URL of a running site's database (the embedded PostgreSQL's port from its log, its password file). */
function databaseUrl(dataDir, port) {
  const password = readFileSync(path.join(dataDir, "postgres-password"), "utf8").trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** A small pool on a running site's database (the retry runs of the mail step query it side by side). */
async function openDatabase(dataDir, port) {
  const pool = new pg.Pool({ connectionString: databaseUrl(dataDir, port), max: 4 });
  pool.on("error", () => {});
  await pool.query("SELECT 1");
  return pool;
}

/** The stored drill enquiries tagged `tag`: id → number of its outbox messages. */
async function storedEnquiries(db, tag) {
  const { rows } = await db.query(
    `SELECT e.id, count(o.id)::int AS emails
       FROM enquiries e LEFT JOIN email_outbox o ON o.enquiry_id = e.id
      WHERE e.email LIKE $1 GROUP BY e.id`,
    [`drill-${tag}-%`],
  );
  return new Map(rows.map((r) => [Number(r.id), r.emails]));
}

/** "201: 40, 503: 20" */
function byStatus(results) {
  const counts = {};
  for (const r of results) {
    const key = r.status ?? r.error;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.entries(counts)
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
}

/** What is wrong with a non-201 answer, or null when it is the clear 503 the API gives. */
function unclear503(res) {
  if (res.error) return `no answer (${res.error})`;
  if (res.status !== 503) return `status ${res.status}: ${res.text.slice(0, 200)}`;
  if (!res.headers["retry-after"]) return "503 without Retry-After";
  if (res.json?.success !== false || typeof res.json?.message !== "string") return `503 body ${res.text.slice(0, 200)}`;
  if (/ECONN|127\.0\.0\.1|postgres|at \S+:\d+/i.test(res.text)) return `503 shows internals: ${res.text.slice(0, 200)}`;
  return null;
}

function siteEnv(dataDir, extra = {}) {
  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "DATABASE_URL_UNPOOLED", "SMTP_URL", "ADMIN_USERNAME", "ADMIN_PASSWORD"])
    delete env[name];
  return {
    ...env,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    // One client sends every enquiry: the abuse limits would refuse it, the bot traps stay.
    RATE_LIMIT: "off",
    ...extra,
  };
}

// ── 1. kill -9 of the embedded PostgreSQL during a burst ──────────────────────────────────────────

async function killDrill(dataDir) {
  const misses = [];
  const figures = {};
  const site = await Site.start(siteEnv(dataDir));
  try {
    const BURST = 60;
    const tokens = await formTokens(site.url, BURST + 200);
    let tokenAt = BURST;
    const pid = site.postmasterPid();
    if (!pid) throw new Error(`no postgres process under npm start (process ${site.child.pid})`);
    const results = [];
    let next = 0;
    let killedAt = 0;
    const worker = async () => {
      while (next < BURST) {
        const i = next++;
        const res = await request(`${site.url}/api/contact`, { method: "POST", body: enquiry("kill", i, tokens[i]) })
          .answer;
        results[i] = res;
        // A quarter of the burst answered, the rest on its way: the database dies.
        if (!killedAt && results.filter(Boolean).length >= BURST / 4) {
          killedAt = Date.now();
          process.kill(pid, "SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));

    // The server serves again by itself: enquiries until one is answered 201.
    const firstAfter = results.find((r) => r.status === 201 && r.started > killedAt);
    let recoveredAt = firstAfter ? firstAfter.started + firstAfter.ms : 0;
    const probes = [];
    if (!recoveredAt) {
      try {
        await waitFor(
          "an enquiry answered 201 after the kill",
          async () => {
            if (!site.running) throw new Error(`npm start exited:\n${site.tail()}`);
            const res = await request(`${site.url}/api/contact`, {
              method: "POST",
              body: enquiry("killafter", tokenAt, tokens[tokenAt++]),
            }).answer;
            if (res.status === 201) {
              probes.push(res.json.id);
              return (recoveredAt = Date.now());
            }
            const problem = unclear503(res);
            if (problem) misses.push(`after the kill, an enquiry: ${problem}`);
            return false;
          },
          { timeoutMs: 120_000, everyMs: 250 },
        );
      } catch (error) {
        misses.push(`the server did not serve again: ${error.message}`);
      }
    }
    figures.answers = byStatus(results);
    figures.recoverMs = recoveredAt ? recoveredAt - killedAt : null;
    if (!site.running) misses.push(`npm start died after the kill:\n${site.tail()}`);

    for (const [i, res] of results.entries()) {
      if (res.status === 201) continue;
      const problem = unclear503(res);
      if (problem) misses.push(`enquiry ${i}: ${problem}`);
    }
    if (site.running && recoveredAt) {
      const db = await openDatabase(dataDir, site.dbPort);
      try {
        const stored = await storedEnquiries(db, "kill");
        const answered = results.filter((r) => r.status === 201).map((r) => r.json.id);
        const probed = await storedEnquiries(db, "killafter");
        const lost = [...answered, ...probes].filter((id) => !stored.has(id) && !probed.has(id));
        if (lost.length)
          misses.push(`${lost.length} enquiries answered 201 are not in the database: ${lost.join(", ")}`);
        const halves = [...stored].filter(([, emails]) => emails < 1);
        if (halves.length) misses.push(`${halves.length} enquiries stored without their emails (half-written)`);
        figures.stored = stored.size;
        figures.storedWithout201 = stored.size - answered.filter((id) => stored.has(id)).length;
      } finally {
        await db.end();
      }
    }
    figures.log = site.output.match(/\[db\][^\n]*/g)?.join("\n    ") ?? "(nothing)";
  } finally {
    if (site.running) await site.stop("SIGTERM").catch((error) => misses.push(error.message));
  }
  return { figures, misses };
}

// ── 2. SIGTERM during a burst ─────────────────────────────────────────────────────────────────────

async function sigtermDrill(dataDir) {
  const misses = [];
  const figures = {};
  let site = await Site.start(siteEnv(dataDir));
  let exit;
  const held = [];
  try {
    const BURST = 30;
    const LATE = 10;
    const tokens = await formTokens(site.url, BURST + LATE);
    const postgres = site.postgresProcesses();
    // The burst, in flight for certain: the server has taken each request (100 Continue) and waits for its body.
    for (let i = 0; i < BURST; i++) {
      held.push(
        request(`${site.url}/api/contact`, { method: "POST", body: enquiry("term", i, tokens[i]), hold: true }),
      );
    }
    await waitFor("the server to take every request of the burst", () =>
      Promise.race([Promise.all(held.map((h) => h.continued)).then(() => true), sleep(100).then(() => false)]),
    );
    const outputBefore = site.output.length;
    // And 10 more sent as the signal goes: each is either taken and answered 201, or never taken
    // (refused, or reset in the listener's backlog) and then stored nowhere.
    const late = Array.from(
      { length: LATE },
      (_, i) =>
        request(`${site.url}/api/contact`, {
          method: "POST",
          body: enquiry("term", BURST + i, tokens[BURST + i]),
        }).answer,
    );
    const stopping = site.stop("SIGTERM");
    // The bodies arrive after the signal: the requests are in flight while the server stops.
    for (const h of held) h.release();
    // Once the server says it has stopped listening, a new connection is refused.
    const refused = await site
      .waitForOutput(/no new connections/i, EXIT_LIMIT_MS, outputBefore)
      .then(() => request(`${site.url}/api/form-token`).answer)
      .catch((error) => ({ error: `no "no new connections" line: ${error.message.split("\n")[0]}` }));
    exit = await stopping;
    const inFlight = await Promise.all(held.map((h) => h.answer));
    const sentLate = await Promise.all(late);
    const results = [...inFlight, ...sentLate];
    figures.answers = byStatus(inFlight);
    figures.sentWithTheSignal = byStatus(sentLate);
    for (const [i, res] of sentLate.entries()) {
      if (res.status !== 201 && !["ECONNREFUSED", "ECONNRESET", "EPIPE", "socket hang up"].includes(res.error))
        misses.push(`enquiry sent with the signal ${i}: ${res.status ?? res.error} (201, or never taken)`);
    }
    const stopLog = site.output.slice(outputBefore);
    figures.stopLog = stopLog
      .split("\n")
      .filter((line) => /SIGTERM|No new connections|Requests in flight|Stopped|cut|Could not stop/.test(line))
      .map((line) => line.trim())
      .join(" / ");
    if (/cut/.test(stopLog)) misses.push("connections were cut instead of answered");
    figures.exitMs = exit.ms;
    figures.exit = exit.signal ?? exit.code;
    figures.newConnection = refused.error ?? `answered ${refused.status}`;
    if (refused.error !== "ECONNREFUSED")
      misses.push(`a new connection after SIGTERM was not refused: ${figures.newConnection}`);
    for (const [i, res] of inFlight.entries()) {
      if (res.status !== 201) misses.push(`enquiry ${i} in flight at SIGTERM: ${res.status ?? res.error}`);
    }
    if (exit.code !== 0) misses.push(`npm start exited with ${exit.signal ?? exit.code}, not 0:\n${site.tail(12)}`);
    if (exit.ms > EXIT_LIMIT_MS) misses.push(`npm start took ${exit.ms} ms to exit (limit ${EXIT_LIMIT_MS} ms)`);
    if (!postgres.length) misses.push("no postgres process was found under npm start");
    const orphans = stillPostgres(postgres);
    figures.orphans = orphans.length;
    if (orphans.length) misses.push(`postgres processes left running: ${orphans.join(", ")}`);

    // The next start serves the same data.
    site = await Site.start(siteEnv(dataDir));
    const db = await openDatabase(dataDir, site.dbPort);
    try {
      const stored = await storedEnquiries(db, "term");
      const answered = results.filter((r) => r.status === 201).map((r) => r.json.id);
      const lost = answered.filter((id) => !stored.has(id));
      if (lost.length) misses.push(`${lost.length} enquiries answered 201 are not in the database after the restart`);
      const unanswered = [...stored.keys()].filter((id) => !answered.includes(id));
      if (unanswered.length) misses.push(`${unanswered.length} enquiries stored although their request got no 201`);
      const halves = [...stored].filter(([, emails]) => emails < 1);
      if (halves.length) misses.push(`${halves.length} enquiries stored without their emails (half-written)`);
      const earlier = await storedEnquiries(db, "kill");
      figures.restartedWith = `${stored.size} + ${earlier.size} drill enquiries`;
      if (!earlier.size && only !== "sigterm") misses.push("the restarted site lost the first drill's enquiries");
    } finally {
      await db.end();
    }
    const [token] = await formTokens(site.url, 1);
    const after = await request(`${site.url}/api/contact`, { method: "POST", body: enquiry("termafter", 0, token) })
      .answer;
    if (after.status !== 201) misses.push(`after the restart an enquiry was answered ${after.status ?? after.error}`);
  } finally {
    if (site.running) {
      const last = await site.stop("SIGTERM").catch((error) => ({ error }));
      if (last.error) misses.push(last.error.message);
      else if (last.code !== 0) misses.push(`the restarted npm start exited with ${last.signal ?? last.code}`);
    }
  }
  return { figures, misses };
}

// ── 3. The mail server refusing, then accepting ──────────────────────────────────────────────────

async function smtpDrill(dataDir) {
  const misses = [];
  const figures = {};
  const smtp = new TestMailServer();
  await smtp.start();
  await smtp.stop(); // first gone altogether (connection refused), later answering 450 to every recipient
  const site = await Site.start(siteEnv(dataDir, { SMTP_URL: smtp.url }));
  let db;
  let retryDb;
  try {
    db = await openDatabase(dataDir, site.dbPort);
    const rowsOf = async () =>
      (
        await db.query(
          `SELECT o.id, o.status FROM email_outbox o JOIN enquiries e ON e.id = o.enquiry_id WHERE e.email LIKE 'drill-mail-%'`,
        )
      ).rows;
    const send = async (from, count, tokens) =>
      Promise.all(
        Array.from(
          { length: count },
          (_, i) =>
            request(`${site.url}/api/contact`, { method: "POST", body: enquiry("mail", from + i, tokens[i]) }).answer,
        ),
      );
    const tokens = await formTokens(site.url, 30);
    const answers = [];
    // Refusing: no mail server, then one that answers 450 to every recipient. The enquiries are
    // stored and answered at once all the same; their emails fail and wait for the retry.
    answers.push(...(await send(0, 5, tokens.slice(0, 5))));
    await smtp.start();
    smtp.refuse = "rcpt";
    answers.push(...(await send(5, 5, tokens.slice(5, 10))));
    await waitFor(
      "the first sends to fail",
      async () => {
        const rows = await rowsOf();
        return rows.length >= 10 && rows.every((r) => r.status === "failed");
      },
      { timeoutMs: 120_000, everyMs: 200 },
    );
    figures.refusedPhase = `${byStatus(answers)}; every email failed and waits for its retry`;

    // Accepting, slowly (300 ms a message): the failed ones are due again (as after the backoff's
    // minute), new enquiries are sent right after their answer, and three retry runs from another
    // process (as the scheduled function's instances would) race those first sends.
    smtp.refuse = false;
    smtp.delayMs = 300;
    const acceptedAt = Date.now();
    await db.query(
      `UPDATE email_outbox SET next_attempt_at = now() WHERE status = 'failed' AND enquiry_id IN (SELECT id FROM enquiries WHERE email LIKE 'drill-mail-%')`,
    );
    retryDb = createDb(databaseUrl(dataDir, site.dbPort));
    const transport = smtpTransport(smtp.url);
    let retrySent = 0;
    let allPosted = false;
    const deadline = Date.now() + 180_000;
    const retryRuns = Array.from({ length: 3 }, async () => {
      // Each run claims what is due until every enquiry is in and all of their emails are sent.
      for (;;) {
        const { sent } = await deliverDue(retryDb, transport, { budgetMs: 5_000 });
        retrySent += sent;
        const rows = await rowsOf();
        if (allPosted && rows.every((r) => r.status === "sent")) return;
        if (Date.now() > deadline)
          throw new Error("the emails were not all sent within 180 s of the mail server accepting");
        await sleep(100);
      }
    });
    answers.push(...(await send(10, 5, tokens.slice(10, 15))));
    answers.push(...(await send(15, 5, tokens.slice(15, 20))));
    allPosted = true;
    await Promise.all(retryRuns);
    figures.answers = byStatus(answers);
    for (const [i, res] of answers.entries()) {
      if (res.status !== 201) misses.push(`enquiry ${i} with the mail server down: ${res.status ?? res.error}`);
    }
    const rows = await rowsOf();
    figures.allSentMs = Date.now() - acceptedAt;
    const expected = new Set(rows.map((r) => String(r.id)));
    const received = new Map();
    for (const message of smtp.messages) {
      const id = /<outbox-(\d+)@/.exec(message.parsed.messageId ?? "")?.[1];
      if (id) received.set(id, (received.get(id) ?? 0) + 1);
    }
    const twice = [...received].filter(([, n]) => n > 1).map(([id]) => id);
    const missing = [...expected].filter((id) => !received.has(id));
    // Emails the earlier steps left waiting (their first send failed while the database was down) go
    // out too: they count against duplicates, and must be rows of the outbox.
    const known = new Set((await db.query("SELECT id::text FROM email_outbox")).rows.map((r) => r.id));
    const unexpected = [...received.keys()].filter((id) => !known.has(id));
    const earlier = [...received.keys()].filter((id) => known.has(id) && !expected.has(id)).length;
    figures.emails =
      `${expected.size} expected, ${smtp.messages.length - earlier} received (${received.size - earlier} distinct), ` +
      `${retrySent} by the racing retry runs` +
      (earlier ? `; also ${earlier} left waiting by the earlier steps, each once` : "");
    if (expected.size !== 2 * answers.filter((r) => r.status === 201).length)
      misses.push(`${expected.size} emails queued for ${answers.length} enquiries (2 each expected)`);
    if (twice.length) misses.push(`sent more than once: outbox ${twice.join(", ")}`);
    if (missing.length) misses.push(`never sent: outbox ${missing.join(", ")}`);
    if (unexpected.length) misses.push(`sent without an outbox row: ${unexpected.join(", ")}`);
  } finally {
    await retryDb?.destroy();
    await db?.end();
    if (site.running) {
      const exit = await site.stop("SIGTERM").catch((error) => ({ error }));
      if (exit.error) misses.push(exit.error.message);
      else if (exit.code !== 0) misses.push(`npm start exited with ${exit.signal ?? exit.code}`);
    }
    await smtp.stop();
  }
  return { figures, misses };
}

// ── run ───────────────────────────────────────────────────────────────────────────────────────────

const steps = [
  { name: "kill -9 PostgreSQL during a burst of 60 enquiries", key: "kill", run: killDrill },
  { name: "SIGTERM during a burst of 30 enquiries", key: "sigterm", run: sigtermDrill },
  { name: "the mail server refusing, then accepting", key: "smtp", run: smtpDrill },
].filter((step) => !only || step.key === only);

buildIfNeeded(root);
console.log(
  `Machine reference: a bare Node HTTP server answering 25 KB, ${await machineReference()} req/s; ` +
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}, ${process.getuid?.() === 0 ? "as root" : "as a normal user"}`,
);
const dataDir = mkdtempSync(path.join(tmpdir(), "drill-"));
const outcomes = [];
try {
  for (const step of steps) {
    console.log(`\n── drill: ${step.name} ──`);
    const started = Date.now();
    let outcome;
    try {
      outcome = await step.run(dataDir);
    } catch (error) {
      outcome = { figures: {}, misses: [error instanceof Error ? error.message : String(error)] };
    }
    for (const [name, value] of Object.entries(outcome.figures)) console.log(`  ${name}: ${value}`);
    for (const miss of outcome.misses) console.log(`  MISS: ${miss}`);
    const passed = outcome.misses.length === 0;
    console.log(`  ${passed ? "passed" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    outcomes.push({ step: step.name, passed, ...outcome });
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
const passed = outcomes.filter((o) => o.passed).length;
const failed = outcomes.length - passed;
console.log(`\ndrill: ${passed} passed, ${failed} failed`);
if (reportFile) writeFileSync(reportFile, JSON.stringify({ passed, failed, steps: outcomes }, null, 2));
process.exit(failed ? 1 : 0);
