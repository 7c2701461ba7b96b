/**
 * The audit record: each audited action leaves exactly one entry (who, from where, what); the table
 * refuses edits; an admin reads it filtered and as CSV; an erasure keeps the fact and removes the person.
 */
import { bookingAsBefore, firstConsultantMeeting } from "#db/testing.ts";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { purgeAudit, scrubAuditSubject } from "#db/audit.repository.ts";
import { createEnquiry } from "#db/enquiries.repository.ts";
import { createMeeting } from "#db/meetings.repository.ts";
import { createUser, findUserByUsername } from "#db/users.repository.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import login from "../login.ts";
import adminAudit from "../admin-audit.ts";
import adminUsers from "../admin-users.ts";
import accountStepUp from "../account-step-up.ts";
import adminSessions from "../admin-sessions.ts";
import accountSessions from "../account-sessions.ts";
import accountPassword from "../account-password.ts";
import adminExport from "../admin-export.ts";
import adminNewsletter from "../admin-newsletter.ts";
import adminPrivacy from "../admin-privacy.ts";
import enquiries from "../admin-submissions.ts";
import adminMeetings from "../admin-meetings.ts";
import availability from "../admin-availability.ts";
import bookingRules from "../admin-booking-rules.ts";
import { fixtureAdmin, fixtureHash } from "./fixture-users.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let admin = "";
const PASSWORD = "correct horse battery staple";
const same = { origin: ORIGIN };

async function signIn(username: string, password = PASSWORD, ip = "203.0.113.7") {
  const res = await call(login, "/api/login", { body: { username, password }, ip });
  return { res, cookie: res.headers.get("set-cookie")?.split(";")[0] ?? "" };
}

type Row = {
  id: string;
  actor: string;
  action: string;
  target: string;
  subject: string | null;
  place: string;
  detail: Record<string, unknown>;
};
const lastId = async () =>
  (await sql<{ id: string | null }>`SELECT max(id)::text AS id FROM audit_log`.execute(t.db)).rows[0].id ?? "0";
const since = async (id: string) =>
  (
    await sql<Row>`SELECT id::text, actor, action, target, subject, place, detail FROM audit_log WHERE id > ${id} ORDER BY id`.execute(
      t.db,
    )
  ).rows;

/** The proof inviting and changing a role need (made in the last five minutes; step-up.test.ts checks its own entry). */
const proveAgain = () =>
  call(accountStepUp, "/api/account/step-up", { body: { password: PASSWORD }, cookie: admin, headers: same });

/** Runs `act` and returns the entries it appended. */
async function entriesOf(act: () => Promise<{ status: number }>, expected = [200, 201]) {
  const before = await lastId();
  const res = await act();
  expect(expected, `status ${res.status}`).toContain(res.status);
  return since(before);
}

beforeAll(async () => {
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  await fixtureAdmin(t.db, "owner", PASSWORD);
  await createUser(t.db, "writer", await fixtureHash(PASSWORD), "editor");
  admin = (await signIn("owner")).cookie;
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

describe("each audited action leaves exactly one entry", () => {
  test("sign-in: success and failure, with the factor and a network prefix", async () => {
    const ok = await entriesOf(async () => (await signIn("writer", PASSWORD, "198.51.100.9")).res);
    expect(ok).toEqual([
      expect.objectContaining({
        actor: "writer",
        action: "signin.success",
        place: "198.51.100.0/24",
        detail: { factor: "password" },
      }),
    ]);
    const bad = await entriesOf(async () => (await signIn("Writer", "wrong password", "198.51.100.9")).res, [401]);
    expect(bad).toEqual([
      expect.objectContaining({
        actor: "",
        action: "signin.failure",
        subject: "writer",
        detail: { factor: "password" },
      }),
    ]);
  });

  test("invites, role changes, removals, sessions ended and passwords changed", async () => {
    expect((await proveAgain()).status).toBe(200);
    const invited = await entriesOf(() =>
      call(adminUsers, "/api/admin/users", {
        body: { username: "newbie", role: "editor" },
        cookie: admin,
        headers: same,
      }),
    );
    expect(invited).toEqual([
      expect.objectContaining({
        actor: "owner",
        action: "invite",
        target: "newbie",
        detail: { role: "editor", emailed: false },
      }),
    ]);
    const id = String((await findUserByUsername(t.db, "newbie"))!.id);
    const role = await entriesOf(() =>
      call(adminUsers, `/api/admin/users/${id}`, {
        method: "PATCH",
        params: { id },
        body: { role: "admin" },
        cookie: admin,
        headers: same,
      }),
    );
    expect(role).toEqual([
      expect.objectContaining({ action: "role.change", target: "newbie", detail: { from: "editor", to: "admin" } }),
    ]);
    // The same role again changes nothing and records nothing.
    expect(
      await entriesOf(() =>
        call(adminUsers, `/api/admin/users/${id}`, {
          method: "PATCH",
          params: { id },
          body: { role: "admin" },
          cookie: admin,
          headers: same,
        }),
      ),
    ).toEqual([]);
    const removed = await entriesOf(() =>
      call(adminUsers, `/api/admin/users/${id}`, { method: "DELETE", params: { id }, cookie: admin, headers: same }),
    );
    expect(removed).toEqual([expect.objectContaining({ action: "account.remove", target: "newbie" })]);

    const writer = (await signIn("writer")).cookie;
    const sid = (await call(accountSessions, "/api/account/sessions", { cookie: writer })).json.sessions.find(
      (s: { current: boolean }) => s.current,
    ).id;
    const ended = await entriesOf(() =>
      call(adminSessions, `/api/admin/sessions/${sid}`, {
        method: "DELETE",
        params: { id: sid },
        cookie: admin,
        headers: same,
      }),
    );
    expect(ended).toEqual([expect.objectContaining({ actor: "owner", action: "session.end", target: "writer" })]);

    await fixtureAdmin(t.db, "changer", PASSWORD);
    const changer = (await signIn("changer")).cookie;
    const changed = await entriesOf(() =>
      call(accountPassword, "/api/account/password", {
        body: { currentPassword: PASSWORD, newPassword: "another long passphrase" },
        cookie: changer,
      }),
    );
    expect(changed).toEqual([expect.objectContaining({ actor: "changer", action: "password.change" })]);
  });

  test("exports say what was exported, without the search text", async () => {
    const leads = await entriesOf(() =>
      call(adminExport, "/api/admin/export/submissions?stage=new&q=Karimi", { cookie: admin }),
    );
    expect(leads).toEqual([
      expect.objectContaining({
        action: "export",
        target: "enquiries",
        detail: { filters: { stage: "new" }, searched: true },
      }),
    ]);
    expect(JSON.stringify(leads)).not.toContain("Karimi");
    const meetings = await entriesOf(() => call(adminExport, "/api/admin/export/meetings", { cookie: admin }));
    expect(meetings).toEqual([expect.objectContaining({ action: "export", target: "meetings" })]);
    const subscribers = await entriesOf(() =>
      call(adminNewsletter, "/api/admin/newsletter/subscribers.csv", { cookie: admin }),
    );
    expect(subscribers).toEqual([expect.objectContaining({ action: "export", target: "subscribers" })]);
    // A refused export (a wrong filter) records nothing.
    expect(
      await entriesOf(
        () => call(adminExport, "/api/admin/export/submissions?stage=nonsense", { cookie: admin }),
        [400],
      ),
    ).toEqual([]);
  });
});

describe("each audited action on leads and settings leaves exactly one entry", () => {
  test("status changes on a lead and a meeting", async () => {
    const lead = await createEnquiry(t.db, {
      firstName: "Ali",
      lastName: "Karimi",
      email: "ali@example.com",
      company: null,
      service: "other",
      message: "A message long enough",
    });
    const id = String(lead.id);
    const done = await entriesOf(() =>
      call(enquiries, `/api/admin/submissions/${id}`, {
        method: "PATCH",
        params: { id },
        body: { version: 0, stage: "replied" },
        cookie: admin,
        headers: same,
      }),
    );
    expect(done).toEqual([
      expect.objectContaining({
        action: "lead.status",
        target: id,
        detail: { reference: `E-${id.padStart(5, "0")}`, from: "new", to: "replied" },
      }),
    ]);
    const m = await createMeeting(t.db, {
      ...(await firstConsultantMeeting(t.db)),
      name: "Nima",
      email: "nima@example.com",
      phone: "+31 6 1234 5678",
      date: "2026-12-01",
      time: "10:00",
    });
    const mid = String(m.id);
    const confirmed = await entriesOf(() =>
      call(adminMeetings, `/api/admin/meetings/${mid}`, {
        method: "PATCH",
        params: { id: mid },
        body: { isConfirmed: true },
        cookie: admin,
        headers: same,
      }),
    );
    expect(confirmed).toEqual([
      expect.objectContaining({ action: "meeting.status", target: mid, detail: { isConfirmed: true } }),
    ]);
    // A refused change (a bad body) records nothing.
    expect(
      await entriesOf(
        () =>
          call(adminMeetings, `/api/admin/meetings/${mid}`, {
            method: "PATCH",
            params: { id: mid },
            body: { isConfirmed: "yes" },
            cookie: admin,
            headers: same,
          }),
        [400],
      ),
    ).toEqual([]);
  });

  test("settings: availability, a closure, booking rules", async () => {
    const current = (await call(availability, "/api/admin/availability", { cookie: admin })).json.data;
    const hours = await entriesOf(() =>
      call(availability, "/api/admin/availability", {
        method: "PUT",
        body: { hours: current.hours, publicHolidays: current.publicHolidays },
        cookie: admin,
        headers: same,
      }),
    );
    expect(hours).toEqual([expect.objectContaining({ action: "settings.change", target: "availability" })]);
    const closure = await entriesOf(() =>
      call(availability, "/api/admin/availability/closures", {
        body: { from: "2027-01-04", to: "2027-01-05" },
        cookie: admin,
        headers: same,
      }),
    );
    expect(closure).toEqual([expect.objectContaining({ action: "settings.change", target: "closures" })]);
    const rules = (await call(bookingRules, "/api/admin/booking-rules", { cookie: admin })).json.data;
    const saved = await entriesOf(() =>
      call(bookingRules, "/api/admin/booking-rules", { method: "PUT", body: rules, cookie: admin, headers: same }),
    );
    expect(saved).toEqual([expect.objectContaining({ action: "settings.change", target: "booking-rules" })]);
  });
});

describe("the record cannot be edited", () => {
  test("UPDATE, DELETE and TRUNCATE are refused by the database", async () => {
    const count = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log`.execute(t.db)).rows[0].n;
    const before = await count();
    await expect(sql`UPDATE audit_log SET actor = 'someone else'`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE audit_log`.execute(t.db)).rejects.toThrow(/append-only/);
    // The scrub's own switch does not let it rewrite what happened.
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('app.audit_scrub', 'on', true)`.execute(trx);
        await sql`UPDATE audit_log SET action = 'invite'`.execute(trx);
      }),
    ).rejects.toThrow(/append-only/);
    expect(await count()).toBe(before);
  });

  test("the API has no way to change it: only GET answers", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"])
      expect((await call(adminAudit, "/api/admin/audit", { method, cookie: admin, headers: same })).status).toBe(405);
  });
});

describe("privacy export and erasure", () => {
  test("an erasure keeps the fact and removes the person's details from every entry", async () => {
    const email = "Erased.Person@example.com";
    await signIn(email, "a wrong password"); // a failed sign-in typed with the address
    const exported = await entriesOf(() =>
      call(adminPrivacy, "/api/admin/privacy/export", { body: { email }, cookie: admin, headers: same }),
    );
    expect(exported).toEqual([
      expect.objectContaining({ action: "privacy.export", subject: "erased.person@example.com" }),
    ]);
    const erased = await entriesOf(() =>
      call(adminPrivacy, "/api/admin/privacy/erase", { body: { email }, cookie: admin, headers: same }),
    );
    expect(erased).toEqual([
      expect.objectContaining({
        action: "privacy.erase",
        actor: "owner",
        subject: null,
        detail: expect.objectContaining({ auditEntries: 2 }),
      }),
    ]);
    const all = await sql<{ row: string }>`SELECT row_to_json(a)::text AS row FROM audit_log a`.execute(t.db);
    expect(
      all.rows
        .map((r) => r.row)
        .join("\n")
        .toLowerCase(),
    ).not.toContain("erased.person");
    const actions = (
      await sql<{
        action: string;
      }>`SELECT action FROM audit_log WHERE action IN ('privacy.export', 'privacy.erase')`.execute(t.db)
    ).rows;
    expect(actions.length).toBeGreaterThanOrEqual(2);
    expect(await scrubAuditSubject(t.db, email)).toBe(0);
  });
});

describe("GET /api/admin/audit", () => {
  test("filters by actor, action and UTC days, newest first", async () => {
    await sql`INSERT INTO audit_log (at, actor, action, target) VALUES
      ('2026-03-03T10:00:00Z', 'dated', 'export', 'enquiries'),
      ('2026-03-04T23:59:59Z', 'dated', 'export', 'meetings'),
      ('2026-03-05T00:00:00Z', 'dated', 'invite', 'x')`.execute(t.db);
    const res = await call(adminAudit, "/api/admin/audit?actor=DATED&action=export&from=2026-03-03&to=2026-03-04", {
      cookie: admin,
    });
    expect(res.status).toBe(200);
    expect(res.json.entries.map((e: { target: string }) => e.target)).toEqual(["meetings", "enquiries"]);
    expect(res.json.next).toBeNull();
    const day = await call(adminAudit, "/api/admin/audit?actor=dated&from=2026-03-05&to=2026-03-05", { cookie: admin });
    expect(day.json.entries.map((e: { action: string }) => e.action)).toEqual(["invite"]);
  });

  test("pages of 100 with `before`", async () => {
    await sql`INSERT INTO audit_log (actor, action, target) SELECT 'pager', 'export', 'n' || g FROM generate_series(1, 130) g`.execute(
      t.db,
    );
    const first = await call(adminAudit, "/api/admin/audit?actor=pager", { cookie: admin });
    expect(first.json.entries).toHaveLength(100);
    const second = await call(adminAudit, `/api/admin/audit?actor=pager&before=${first.json.next}`, { cookie: admin });
    expect(second.json.entries).toHaveLength(30);
    expect(second.json.next).toBeNull();
  });

  test("CSV: the filtered entries, formula cells defused, and the download is itself recorded", async () => {
    await signIn('=HYPERLINK("http://evil")', "wrong password");
    const before = await lastId();
    const res = await call(adminAudit, "/api/admin/audit.csv?action=signin.failure", { cookie: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.text.split("\r\n")[0]).toMatch(/^\uFEFF?at,actor,place,action,target,subject,detail$/);
    expect(res.text).toContain(`"'=hyperlink(""http://evil"")"`);
    expect(await since(before)).toEqual([expect.objectContaining({ action: "export", target: "audit" })]);
  });

  test("an editor is refused, and nobody signed out sees it", async () => {
    const writer = (await signIn("writer")).cookie;
    expect((await call(adminAudit, "/api/admin/audit", { cookie: writer })).status).toBe(403);
    expect((await call(adminAudit, "/api/admin/audit")).status).toBe(401);
    expect((await call(adminAudit, "/api/admin/audit.csv", { cookie: writer })).status).toBe(403);
  });

  test("hostile query strings are 400s, never 500s, and record nothing", async () => {
    const before = await lastId();
    for (const query of [
      "__proto__=1",
      "constructor=x",
      "actor=a&actor=b",
      "action=drop",
      "from=2026-13-45",
      "from=yesterday",
      "to=2026-02-30",
      "before=-1",
      "before=99999999999999999999",
      `actor=${"x".repeat(5000)}`,
      "actor=%00",
    ]) {
      for (const path of ["/api/admin/audit", "/api/admin/audit.csv"]) {
        const res = await call(adminAudit, `${path}?${query}`, { cookie: admin });
        expect(res.status, `${path}?${query.slice(0, 30)}`).toBe(400);
        expect(res.text).not.toMatch(/at .*\.ts|stack|SELECT/);
      }
    }
    expect(await since(before)).toEqual([]);
  });
});

describe("retention", () => {
  test("entries older than a year are purged; newer ones stay", async () => {
    await sql`INSERT INTO audit_log (at, actor, action) VALUES ('2025-01-01T00:00:00Z', 'ancient', 'export'), ('2025-12-31T00:00:00Z', 'recent', 'export')`.execute(
      t.db,
    );
    const deleted = await purgeAudit(t.db, new Date("2025-06-01T00:00:00Z"));
    expect(deleted).toBe(1);
    const left = (
      await sql<{ actor: string }>`SELECT actor FROM audit_log WHERE actor IN ('ancient', 'recent')`.execute(t.db)
    ).rows;
    expect(left).toEqual([{ actor: "recent" }]);
  });
});
