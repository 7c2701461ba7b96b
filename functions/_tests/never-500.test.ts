/**
 * Never a 500 from input: generated hostile requests (functions/_tests/hostile.ts) to every method
 * of every endpoint the functions serve, each as a visitor with no session, a visitor holding a
 * meeting's manage link, an editor and an admin. The property, for every case:
 * - the answer is below 500 and carries no stack trace, SQL or exception name;
 * - a 4xx in JSON has the API's error shape ({ success: false, message });
 * - a refusal (any 4xx) stored and sent nothing, and a 400, 413 or 415 counted nothing;
 * - Object.prototype is untouched.
 *
 * CI runs a fixed seed (FUZZ_SEED, default 29), FUZZ_ROUNDS cases (default 6) for each pair of
 * endpoint method and session; `npm run test:fuzz` runs a random seed for FUZZ_SECONDS. A failure names its seed and case, to replay it.
 */
import { bookingAsBefore, firstConsultantMeeting } from "#db/testing.ts";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fixtureAdmin, fixtureHash } from "./fixture-users.ts";
import { createInvitation } from "#db/invitations.repository.ts";
import { createMeeting } from "#db/meetings.repository.ts";
import { createUser, findUserByUsername, setPassword } from "#db/users.repository.ts";
import { BODIES, endpoints as findEndpoints, type Endpoint } from "./endpoints.ts";
import { textRepo, type TextRepo } from "./git-fixture.ts";
import { call, formBody, ORIGIN, setupApiDatabase } from "./harness.ts";
import { hostileBody, hostileQuery, random, type HostileBody } from "./hostile.ts";
import { signManageToken } from "../_lib/booking/manage-token.ts";
import { invitationTokenHash, newInvitationToken } from "../_lib/auth/invitations.ts";
import content from "../content.ts";
import login from "../login.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 29);
/** Cases per (endpoint, session) pair in CI. */
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 6);
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 0);
const PASSWORD = "a long enough password";
const PUBLIC_FORMS = new Set(["/api/contact", "/api/meetings/schedule", "/api/newsletter"]);
/**
 * Endpoints that may end a walking session (its own or the other's) or change its password: after
 * a case on one, the passwords are put back and both sessions sign in again.
 */
const SESSION_ENDING = new Set([
  "/api/logout",
  "/api/account/password",
  "/api/account/sessions/:id",
  "/api/admin/sessions/:id",
  "/api/admin/users/:id",
  "/api/account/factors/totp/remove",
  "/api/account/passkeys/:id",
]);

/** Words that must never reach a client: a stack frame, a source file, SQL, an exception's name. */
const LEAK =
  /\n\s+at |node_modules|\.[cm]?[jt]s:\d+|\bSELECT\b|\bINSERT INTO\b|\bUPDATE\b.*\bSET\b|syntax error at|(Type|Range|Reference|Syntax)Error/;

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let repo: TextRepo;
let all: Endpoint[] = [];
const sessions: { name: string; headers: Record<string, string>; cookie?: string }[] = [];
/** One statement that fingerprints every table's content (the tables that count sign-in tries and sessions apart). */
let dataQuery = "";
/** The walking accounts' password, hashed once. */
let passwordHash = "";
/** Valid bodies that need the run's own values (the texts' revisions). */
const seeds: Record<string, Record<string, unknown>> = {};

const signIn = async (username: string) => {
  const res = await call(login, "/api/login", { body: { username, password: PASSWORD } });
  expect(res.status, `sign in ${username}`).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
};

/** Puts the walking accounts' password back and gives both signed-in sessions a fresh cookie. */
async function signInAgain() {
  for (const session of sessions) {
    if (!session.cookie) continue;
    const username = session.name === "admin" ? "admin" : "marketing";
    const user = await findUserByUsername(t.db, username);
    await setPassword(t.db, user!.id, passwordHash);
    session.cookie = await signIn(username);
  }
  await settle(); // a sign-in from a new device may have queued a notice
}

beforeAll(async () => {
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z"; // Monday 10:10 in Amsterdam
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  repo = textRepo();
  process.env.CONTENT_PROVIDER = "git";
  process.env.CONTENT_GIT_DIR = repo.dir;
  await fixtureAdmin(t.db, "admin", PASSWORD);
  passwordHash = await fixtureHash(PASSWORD);
  await createUser(t.db, "marketing", passwordHash, "editor");
  // A live invitation, so that hostile bodies reach the link's checks and the password's, not only the lookup.
  const token = newInvitationToken();
  await createInvitation(
    t.db,
    { username: "invitee", role: "editor", email: null, language: "fa", unusableHash: passwordHash },
    { tokenHash: invitationTokenHash(token), expiresAt: new Date(Date.now() + 3_600_000) },
  );
  seeds["POST /api/invitation"] = { token };
  seeds["POST /api/invitation/accept"] = { token, password: "another long password" };
  const meeting = await createMeeting(t.db, {
    ...(await firstConsultantMeeting(t.db)),
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "+31 20 123 4567",
    date: "2026-11-26",
    time: "10:00",
  });
  sessions.push(
    { name: "no session", headers: {} },
    { name: "visitor with a manage link", headers: { authorization: `Bearer ${await signManageToken(meeting)}` } },
    { name: "editor", headers: {}, cookie: await signIn("marketing") },
    { name: "admin", headers: {}, cookie: await signIn("admin") },
  );
  all = await findEndpoints(sessions[3].cookie!);
  // The texts' real revisions, so that a hostile change is not refused as stale before its keys are read.
  const texts = await call(content, "/api/content/texts", { cookie: sessions[3].cookie });
  seeds["PUT /api/content/texts"] = { ...BODIES["PUT /api/content/texts"], revisions: texts.json.revisions };
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
    ORDER BY table_name`.execute(t.db);
  const fingerprinted = tables.rows
    .map((r) => r.name)
    .filter((name) => !/^kysely_|login_attempt|session|audit|rate_counters/.test(name));
  expect(fingerprinted).toContain("enquiries");
  dataQuery = `SELECT ${fingerprinted
    .map((name) =>
      // The outbox's rows change in the background as delivery works through them: its count is what a request adds.
      /outbox/i.test(name)
        ? `(SELECT count(*)::text FROM "${name}") AS "${name}"`
        : `(SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM "${name}" x) AS "${name}"`,
    )
    .join(", ")}, (SELECT coalesce(sum(hits), 0)::text FROM rate_counters) AS "(counters)"`;
}, 120_000);

afterAll(async () => {
  delete process.env.BOOKING_NOW;
  delete process.env.CONTENT_PROVIDER;
  delete process.env.CONTENT_GIT_DIR;
  repo?.remove();
  await t?.destroy();
});

/** What a request may have changed: the tables, the counters, the outbox, the texts' git history. */
async function state() {
  const { "(counters)": counters, ...tables } = (await sql.raw<Record<string, string>>(dataQuery).execute(t.db))
    .rows[0];
  const outbox = path.join(process.env.DATA_DIR!, "outbox");
  const texts = createHash("sha256");
  for (const file of ["HEAD", "refs/heads/main"]) {
    const at = path.join(repo.dir, ".git", file);
    if (existsSync(at)) texts.update(readFileSync(at));
  }
  for (const lang of ["en", "nl", "fa"])
    texts.update(readFileSync(path.join(repo.dir, `src/i18n/locales/${lang}.json`)));
  return {
    tables,
    counters,
    sent: existsSync(outbox) ? readdirSync(outbox).length : 0,
    texts: texts.digest("hex"),
  };
}

/**
 * Waits until the emails a request queued are written (delivery runs in the background, here to the
 * file outbox), so that they are not counted against the next case.
 */
async function settle() {
  for (let tries = 0; tries < 100; tries++) {
    const busy = await sql<{ n: string }>`
      SELECT count(*) AS n FROM email_outbox WHERE status IN ('pending', 'sending')`.execute(t.db);
    if (busy.rows[0].n === "0") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Case {
  label: string;
  endpoint: Endpoint;
  query: string;
  body: HostileBody | undefined;
  session: (typeof sessions)[number];
}

/** Case `n` of `seed`: an endpoint, a session, a hostile query and (for methods that carry one) a hostile body. */
function makeCase(seed: number, n: number): Case {
  const rng = random(seed * 1_000_003 + n);
  // Cases go round every (endpoint, session) pair in turn, so a short run still covers each pair.
  const pair = n % (all.length * sessions.length);
  const endpoint = all[Math.floor(pair / sessions.length)];
  const session = sessions[pair % sessions.length];
  const valid = seeds[endpoint.key] ?? BODIES[endpoint.key] ?? null;
  const seedBody = valid && PUBLIC_FORMS.has(endpoint.path) && rng() < 0.7 ? formBody(valid) : valid;
  const query = rng() < 0.5 ? hostileQuery(rng) : "";
  const body = ["POST", "PUT", "PATCH", "DELETE"].includes(endpoint.method) ? hostileBody(rng, seedBody) : undefined;
  return {
    label: `seed ${seed} case ${n}: ${endpoint.key} as ${session.name}${query ? ` ?${query.slice(0, 80)}` : ""}${body ? ` body: ${body.shape.slice(0, 120)}` : ""}`,
    endpoint,
    query,
    body,
    session,
  };
}

type State = Awaited<ReturnType<typeof state>>;

/**
 * Runs one case; returns what broke the property, or nothing, and the state after a refusal. `known` is
 * the state measured after the previous case when nothing has run since (the next case's "before": half
 * of the fingerprints, which were most of the file's time).
 */
async function run(c: Case, ip: string, known?: State): Promise<{ broke?: string; after?: State }> {
  const before = known ?? (await state());
  const headers: Record<string, string> = { origin: ORIGIN, ...c.session.headers };
  if (c.body?.contentType) headers["content-type"] = c.body.contentType;
  const url = c.query ? `${c.endpoint.path}?${c.query}` : c.endpoint.path;
  let res;
  try {
    res = await call(c.endpoint.handler, url, {
      method: c.endpoint.method,
      raw: c.body?.body,
      headers,
      cookie: c.session.cookie,
      ip,
      guard: false,
    });
  } catch (error) {
    return { broke: `threw ${String(error).slice(0, 200)}` };
  }
  if (res.status >= 500) return { broke: `answered ${res.status}: ${res.text.slice(0, 200)}` };
  if (LEAK.test(res.text)) return { broke: `leaked: ${res.text.slice(0, 300)}` };
  if (res.status >= 400 && (res.headers.get("content-type") ?? "").includes("json")) {
    if (res.json?.success !== false || typeof res.json?.message !== "string")
      return { broke: `a ${res.status} without the error shape: ${res.text.slice(0, 200)}` };
  }
  if (Object.keys(Object.prototype).length || ({} as Record<string, unknown>).polluted !== undefined)
    return { broke: "polluted Object.prototype" };
  if (res.status < 400) {
    await settle();
    return {};
  }
  const after = await state();
  const changed = Object.keys(after.tables).filter((name) => after.tables[name] !== before.tables[name]);
  if (changed.length) return { broke: `a ${res.status} changed stored data: ${changed.join(", ")}` };
  if (after.sent !== before.sent) return { broke: `a ${res.status} sent an email` };
  if (after.texts !== before.texts) return { broke: `a ${res.status} changed the site's texts` };
  if ([400, 413, 415].includes(res.status) && after.counters !== before.counters)
    return { broke: `a ${res.status} counted against a limit` };
  return { after };
}

describe("hostile input to every endpoint, with and without a session", () => {
  test("every endpoint in the functions is walked, as each of four sessions", () => {
    expect(all.length).toBeGreaterThan(40);
    expect(sessions.map((s) => s.name)).toEqual(["no session", "visitor with a manage link", "editor", "admin"]);
  });

  test(
    `${SECONDS ? `${SECONDS} s of random seeds` : `a fixed seed, ${ROUNDS} cases per endpoint and session`}: never a 5xx, a leak, a pollution, or a refusal that kept something`,
    { timeout: Math.max(600_000, SECONDS * 1000 + 120_000) },
    async () => {
      const failures: string[] = [];
      const seen = new Set<string>();
      let n = 0;
      const until = Date.now() + SECONDS * 1000;
      const seed = SECONDS ? Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000) : SEED;
      const cases = ROUNDS * all.length * sessions.length;
      let known: State | undefined;
      while (SECONDS ? Date.now() < until : n < cases) {
        const c = makeCase(seed, n);
        // A fresh address per case: the abuse limits would otherwise refuse most cases before their input is read.
        const { broke, after } = await run(c, `198.18.${(n >> 8) & 255}.${n & 255}`, known);
        known = after;
        n++;
        // A sign-out, an ended session or a changed password: sign in again, so later cases still carry one.
        if (SESSION_ENDING.has(c.endpoint.template) && c.session.cookie) {
          await signInAgain();
          known = undefined; // the sign-ins wrote, and may have queued a notice
        }
        if (!broke) continue;
        const kind = `${c.endpoint.key}: ${broke.slice(0, 60)}`;
        if (!seen.has(kind)) failures.push(`${c.label}\n    → ${broke}`);
        seen.add(kind);
      }
      console.log(`never-500: ${n} cases (seed ${seed}) over ${all.length} endpoint methods`);
      expect(failures).toEqual([]);
    },
  );
});
