// The limit `npm run bench:api` measures the API against: a bare node:http + pg server answering the
// two reads with the same work and nothing else. Run as a process of its own (so its CPU is counted
// apart): `node scripts/bench/limit-server.mjs`, with DATABASE_URL and JWT_SECRET; it prints
// "Limit ready: http://127.0.0.1:<port>".
//
// - GET /api/meetings/available-slots?date=…[&consultant=…]: the query checked with the same schema,
//   the same statement as bookingDay (db/consultants.repository.ts), then officeDaySpan, officeRules,
//   each chosen consultant's consultantRules and availableSlots, and their union
//   (src/shared/booking.ts, src/shared/consultants.ts, server/office.ts).
// - GET /api/admin/submissions[?limit=&cursor=]: the session cookie's signature checked once per
//   token (as functions/_lib/auth/auth.ts does), the same statement as liveSession for the session
//   row and its account's version (and touchSession's at most once a minute), the same statement as
//   enquiryPageQuery, and the same mapping (toPage, toAdminEnquiry).
//
// The SQL text is not copied: each repository function is run once at start against a Kysely whose
// driver records the compiled statement instead of sending it, and the limit sends that text with
// its parameters through pg. The answers (status, JSON body, Link) are the project's byte for byte;
// bench-api.mjs checks that before it measures.
import http from "node:http";
import { jwtVerify } from "jose";
import { CamelCasePlugin, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import pg from "pg";
import { bookingDay } from "#db/consultants.repository.ts";
import { enquiryPageQuery, ENQUIRY_ORDERS, toAdminEnquiry } from "#db/enquiries.repository.ts";
import { decodeCursor, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, toPage } from "#db/paging.ts";
import { liveSession, touchSession } from "#db/sessions.repository.ts";
import { API_SECURITY_HEADERS } from "#functions/_lib/http/http.ts";
import { LAST_SEEN_EVERY_MS, SESSION_COOKIE } from "#functions/_lib/auth/auth.ts";
import { calendarStaleBefore, jwtSecret } from "#server/config.ts";
import { now, officeRules } from "#server/office.ts";
import { availableSlots, officeDaySpan } from "#shared/booking.ts";
import { ANY_CONSULTANT, consultantRules, unionOfSlots } from "#shared/consultants.ts";
import { defaultGuardrails } from "#shared/office.ts";
import { ROUTES } from "#shared/routes.ts";
import { slotsQuerySchema } from "#shared/schemas/meetings.ts";
import { safeParse } from "zod/mini";

/** A Kysely that compiles and records each statement and sends none (every query answers no rows). */
function recorder() {
  const statements = [];
  const connection = {
    executeQuery: async (query) => (statements.push(query), { rows: [] }),
    streamQuery: async function* () {},
  };
  const driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    plugins: [new CamelCasePlugin()],
  });
  return { db, statements };
}

/**
 * The statement a repository function sends, with a function that fills its parameters: `roles` maps
 * each placeholder value given to the recording run to a name, `fill` is then called with the values.
 */
async function recorded(run, roles) {
  const { db, statements } = recorder();
  await run(db);
  const [query] = statements;
  const slots = query.parameters.map((value) => {
    for (const [name, placeholder] of Object.entries(roles)) if (value === placeholder) return name;
    return { fixed: value };
  });
  return {
    text: query.sql,
    values: (given) => slots.map((slot) => (typeof slot === "string" ? given[slot] : slot.fixed)),
  };
}

// snake_case column names as CamelCasePlugin turns them into keys, worked out once per name.
const camel = new Map();
const camelKey = (key) => {
  let name = camel.get(key);
  if (name === undefined) camel.set(key, (name = key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase())));
  return name;
};
const camelRow = (row) => {
  const out = {};
  for (const key in row) out[camelKey(key)] = row[key];
  return out;
};

const placeholder = { date: "2000-01-01", from: new Date(1), to: new Date(2), stale: new Date(3) };
const slotsStatement = await recorded(
  (db) =>
    bookingDay(db, placeholder.date, { from: placeholder.from, to: placeholder.to, staleBefore: placeholder.stale }),
  placeholder,
);
const SID = "placeholder-session-id";
const sessionStatement = await recorded((db) => liveSession(db, SID), { sid: SID });
const touchStatement = await recorded((db) => touchSession(db, SID), { sid: SID });
const pageStatements = new Map();
/** The statement of one page of the enquiries list (the first page's is made at start). */
function pageStatement(limit, cursor) {
  const key = `${limit} ${cursor ?? ""}`;
  let statement = pageStatements.get(key);
  if (!statement) {
    const { sql, parameters } = enquiryPageQuery(recorder().db, { limit, cursor: cursor ?? undefined }).compile();
    statement = { text: sql, values: parameters };
    pageStatements.set(key, statement);
  }
  return statement;
}
pageStatement(DEFAULT_PAGE_SIZE, null);

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_MAX ?? 20),
});
const secret = jwtSecret();
const verified = new Map();

const headers = (extra = {}) => ({
  ...API_SECURITY_HEADERS,
  "Content-Type": "application/json; charset=utf-8",
  ...extra,
});
function answer(res, status, body, extra) {
  res.writeHead(status, headers(extra));
  res.end(JSON.stringify(body));
}

async function slots(res, url) {
  const parsed = safeParse(slotsQuerySchema, Object.fromEntries(url.searchParams));
  if (!parsed.success) return answer(res, 400, { success: false, message: parsed.error.issues[0]?.message });
  const { date, consultant = ANY_CONSULTANT } = parsed.data;
  const at = now();
  const span = officeDaySpan(date, officeRules());
  const stale = calendarStaleBefore(at);
  const { rows } = await pool.query(
    slotsStatement.text,
    slotsStatement.values({ date, from: span.from, to: span.to, stale }),
  );
  const row = rows[0] ?? {};
  const stored = {
    hours: (row.hours ?? []).map((h) => ({ ...h, weekday: Number(h.weekday) })),
    closures: row.closures ?? [],
    publicHolidays: row.publicHolidays ?? true,
    guardrails: row.guardrails ?? defaultGuardrails,
  };
  const office = officeRules(stored);
  const chosen = (row.consultants ?? []).filter(
    (c) => c.active && (consultant === ANY_CONSULTANT || c.id === consultant),
  );
  const lists = chosen.map((c) => {
    const hours = c.hours && c.hours.map((h) => ({ ...h, weekday: Number(h.weekday) }));
    const busy = (c.busy ?? []).map(([start, end]) => ({ start: Number(start), end: Number(end) }));
    return availableSlots(date, at, c.taken, consultantRules(office, { hours, closures: c.closures }), busy);
  });
  answer(res, 200, { success: true, data: unionOfSlots(lists) });
}

async function signedIn(req) {
  let token = null;
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === SESSION_COOKIE) token = rest.join("=");
  }
  if (!token) return false;
  let claims = verified.get(token);
  if (!claims || claims.expires <= Date.now()) {
    try {
      const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"] });
      claims = { sub: Number(payload.sub), v: payload.v, sid: payload.sid, expires: payload.exp * 1000 };
      verified.set(token, claims);
    } catch {
      return false;
    }
  }
  const { rows } = await pool.query(sessionStatement.text, sessionStatement.values({ sid: claims.sid }));
  const session = rows[0] && camelRow(rows[0]);
  if (!session || session.userId !== claims.sub || session.sessionVersion !== claims.v) return false;
  if (Date.now() - session.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS)
    await pool.query(touchStatement.text, touchStatement.values({ sid: claims.sid }));
  return session.role === "admin";
}

async function enquiries(req, res, url) {
  if (!(await signedIn(req))) return answer(res, 401, { success: false, message: "Authentication required" });
  const limit = url.searchParams.has("limit") ? Number(url.searchParams.get("limit")) : DEFAULT_PAGE_SIZE;
  const cursor = url.searchParams.get("cursor");
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE || (cursor !== null && !decodeCursor(cursor)))
    return answer(res, 400, { success: false, message: "bad page" });
  const statement = pageStatement(limit, cursor);
  const { rows } = await pool.query(statement.text, statement.values);
  const page = toPage(rows.map(camelRow), limit, ENQUIRY_ORDERS.newest, toAdminEnquiry);
  if (!page.next) return answer(res, 200, page.items);
  const next = new URL(url);
  next.searchParams.set("limit", String(limit));
  next.searchParams.set("cursor", page.next);
  answer(res, 200, page.items, { Link: `<${next.pathname}${next.search}>; rel="next"` });
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://limit");
    if (url.pathname === ROUTES.meetings.availableSlots) return await slots(res, url);
    if (url.pathname === ROUTES.admin.enquiries) return await enquiries(req, res, url);
    answer(res, 404, { success: false, message: "Not found" });
  } catch (error) {
    console.error(error);
    if (!res.headersSent) answer(res, 500, { success: false, message: "error" });
    else res.destroy();
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`Limit ready: http://127.0.0.1:${server.address().port}`);
});
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  pool.end().finally(() => process.exit(0));
});
