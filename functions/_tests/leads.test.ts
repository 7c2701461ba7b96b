/**
 * The lead desk's API against a real, migrated database: stages, owners and follow-up dates changed
 * against a version (two admins at once: one wins, the other 409), hostile payloads answered 4xx,
 * editors refused, the timeline and the audit, the board, the filters, the reference search and the
 * lost reasons.
 */
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ensureAdmin, hashPassword } from "#db/admins.ts";
import { createEnquiry } from "#db/enquiries.repository.ts";
import { createUser } from "#db/users.repository.ts";
import type { AdminEnquiry, LeadBoard, LostReason } from "#shared/api/enquiries.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import login from "../login.ts";
import enquiries from "../admin-submissions.ts";
import leads from "../admin-leads.ts";
import lostReasons from "../admin-lost-reasons.ts";
import adminStats from "../admin-stats.ts";
import { addClosure } from "#db/availability.repository.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
const PASSWORD = "correct horse battery staple";
const cookies: Record<string, string> = {};
const ids: Record<string, number> = {};

async function signIn(username: string) {
  const res = await call(login, "/api/login", { body: { username, password: PASSWORD }, ip: "203.0.113.9" });
  return res.headers.get("set-cookie")?.split(";")[0] ?? "";
}

const enquiry = (over: Partial<Parameters<typeof createEnquiry>[1]> = {}) =>
  createEnquiry(t.db, {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    service: "startup-visa",
    message: "We would like to open an office in Amsterdam.",
    ...over,
  });

const patch = (id: number | string, body: unknown, who = "sara") =>
  call(enquiries, `/api/admin/submissions/${id}`, {
    method: "PATCH",
    body,
    params: { id: String(id) },
    cookie: cookies[who],
    headers: { origin: ORIGIN },
  });

const list = async (query: string, who = "sara") => {
  const res = await call(enquiries, `/api/admin/submissions?${query}`, { cookie: cookies[who] });
  expect(res.status, query).toBe(200);
  return (res.json as AdminEnquiry[]).map((e) => e.id);
};

beforeAll(async () => {
  t = await setupApiDatabase();
  await ensureAdmin(t.db, "sara", PASSWORD);
  await createUser(t.db, "reza", await hashPassword(PASSWORD), "admin");
  await createUser(t.db, "writer", await hashPassword(PASSWORD), "editor");
  for (const name of ["sara", "reza", "writer"]) cookies[name] = await signIn(name);
  const rows = await t.db.selectFrom("users").select(["id", "username"]).execute();
  for (const row of rows) ids[row.username] = row.id;
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});
beforeEach(async () => {
  await t.db.deleteFrom("enquiries").execute();
});
afterEach(() => {
  delete process.env.BOOKING_NOW;
});

describe("PATCH /api/admin/submissions/{id}", () => {
  test("moves a lead through its stages, bumping the version, with a timeline and an audit entry each", async () => {
    const lead = await enquiry();
    const replied = await patch(lead.id, { version: 0, stage: "replied", ownerId: ids.reza });
    expect(replied.status).toBe(200);
    expect(replied.json).toMatchObject({ stage: "replied", ownerId: ids.reza, version: 1 });
    expect(replied.json.repliedAt).toEqual(expect.any(String));

    const won = await patch(lead.id, {
      version: 1,
      stage: "client",
      clientService: "startup-visa",
      clientValueCents: 1_250_000,
      followUpOn: "2026-12-04",
    });
    expect(won.status).toBe(200);
    expect(won.json).toMatchObject({
      stage: "client",
      clientService: "startup-visa",
      clientValueCents: 1_250_000,
      followUpOn: "2026-12-04",
      version: 2,
      // The first answer's time stays: the figure counts from it.
      repliedAt: replied.json.repliedAt,
    });

    const events = await call(leads, `/api/admin/leads/${lead.id}/events`, {
      cookie: cookies.sara,
      params: { id: String(lead.id) },
    });
    expect(
      events.json.map((e: { kind: string; from: string; to: string; by: string }) => [e.kind, e.from, e.to, e.by]),
    ).toEqual([
      ["stage", "new", "replied", "sara"],
      ["owner", null, String(ids.reza), "sara"],
      ["stage", "replied", "client", "sara"],
      ["follow_up", null, "2026-12-04", "sara"],
    ]);
    const { rows: audit } = await sql<{ action: string; detail: Record<string, unknown> }>`
      SELECT action, detail FROM audit_log WHERE target = ${String(lead.id)} ORDER BY id`.execute(t.db);
    const reference = `E-${String(lead.id).padStart(5, "0")}`;
    expect(audit).toEqual([
      { action: "lead.status", detail: { reference, from: "new", to: "replied" } },
      { action: "lead.owner", detail: { reference, from: null, to: String(ids.reza), fromName: null, toName: "reza" } },
      {
        action: "lead.status",
        detail: {
          reference,
          from: "replied",
          to: "client",
          clientService: "startup-visa",
          clientValueCents: 1_250_000,
        },
      },
      { action: "lead.follow-up", detail: { reference, from: null, to: "2026-12-04" } },
    ]);
  });

  test("lost names a reason; back to new clears the answer time; a move the stages do not allow is a 400", async () => {
    const lead = await enquiry();
    const [reason] = (await t.db.selectFrom("lostReasons").select("id").orderBy("id").execute()).map((r) => r.id);
    const lost = await patch(lead.id, { version: 0, stage: "lost", lostReasonId: reason });
    expect(lost.json).toMatchObject({ stage: "lost", lostReasonId: reason });
    const reopened = await patch(lead.id, { version: 1, stage: "new" });
    expect(reopened.json).toMatchObject({ stage: "new", lostReasonId: null, repliedAt: null });
    const skipped = await patch(lead.id, { version: 2, stage: "client", clientService: "other" });
    expect(skipped.status).toBe(200);
    const refused = await patch(lead.id, { version: 3, stage: "lost", lostReasonId: reason });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual({ stage: ["A lead cannot move from client to lost"] });
  });

  test("two admins changing one lead at once: one wins, the other gets 409 leadChanged naming who", async () => {
    for (let round = 0; round < 20; round++) {
      const lead = await enquiry({ lastName: `Round ${round}` });
      const [a, b] = await Promise.all([
        patch(lead.id, { version: 0, stage: "replied" }, "sara"),
        patch(lead.id, { version: 0, stage: "meeting" }, "reza"),
      ]);
      expect([a.status, b.status].sort(), `round ${round}`).toEqual([200, 409]);
      const [won, lost] = a.status === 200 ? [a, b] : [b, a];
      expect(lost.json).toMatchObject({
        code: "leadChanged",
        by: a.status === 200 ? "sara" : "reza",
        current: { id: lead.id, version: 1, stage: won.json.stage },
      });
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM lead_events WHERE enquiry_id = ${lead.id}`.execute(t.db);
      expect(rows[0].n, `round ${round}`).toBe(1);
    }
  });

  test("hostile payloads are 4xx, never 5xx, and change nothing", async () => {
    const lead = await enquiry();
    const bodies: unknown[] = [
      { version: 0, stage: "won" },
      { version: 0, stage: "lost" },
      { version: 0, stage: "lost", lostReasonId: 999_999 },
      { version: 0, stage: "lost", lostReasonId: -1 },
      { version: 0, stage: "client" },
      { version: 0, stage: "client", clientService: "yachts" },
      { version: 0, stage: "client", clientService: "other", clientValueCents: -1 },
      { version: 0, stage: "client", clientService: "other", clientValueCents: 1e12 },
      { version: 0, stage: "client", clientService: "other", clientValueCents: 1.5 },
      { version: 0, stage: "client", clientService: "other", clientValueCents: "100" },
      { version: 0, stage: "replied", clientValueCents: 100 },
      { version: 0, ownerId: ids.writer },
      { version: 0, ownerId: 987_654 },
      { version: 0, ownerId: 2 ** 40 },
      { version: 0, followUpOn: "2026-02-30" },
      { version: 0, followUpOn: "tomorrow" },
      { version: -1, stage: "replied" },
      { version: "0", stage: "replied" },
      { stage: "replied" },
      { version: 0 },
      { version: 0, stage: "replied", __proto__: { isAdmin: true } },
      JSON.parse('{"version":0,"stage":"replied","__proto__":{"stage":"client"}}'),
      JSON.parse('{"version":0,"constructor":{"prototype":{"x":1}}}'),
      { version: 0, stage: { nested: { deeper: { deepest: "client" } } } },
      { version: 0, stage: "x".repeat(100_000) },
      [],
      "replied",
      null,
    ];
    for (const body of bodies) {
      const res = await patch(lead.id, body);
      if (JSON.stringify(body) === '{"version":0,"stage":"replied"}') continue;
      expect(res.status, JSON.stringify(body)?.slice(0, 120)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)?.slice(0, 120)).toBeLessThan(500);
    }
    const row = await t.db
      .selectFrom("enquiries")
      .select(["stage", "version"])
      .where("id", "=", lead.id)
      .executeTakeFirst();
    // `{ version: 0, stage: "replied", __proto__: … }` is a plain, valid move once JSON drops the prototype.
    expect(row!.version).toBeLessThanOrEqual(1);
    expect(["new", "replied"]).toContain(row!.stage);
  });

  test("an editor is refused (403); without a session 401; from another site 403", async () => {
    const lead = await enquiry();
    expect((await patch(lead.id, { version: 0, stage: "replied" }, "writer")).status).toBe(403);
    expect((await call(leads, "/api/admin/leads/board", { cookie: cookies.writer })).status).toBe(403);
    expect((await call(lostReasons, "/api/admin/lost-reasons", { cookie: cookies.writer })).status).toBe(403);
    const anonymous = await call(enquiries, `/api/admin/submissions/${lead.id}`, {
      method: "PATCH",
      body: { version: 0, stage: "replied" },
      params: { id: String(lead.id) },
    });
    expect(anonymous.status).toBe(401);
    const foreign = await call(enquiries, `/api/admin/submissions/${lead.id}`, {
      method: "PATCH",
      body: { version: 0, stage: "replied" },
      params: { id: String(lead.id) },
      cookie: cookies.sara,
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(
      (await t.db.selectFrom("enquiries").select("version").where("id", "=", lead.id).executeTakeFirst())!.version,
    ).toBe(0);
  });

  test("an erased person's lead cannot be changed (404)", async () => {
    const lead = await enquiry();
    await sql`UPDATE enquiries SET anonymised_at = now() WHERE id = ${lead.id}`.execute(t.db);
    expect((await patch(lead.id, { version: 0, stage: "replied" })).status).toBe(404);
  });
});

describe("GET /api/admin/submissions: the lead filters", () => {
  test("stage, owner (an id, none, mine), waiting and overdue by working days or follow-up date", async () => {
    // Wednesday 25 November 2026, 10:00 in Amsterdam.
    process.env.BOOKING_NOW = "2026-11-25T09:00:00Z";
    const at = async (createdAt: string, over = {}) => {
      const e = await enquiry(over);
      await sql`UPDATE enquiries SET created_at = ${createdAt} WHERE id = ${e.id}`.execute(t.db);
      return e.id;
    };
    const friday = await at("2026-11-20T12:00:00Z"); // due Tuesday: overdue
    const monday = await at("2026-11-23T12:00:00Z"); // due Wednesday, today: not yet
    const answered = await at("2026-11-16T12:00:00Z");
    const followUp = await at("2026-11-10T12:00:00Z");
    await patch(answered, { version: 0, stage: "replied", ownerId: ids.sara });
    await patch(followUp, { version: 0, stage: "proposal", ownerId: ids.reza, followUpOn: "2026-11-25" });

    expect(await list("stage=new")).toEqual([monday, friday]);
    expect(await list("attention=waiting")).toEqual([monday, friday]);
    expect(await list("attention=overdue")).toEqual([friday, followUp]);
    expect(await list("owner=me")).toEqual([answered]);
    expect(await list("owner=me", "reza")).toEqual([followUp]);
    expect(await list(`owner=${ids.reza}`)).toEqual([followUp]);
    expect(await list("owner=none")).toEqual([monday, friday]);
    expect(await list("sort=follow-up")).toEqual([followUp]);
    expect(await list("sort=oldest&stage=new")).toEqual([friday, monday]);
    for (const wrong of ["stage=won", "owner=-1", "owner=__proto__", "attention=later", "sort=value"]) {
      const res = await call(enquiries, `/api/admin/submissions?${wrong}`, { cookie: cookies.sara });
      expect(res.status, wrong).toBe(400);
    }
  });

  test("overdue counts by the office's stored rules: a closing day the admin adds moves the overdue point", async () => {
    // Wednesday 25 November 2026, 10:00 in Amsterdam. Friday's enquiry was due by Tuesday 24.
    process.env.BOOKING_NOW = "2026-11-25T09:00:00Z";
    const friday = await enquiry();
    await sql`UPDATE enquiries SET created_at = '2026-11-20T12:00:00Z' WHERE id = ${friday.id}`.execute(t.db);
    const overdueOnBoard = async () =>
      ((await call(leads, "/api/admin/leads/board?attention=overdue", { cookie: cookies.sara })).json as LeadBoard)
        .columns[0].count;
    expect(await list("attention=overdue")).toEqual([friday.id]);
    expect(await overdueOnBoard()).toBe(1);
    await addClosure(t.db, { from: "2026-11-24", to: "2026-11-24", yearly: false, note: "Team day" });
    try {
      // Tuesday is closed: the answer is due by Wednesday, today, so not yet overdue.
      expect(await list("attention=overdue")).toEqual([]);
      expect(await overdueOnBoard()).toBe(0);
      process.env.BOOKING_NOW = "2026-11-25T23:00:00Z"; // Thursday 00:00 in Amsterdam
      expect(await list("attention=overdue")).toEqual([friday.id]);
    } finally {
      await t.db.deleteFrom("officeClosures").where("note", "=", "Team day").execute();
    }
  });

  test("the on-time figure counts by the office's stored rules too", async () => {
    process.env.BOOKING_NOW = "2026-11-25T09:00:00Z";
    const friday = await enquiry();
    // Received Friday 20, answered Wednesday 25 at 09:30: late by the default rules (due Tuesday).
    await sql`UPDATE enquiries SET created_at = '2026-11-20T12:00:00Z', stage = 'replied',
      replied_at = '2026-11-25T08:30:00Z' WHERE id = ${friday.id}`.execute(t.db);
    const share = async () =>
      (await call(adminStats, "/api/admin/stats", { cookie: cookies.sara })).json as { processedOnTime: number };
    expect((await share()).processedOnTime).toBe(0);
    await addClosure(t.db, { from: "2026-11-24", to: "2026-11-24", yearly: false, note: "Team day" });
    try {
      expect((await share()).processedOnTime).toBe(1);
    } finally {
      await t.db.deleteFrom("officeClosures").where("note", "=", "Team day").execute();
    }
  });

  test("a typed reference finds its lead: E-00002, e-2, E2; the reference is on every row", async () => {
    const first = await enquiry({ lastName: "First" });
    const second = await enquiry({ lastName: "Second" });
    const ref = `E-${String(second.id).padStart(5, "0")}`;
    for (const typed of [ref, `e-${second.id}`, `E${second.id}`, ` ${ref.toLowerCase()} `]) {
      expect(await list(`q=${encodeURIComponent(typed)}`), typed).toEqual([second.id]);
    }
    const res = await call(enquiries, "/api/admin/submissions", { cookie: cookies.sara });
    expect(res.json.map((e: AdminEnquiry) => e.reference)).toEqual([ref, `E-${String(first.id).padStart(5, "0")}`]);
    expect(await list("q=M-00001")).toEqual([]);
  });
});

describe("GET /api/admin/leads/board", () => {
  test("counts every stage and shows each column's newest, with the list's filters", async () => {
    const a = await enquiry();
    const b = await enquiry();
    await enquiry();
    await patch(a.id, { version: 0, stage: "meeting", ownerId: ids.sara });
    await patch(b.id, { version: 0, stage: "replied" });
    const board = (await call(leads, "/api/admin/leads/board", { cookie: cookies.sara })).json as LeadBoard;
    expect(board.columns.map((c) => [c.stage, c.count, c.items.length])).toEqual([
      ["new", 1, 1],
      ["replied", 1, 1],
      ["meeting", 1, 1],
      ["proposal", 0, 0],
      ["client", 0, 0],
      ["lost", 0, 0],
    ]);
    const mine = (await call(leads, "/api/admin/leads/board?owner=me", { cookie: cookies.sara })).json as LeadBoard;
    expect(mine.columns.flatMap((c) => c.items.map((i) => i.id))).toEqual([a.id]);
    expect((await call(leads, "/api/admin/leads/board?owner=x", { cookie: cookies.sara })).status).toBe(400);
  });
});

describe("/api/admin/lost-reasons", () => {
  const post = (body: unknown, who = "sara") =>
    call(lostReasons, "/api/admin/lost-reasons", { body, cookie: cookies[who], headers: { origin: ORIGIN } });
  const change = (id: number | string, body: unknown) =>
    call(lostReasons, `/api/admin/lost-reasons/${id}`, {
      method: "PATCH",
      body,
      params: { id: String(id) },
      cookie: cookies.sara,
      headers: { origin: ORIGIN },
    });

  test("lists the four seeded reasons; adds, renames, archives and offers one again, each audited", async () => {
    const seeded = (await call(lostReasons, "/api/admin/lost-reasons", { cookie: cookies.sara })).json as LostReason[];
    expect(seeded.slice(0, 4).map((r) => r.labels.en)).toEqual([
      "No budget",
      "Chose another firm",
      "Not eligible",
      "No answer",
    ]);
    const added = await post({ labels: { en: "Too far", nl: "Te ver", fa: "خیلی دور" } });
    expect(added.status).toBe(201);
    const id = added.json.id as number;
    expect(
      (await change(id, { labels: { en: "Too far away", nl: "Te ver weg", fa: "خیلی دور است" } })).json,
    ).toMatchObject({
      labels: { en: "Too far away" },
      archived: false,
    });
    expect((await change(id, { archived: true })).json.archived).toBe(true);
    // An archived reason is not on offer for a lost lead.
    const lead = await enquiry();
    const refused = await patch(lead.id, { version: 0, stage: "lost", lostReasonId: id });
    expect(refused.status).toBe(400);
    expect((await change(id, { archived: false })).json.archived).toBe(false);
    expect((await patch(lead.id, { version: 0, stage: "lost", lostReasonId: id })).status).toBe(200);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM audit_log WHERE action = 'lost-reason.change' AND target = ${String(id)}`.execute(
      t.db,
    );
    expect(rows[0].n).toBe(4);
  });

  test("two admins renaming and archiving one reason at once: both answered, the reason whole, each audited", async () => {
    const { id } = (await post({ labels: { en: "Timing", nl: "Timing", fa: "زمان" } })).json as LostReason;
    const as = (who: string, body: unknown) =>
      call(lostReasons, `/api/admin/lost-reasons/${id}`, {
        method: "PATCH",
        body,
        params: { id: String(id) },
        cookie: cookies[who],
        headers: { origin: ORIGIN },
      });
    const saras = { en: "Bad timing", nl: "Slechte timing", fa: "زمان نامناسب" };
    const rezas = { en: "Not now", nl: "Niet nu", fa: "الان نه" };
    const answers = await Promise.all([
      as("sara", { labels: saras }),
      as("reza", { labels: rezas }),
      as("reza", { archived: true }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const [stored] = (
      (await call(lostReasons, "/api/admin/lost-reasons", { cookie: cookies.sara })).json as LostReason[]
    ).filter((r) => r.id === id);
    // One admin's labels, never a mix of both; the archive survives the renames.
    expect([saras, rezas]).toContainEqual(stored.labels);
    expect(stored.archived).toBe(true);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM audit_log WHERE action = 'lost-reason.change' AND target = ${String(id)}`.execute(
      t.db,
    );
    expect(rows[0].n).toBe(4);
  });

  test("a reason a lead names stays readable when it is renamed or archived", async () => {
    const { id } = (await post({ labels: { en: "Price", nl: "Prijs", fa: "قیمت" } })).json as LostReason;
    const lead = await enquiry();
    expect((await patch(lead.id, { version: 0, stage: "lost", lostReasonId: id })).status).toBe(200);
    expect((await change(id, { archived: true })).status).toBe(200);
    const listed = (await call(lostReasons, "/api/admin/lost-reasons", { cookie: cookies.sara })).json as LostReason[];
    expect(listed.find((r) => r.id === id)).toMatchObject({ archived: true, labels: { en: "Price" } });
    const [row] = (await call(enquiries, `/api/admin/submissions?stage=lost`, { cookie: cookies.sara })).json;
    expect(row.lostReasonId).toBe(id);
  });

  test("oversized, deeply nested and wrongly typed bodies are 4xx", async () => {
    const deep = JSON.parse(`${'{"a":'.repeat(40)}1${"}".repeat(40)}`);
    for (const body of [
      { labels: { en: "x".repeat(40_000), nl: "x", fa: "x" } },
      deep,
      { labels: { en: 1, nl: "x", fa: "x" } },
      { labels: ["x", "x", "x"] },
      { labels: { en: "x", nl: "x", fa: "x" }, archived: "no" },
      { labels: { en: "a\nb", nl: "x", fa: "x" } },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBeLessThan(500);
      expect((await change(1, body)).status, JSON.stringify(body).slice(0, 60)).toBeLessThan(500);
    }
    expect((await change(1, JSON.parse('{"__proto__":{"archived":true}}'))).status).toBe(400);
  });

  test("hostile labels and ids are 4xx; an editor is refused", async () => {
    for (const body of [
      {},
      { labels: { en: "Only English" } },
      { labels: { en: "", nl: "x", fa: "x" } },
      { labels: { en: "x".repeat(81), nl: "x", fa: "x" } },
      { labels: { en: "a\u0000b", nl: "x", fa: "x" } },
      { labels: { en: "x", nl: "x", fa: "x", de: "x" } },
      JSON.parse('{"labels":{"en":"x","nl":"x","fa":"x","__proto__":{"admin":true}}}'),
      { labels: "No budget" },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    expect((await change(999_999, { archived: true })).status).toBe(404);
    expect((await change("abc", { archived: true })).status).toBe(404);
    expect((await change(1, { archived: "yes" })).status).toBe(400);
    expect((await post({ labels: { en: "x", nl: "x", fa: "x" } }, "writer")).status).toBe(403);
  });
});
