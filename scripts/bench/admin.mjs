// npm run bench:admin — a benchmark, not a test: the admin lists with 100,000 enquiries.
//
// Seeds a fresh embedded PostgreSQL with 100,000 enquiries (one INSERT … generate_series: English,
// Dutch with accents, Persian; a year of dates; two emails each in the outbox), prints the query
// plans (EXPLAIN ANALYZE) of the list's queries, then runs `npm start` on it and measures over HTTP,
// one request at a time: p50/p99 of a first page, a page deep in the list, searches (Latin and
// Persian, common and rare words), a filtered page, the figures, and the CSV export of 10,000 rows
// (with the server's memory before and after). Then 50 connections for 10 s on the plain list
// (autocannon), and the email status as a per-row subquery (before) against the column (after).
// Targets: p99 ≤ 50 ms for a page or a search, export ≤ 2 s, list ≥ 1,000 req/s with p99 ≤ 50 ms;
// the lead desk's board and lead filters (stages, owners, follow-ups seeded over the same rows) p95 ≤ 200 ms;
// the leads page's island adds ≤ 30 KB gzipped to the JavaScript every panel page loads
// (scripts/bench/island-weight.mjs). Prints the machine reference (scripts/bench/machine.mjs).
// Plans and figures also go to bench-results/admin.json and bench-results/admin-plans.txt.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { createDb } from "#db/client.ts";
import { enquiryPageQuery } from "#db/enquiries.repository.ts";
import { migrateToLatest } from "#db/migrate.ts";
import { encodeCursor } from "#db/paging.ts";
import { buildIfNeeded } from "../build/build-if-needed.mjs";
import { startEmbeddedDatabase } from "../runtime/embedded-db.mjs";
import { islandWeight, panelPages } from "./island-weight.mjs";
import { BENCH_ADMIN, load, machineReference, percentile, rssMb, signIn, startSite, stopSite } from "./site.mjs";
import { ROUTES } from "#shared/routes.ts";

const ROWS = 100_000;
const RUNS = 200;
const TARGETS = { pageP99: 50, exportMs: 2000, listRps: 1000, listP99: 50, leadP95: 200, islandBytes: 30_000 };
const root = process.cwd();
const dataDir = mkdtempSync(path.join(tmpdir(), "bench-admin-"));
const failures = [];
const report = {
  rows: ROWS,
  machine: await machineReference(),
  load: loadLine(),
  island: null,
  http: [],
  export: null,
  autocannon: null,
  emailStatus: null,
};
let database;
let db;
let server;

try {
  buildIfNeeded(root, { log: { log: () => {} } });
  const dist = path.join(root, "dist");
  const { addedChunks, ...island } = islandWeight(dist, "admin/leads/index.html", panelPages(dist));
  report.island = { ...island, addedChunks };
  console.log(
    `Machine reference: ${report.machine} req/s\n` +
      `The leads page's JavaScript, gzipped: ${island.pageBytes.toLocaleString("en")} bytes, of which ` +
      `${island.shellBytes.toLocaleString("en")} every panel page loads and ${island.addedBytes.toLocaleString("en")} ` +
      `its island adds (${addedChunks.length} chunks)`,
  );
  if (island.addedBytes > TARGETS.islandBytes)
    failures.push(`the leads island adds ${island.addedBytes} bytes gzipped`);
  database = await startEmbeddedDatabase({ dataDir, log: {} });
  db = createDb(database.url);
  await migrateToLatest(db);

  let started = performance.now();
  await seed(db);
  console.log(
    `Seeded ${ROWS.toLocaleString("en")} enquiries and ${(2 * ROWS).toLocaleString("en")} outbox rows in ${secs(started)}`,
  );
  console.log(`Machine load before measuring: ${report.load}`);

  // Plans, through the repository's own query builder, so they are the queries the API runs.
  const cursorDeep = await cursorAt(db, 90_000);
  const plans = {
    "first page (newest 50)": enquiryPageQuery(db, { limit: 50 }, {}),
    "page at row 90,000": enquiryPageQuery(db, { limit: 50, cursor: cursorDeep }, {}),
    "search, Latin, common (hendriks)": enquiryPageQuery(db, { limit: 50 }, { q: "hendriks" }),
    "search, Latin, rare (lead4242@)": enquiryPageQuery(db, { limit: 50 }, { q: "lead4242@" }),
    "search, Persian with Arabic letters (كريمي)": enquiryPageQuery(db, { limit: 50 }, { q: "كريمي" }),
    "search, Persian phrase (ثبت شرکت)": enquiryPageQuery(db, { limit: 50 }, { q: "ثبت شرکت" }),
    "filtered (pending, Persian, Startup Visa)": enquiryPageQuery(
      db,
      { limit: 50 },
      { stage: "new", language: "fa", service: "startup-visa" },
    ),
  };
  let planText = "";
  for (const [name, query] of Object.entries(plans)) {
    const rows = await query.explain(undefined, sql`analyze, buffers`);
    planText += `## ${name}\n${query.compile().sql}\n\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}\n\n`;
  }
  report.emailStatus = await compareEmailStatus(db);
  planText += `## email status, before: a subquery per row\n${report.emailStatus.plans.before}\n\n`;
  planText += `## email status, after: the column\n${report.emailStatus.plans.after}\n`;
  mkdirSync(path.join(root, "bench-results"), { recursive: true });
  writeFileSync(path.join(root, "bench-results/admin-plans.txt"), planText);
  console.log("\nQuery plans (EXPLAIN ANALYZE, BUFFERS): bench-results/admin-plans.txt");
  for (const line of planText.split("\n").filter((l) => /^## |Execution Time|Index|Bitmap/.test(l))) {
    console.log(`  ${line.replace(/^\s+/, "")}`);
  }

  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    JWT_SECRET: "bench-secret-".padEnd(64, "x"),
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    PORT: process.env.BENCH_PORT ?? "0",
    // As bench:api: the abuse limits would count the benchmark's own requests.
    RATE_LIMIT: "off",
  };
  server = await startSite(root, env);
  const cookie = await signIn(server.url);
  const list = ROUTES.admin.enquiries;
  const scenarios = [
    ["first page of 50", `${list}?limit=50`, "page"],
    ["page at row 90,000 (cursor)", `${list}?limit=50&cursor=${cursorDeep}`, "page"],
    ["search, Latin, common: hendriks", `${list}?q=hendriks`, "page"],
    ["search, Latin, rare: lead4242@", `${list}?q=lead4242%40`, "page"],
    ["search, Dutch without accents: cafe ruine", `${list}?q=cafe%20ruine`, "page"],
    ["search, Persian, Arabic letters: كريمي", `${list}?q=${encodeURIComponent("كريمي")}`, "page"],
    ["search, Persian phrase: ثبت شرکت", `${list}?q=${encodeURIComponent("ثبت شرکت")}`, "page"],
    ["filtered: new + fa + startup-visa", `${list}?stage=new&language=fa&service=startup-visa`, "page"],
    ["filtered: date range of one week", `${list}?from=${daysAgo(60)}&to=${daysAgo(54)}`, "page"],
    ["figures (GET /api/admin/stats)", ROUTES.admin.stats, "other"],
    // The lead desk (issue 42): the board's columns and the list's lead filters.
    ["lead board (6 columns + counts)", ROUTES.admin.leadBoard, "lead"],
    ["lead board, mine", `${ROUTES.admin.leadBoard}?owner=me`, "lead"],
    ["lead board, search: hendriks", `${ROUTES.admin.leadBoard}?q=hendriks`, "lead"],
    ["leads: stage proposal", `${list}?stage=proposal`, "lead"],
    ["leads: mine", `${list}?owner=me`, "lead"],
    ["leads: waiting on us", `${list}?attention=waiting`, "lead"],
    ["leads: overdue", `${list}?attention=overdue`, "lead"],
    ["leads: follow-up date first", `${list}?sort=follow-up`, "lead"],
    ["leads: by reference E-04242", `${list}?q=E-04242`, "lead"],
  ];
  // A third of the leads are the benchmark admin's ("mine").
  await sql`UPDATE enquiries SET owner_id = (SELECT id FROM users WHERE username = ${BENCH_ADMIN.username})
    WHERE id % 3 = 0`.execute(db);
  await sql`VACUUM ANALYZE enquiries`.execute(db);
  for (const [name, url, kind] of scenarios) {
    const times = await timeRequests(`${server.url}${url}`, cookie, RUNS);
    const row = {
      request: name,
      "p50 ms": round(percentile(times, 50)),
      "p95 ms": round(percentile(times, 95)),
      "p99 ms": round(percentile(times, 99)),
      runs: RUNS,
    };
    report.http.push(row);
    if (kind === "page" && row["p99 ms"] > TARGETS.pageP99) failures.push(`${name}: p99 ${row["p99 ms"]} ms`);
    if (kind === "lead" && row["p95 ms"] > TARGETS.leadP95) failures.push(`${name}: p95 ${row["p95 ms"]} ms`);
  }
  console.log(`\nOne request at a time over HTTP (${RUNS} each after 20 warm-ups), signed in:`);
  console.table(report.http);

  const exportUrl = `${server.url}/api/admin/export/submissions?service=startup-studio`;
  const rssBefore = rssMb(server.child.pid);
  const exports = [];
  let exportRows = 0;
  let exportBytes = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const res = await fetch(exportUrl, { headers: { cookie } });
    const text = await res.text();
    exports.push(performance.now() - t0);
    exportRows = text.split("\r\n").length - 2; // header and the final empty line
    exportBytes = Buffer.byteLength(text);
  }
  const rssAfter = rssMb(server.child.pid);
  report.export = {
    rows: exportRows,
    bytes: exportBytes,
    "best ms": round(Math.min(...exports)),
    "median ms": round(percentile(exports, 50)),
    "worst ms": round(Math.max(...exports)),
    "server MB before": Math.round(rssBefore),
    "server MB after": Math.round(rssAfter),
  };
  console.log(`\nCSV export of the Startup Studio enquiries (5 downloads):`);
  console.table([report.export]);
  if (exportRows !== 10_000) failures.push(`export: ${exportRows} rows, expected 10,000`);
  if (percentile(exports, 50) > TARGETS.exportMs) failures.push(`export: median ${round(percentile(exports, 50))} ms`);

  const result = await load({
    url: `${server.url}${list}`,
    headers: { cookie },
    connections: 50,
    duration: 10,
    timeout: 30,
  });
  report.autocannon = {
    request: "GET /api/admin/submissions (page of 50 of 100,000)",
    "req/s": result.rps,
    "p50 ms": result.p50,
    "p99 ms": result.p99,
    "p99 ms, all": result.p99All,
    errors: result.errors,
  };
  console.log("\n50 connections, 10 s (autocannon):");
  console.table([report.autocannon]);
  if (report.autocannon["req/s"] < TARGETS.listRps) failures.push(`list under ${TARGETS.listRps} req/s`);
  if (report.autocannon["p99 ms"] > TARGETS.listP99)
    failures.push(`list p99 ${report.autocannon["p99 ms"]} ms under load`);

  console.log("\nThe list's email status: a summary subquery per row against the column the trigger keeps:");
  console.table(report.emailStatus.rows);
  writeFileSync(path.join(root, "bench-results/admin.json"), JSON.stringify(report, null, 2));
} catch (error) {
  console.error(error);
  failures.push(String(error instanceof Error ? error.message : error));
} finally {
  if (server) await stopSite(server);
  await db?.destroy();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\nMachine load after: ${loadLine()} (2 cores shared with other work: figures vary with it)`);
if (failures.length) {
  console.log(`\nMissed targets:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log("\nEvery target met.");

/** 100,000 enquiries in one statement, the newest first in id order reversed like real arrivals. */
async function seed(kysely) {
  await sql`
    INSERT INTO enquiries (first_name, last_name, email, company, service, message, language, created_at, replied_at, stage)
    SELECT
      (ARRAY['Ali','Maryam','Zoë','Joost','Sara','Reza','Eva','Daan','Niloofar','Bram',
             'علی','مریم','نیلوفر','رضا','سارا','Émile','Chloé','Jörg','Fatemeh','Sven'])[1 + n % 20],
      (ARRAY['Karimi','Ahmadi','Hendriks','de Vries','Jansen','Bakker','Rezaei','Mohammadi','van Dijk','Visser',
             'کریمی','احمدی','رضایی','محمدی','حسینی','Müller','Dupont','Ruïz','Smit','Meijer'])[1 + (n / 20) % 20],
      'lead' || n || '@' || (ARRAY['example.com','example.nl','example.ir','mail.example'])[1 + n % 4],
      CASE WHEN n % 3 = 0 THEN NULL
           ELSE (ARRAY['Nik Co','شرکت پارس','Café Ruïne BV','Bakker Holding','Tehran Tech','Delft Robotics'])[1 + n % 6] END,
      CASE WHEN n % 10 = 0 THEN 'startup-studio' WHEN n % 10 < 5 THEN 'startup-visa'
           WHEN n % 10 < 8 THEN 'business-launchpad' ELSE 'other' END,
      (ARRAY[
        'We would like to open a European office in Amsterdam next year and need advice on the visa.',
        'Wij willen uitbreiden naar België en Duitsland; graag een gesprek over de mogelijkheden.',
        'می‌خواهم شرکتم را در هلند ثبت کنم. لطفاً درباره ویزای استارتاپ توضیح دهید.',
        'Looking for a co-founder programme in Europe. Can we talk next week about the studio?',
        'Vraag over belastingen en de inschrijving bij de KvK voor een nieuwe startup.',
        'برای ثبت شرکت و افتتاح حساب بانکی در اروپا به کمک نیاز داریم.'
      ])[1 + n % 6] || ' Reference ' || n || '.',
      (ARRAY['en','nl','fa','en','nl','fa'])[1 + n % 6],
      now() - n * interval '315 seconds',
      CASE WHEN n > 400 AND n % 7 <> 0 THEN now() - n * interval '315 seconds' + (n % 5) * interval '1 day' END,
      CASE WHEN n > 400 AND n % 7 <> 0 THEN 'replied' ELSE 'new' END
    FROM generate_series(1, ${ROWS}) AS n`.execute(kysely);
  // The answered leads spread over the stages after "new"; a lost one names a reason, a client its service.
  await sql`
    UPDATE enquiries AS e SET
      stage = s.stage,
      stage_changed_at = e.replied_at,
      lost_reason_id = CASE WHEN s.stage = 'lost' THEN (SELECT min(id) FROM lost_reasons) + e.id % 4 END,
      client_service = CASE WHEN s.stage = 'client' THEN e.service END,
      client_value_cents = CASE WHEN s.stage = 'client' THEN (e.id % 50) * 100000 END,
      follow_up_on = CASE WHEN e.id % 11 = 0 AND s.stage IN ('replied', 'meeting', 'proposal')
        THEN to_char(e.created_at + interval '14 days', 'YYYY-MM-DD') END
    FROM (SELECT id, (ARRAY['replied','replied','meeting','proposal','client','lost'])[1 + (id / 7) % 6] AS stage
          FROM enquiries WHERE replied_at IS NOT NULL) AS s
    WHERE e.id = s.id`.execute(kysely);
  // Two emails per enquiry, sent (the trigger summarises them into enquiries.email_status).
  await sql`
    INSERT INTO email_outbox (kind, enquiry_id, to_address, subject, text_body, html_body, status, attempts, sent_at)
    SELECT k.kind, e.id, 'team@example.com', 'Subject', 'Text', '<p>Html</p>', 'sent', 1, e.created_at
    FROM enquiries AS e CROSS JOIN (VALUES ('enquiry.company'), ('enquiry.ack')) AS k (kind)`.execute(kysely);
  await sql`VACUUM ANALYZE`.execute(kysely);
}

/** The cursor of the page that starts after the `n`th newest enquiry. */
async function cursorAt(kysely, n) {
  const row = await kysely
    .selectFrom("enquiries")
    .select(["id", "createdAt"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .offset(n - 1)
    .limit(1)
    .executeTakeFirstOrThrow();
  return encodeCursor("newest", [row.createdAt.toISOString(), row.id]);
}

/** The list's page as it was read before (a summary subquery on email_outbox per row) against now (a column). */
async function compareEmailStatus(kysely) {
  const before = sql`
    SELECT e.*, (SELECT CASE WHEN count(*) = 0 THEN NULL
        WHEN bool_or(o.status IN ('failed', 'dead') AND o.attempts >= 1) THEN 'failing'
        WHEN bool_and(o.status = 'sent') THEN 'sent' ELSE 'pending' END
      FROM email_outbox AS o WHERE o.enquiry_id = e.id) AS email_status_before
    FROM enquiries AS e ORDER BY created_at DESC, id DESC LIMIT 51`;
  const after = sql`SELECT e.* FROM enquiries AS e ORDER BY created_at DESC, id DESC LIMIT 51`;
  const rows = [];
  const plans = {};
  for (const [name, query] of [
    ["before", before],
    ["after", after],
  ]) {
    const times = [];
    for (let i = 0; i < RUNS + 20; i++) {
      const t0 = performance.now();
      await query.execute(kysely);
      if (i >= 20) times.push(performance.now() - t0);
    }
    const explained = await sql`EXPLAIN (ANALYZE, BUFFERS) ${query}`.execute(kysely);
    plans[name] = explained.rows.map((r) => r["QUERY PLAN"]).join("\n");
    rows.push({
      query: name === "before" ? "before: subquery per row" : "after: email_status column",
      "p50 ms": round(percentile(times, 50)),
      "p99 ms": round(percentile(times, 99)),
      "server ms": Number(/Execution Time: ([\d.]+)/.exec(plans[name])?.[1]),
    });
  }
  return { rows, plans };
}

async function timeRequests(url, cookie, runs) {
  const times = [];
  for (let i = 0; i < runs + 20; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    if (i >= 20) times.push(performance.now() - t0);
  }
  return times;
}

function round(ms) {
  return Math.round(ms * 10) / 10;
}
function secs(t0) {
  return `${((performance.now() - t0) / 1000).toFixed(1)} s`;
}
function daysAgo(days) {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}
function loadLine() {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}
