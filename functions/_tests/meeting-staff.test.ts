/**
 * Staff changing a meeting for the visitor: POST /api/admin/meetings/{id}/consultant (hand it to a
 * colleague) and POST /api/admin/meetings/{id}/move. Three consultants (Nasrin speaks fa/en/nl,
 * Pieter nl/en, Kaveh fa/en), real handlers, a real database and a real SMTP server; invites and
 * feeds parsed with ical.js.
 */
import ICAL from "ical.js";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { call, ORIGIN, apiTestbed, type ApiTestDatabase } from "./harness.ts";
import { invite, TestMailServer, type ReceivedMessage } from "./mail-server.ts";
import { PROTOTYPE_KEYS } from "./hostile.ts";
import meetings from "../meetings.ts";
import manage from "../meeting-manage.ts";
import adminMeetings from "../admin-meetings.ts";
import feed from "../meetings-feed.ts";
import adminConsultants from "../admin-consultants.ts";
import { newMeetingsFeedToken } from "#db/meetings-feed.repository.ts";

const LEADS = "leads@bridgewise.test";
const NASRIN = "nasrin-farahani";
const PIETER = "pieter-van-dijk";
const KAVEH = "kaveh-tehrani";
const smtp = new TestMailServer();
let t: ApiTestDatabase;
let cookie: string;

apiTestbed({ admin: "staff-admin", smtp, rateLimitOff: true }, (bed) => ({ t, cookie } = bed));
beforeAll(async () => {
  for (const [username, id] of [
    ["pieter", PIETER],
    ["kaveh", KAVEH],
  ]) {
    const user = await t.db
      .insertInto("users")
      .values({ username, password: "!", role: "admin", email: `${username}@bridgewise.test` })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.db.insertInto("consultants").values({ id, userId: user.id }).execute();
  }
  await t.db
    .updateTable("users")
    .set({ email: "nasrin@bridgewise.test" })
    .where("username", "=", "staff-admin")
    .execute();
});
beforeEach(async () => {
  process.env.SMTP_URL = smtp.url;
  process.env.NOTIFY_EMAIL = LEADS;
  // Monday 2026-11-23, 10:10 in Amsterdam.
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
  await t.db.deleteFrom("emailOutbox").execute();
  await t.db.deleteFrom("meetings").execute();
  await t.db.updateTable("consultants").set({ active: true, hours: null }).execute();
  smtp.messages.length = 0;
});

let seq = 0;
type Booked = { id: number; email: string; date: string; time: string; consultant: string };
/** Books `consultant` through the API and waits for its emails; answers the meeting and the visitor's acknowledgement. */
async function book(date: string, time: string, consultant: string, language: "en" | "nl" | "fa" = "en") {
  const email = `guest${++seq}@example.com`;
  const before = smtp.messages.length;
  const res = await call(meetings, "/api/meetings/schedule", {
    body: { name: "Leila Ahmadi", phone: "+98 912 345 6789", email, date, time, language, consultant, place: "phone" },
  });
  expect(res.status, res.text).toBe(201);
  await smtp.waitFor(before + 2);
  return { meeting: { ...res.json.data, email } as Booked, ack: smtp.to(email) };
}
const post = (id: number | string, action: "consultant" | "move", body: unknown, raw?: string) =>
  call(adminMeetings, `/api/admin/meetings/${id}/${action}`, {
    method: "POST",
    params: { id: String(id) },
    cookie,
    headers: { origin: ORIGIN, ...(raw ? { "content-type": "application/json" } : {}) },
    ...(raw ? { raw } : { body }),
  });
const was = (m: Booked) => ({ date: m.date, time: m.time, consultant: m.consultant });
const handOver = (m: Booked, consultant: string) => post(m.id, "consultant", { consultant, was: was(m) });
const move = (m: Booked, date: string, time: string) => post(m.id, "move", { date, time, was: was(m) });
/** The one message to `address` received after `from`. */
const newest = (address: string, from: number): ReceivedMessage => {
  const found = smtp.messages.slice(from).filter((m) => m.envelope.to.includes(address));
  expect(found, `one message to ${address}`).toHaveLength(1);
  return found[0]!;
};
const feedUids = async (owner: string | null) => {
  const token = await newMeetingsFeedToken(t.db, owner);
  const res = await call(feed, `/api/meetings-feed/${token}`, { params: { token } });
  expect(res.status).toBe(200);
  const calendar = new ICAL.Component(ICAL.parse(res.text));
  return calendar
    .getAllSubcomponents("vevent")
    .filter((e) => e.getFirstPropertyValue("status") !== "CANCELLED")
    .map((e) => String(e.getFirstPropertyValue("uid")));
};
const manageGet = (token: string) =>
  call(manage, "/api/meetings/manage", { headers: { authorization: `Bearer ${token}`, origin: ORIGIN } });
const linkToken = (m: ReceivedMessage, lang: string) =>
  new RegExp(`https://bridgewise\\.eu/${lang}/meeting/#([A-Za-z0-9_.-]+)`).exec(m.parsed.text ?? "")![1]!;

describe("the visitor's emails and invite name the consultant and the place", () => {
  test("in Persian: the acknowledgement says with whom and that we call, the invite's organizer is the consultant", async () => {
    const { ack } = await book("2026-11-25", "10:00", KAVEH, "fa");
    expect(ack.parsed.text).toContain("کاوه تهرانی");
    expect(ack.parsed.text).toContain("+98 912 345 6789");
    const ics = ack.parsed.attachments.find((a) => a.filename === "invite.ics")!.content.toString("utf8");
    expect(ics.replace(/\r\n /g, "")).toContain('ORGANIZER;CN="کاوه تهرانی (Bridgewise)":mailto:');
    expect(ics.replace(/\r\n /g, "")).toMatch(/DESCRIPTION:.*با: کاوه تهرانی/);
    expect(ics).toContain("LOCATION:تماس تلفنی");
  });
});

describe("POST /api/admin/meetings/{id}/consultant", () => {
  test("hands the meeting over: the visitor's invite keeps its UID with a higher SEQUENCE and names the new consultant; both are told", async () => {
    const { meeting, ack } = await book("2026-11-25", "10:00", NASRIN, "nl");
    const before = smtp.messages.length;
    const res = await handOver(meeting, PIETER);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: meeting.id, consultant: PIETER, date: "2026-11-25", time: "10:00" });
    await smtp.waitFor(before + 3);

    const notice = newest(meeting.email, before);
    expect(notice.parsed.subject).toMatch(/^Een collega neemt je afspraak op .* over/);
    expect(notice.parsed.text).toContain("Pieter van Dijk");
    const [first, updated] = [invite(ack), invite(notice)];
    expect(updated.uid).toBe(first.uid);
    expect(updated.sequence).toBeGreaterThan(first.sequence);
    expect(updated.start).toBe(first.start);
    // The link in the news works; the one from before is replaced.
    expect((await manageGet(linkToken(notice, "nl"))).status).toBe(200);
    expect((await manageGet(linkToken(ack, "nl"))).status).toBe(410);

    expect(newest("pieter@bridgewise.test", before).parsed.subject).toMatch(/handed to you/);
    expect(newest("nasrin@bridgewise.test", before).parsed.subject).toMatch(/handed to Pieter van Dijk/);
    const audit = await t.db.selectFrom("auditLog").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: "meeting.status", target: String(meeting.id) });
  });

  test("the old consultant's feed drops the meeting, the new one's shows it, the office's keeps it", async () => {
    const { meeting } = await book("2026-11-25", "11:00", NASRIN);
    const uid = `meeting-${meeting.id}@bridgewise.eu`;
    expect(await feedUids(NASRIN)).toContain(uid);
    expect(await feedUids(PIETER)).not.toContain(uid);
    expect((await handOver(meeting, PIETER)).status).toBe(200);
    expect(await feedUids(NASRIN)).not.toContain(uid);
    expect(await feedUids(PIETER)).toContain(uid);
    expect(await feedUids(null)).toContain(uid);
  });

  test("refuses an unknown, inactive, busy or non-speaking consultant with 4xx, and changes nothing", async () => {
    const { meeting } = await book("2026-11-25", "10:00", NASRIN, "fa");
    await book("2026-11-25", "10:00", KAVEH, "fa");
    expect((await handOver(meeting, "nobody-here")).status).toBe(404);
    expect((await handOver(meeting, PIETER)).json.message).toBe("consultantLanguage");
    expect((await handOver(meeting, KAVEH)).status).toBe(409); // Kaveh has a meeting then
    await t.db.updateTable("consultants").set({ active: false }).where("id", "=", KAVEH).execute();
    expect((await handOver(meeting, KAVEH)).json.message).toBe("consultantInactive");
    await t.db
      .updateTable("consultants")
      .set({ active: true, hours: JSON.stringify([]) })
      .where("id", "=", KAVEH)
      .execute();
    expect((await handOver(meeting, KAVEH)).json.message).toBe("consultantBusy");
    expect((await handOver(meeting, NASRIN)).status).toBe(400);
    const row = await t.db
      .selectFrom("meetings")
      .select(["consultantId", "inviteSequence"])
      .where("id", "=", meeting.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ consultantId: NASRIN, inviteSequence: 0 });
  });
});

describe("POST /api/admin/meetings/{id}/move", () => {
  test("moves the meeting: the visitor's .eml carries the new time, the consultant and the same UID with a higher SEQUENCE", async () => {
    const { meeting, ack } = await book("2026-11-25", "10:00", PIETER, "en");
    const before = smtp.messages.length;
    const res = await move(meeting, "2026-11-26", "14:00");
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ date: "2026-11-26", time: "14:00", consultant: PIETER });
    await smtp.waitFor(before + 2);
    const notice = newest(meeting.email, before);
    expect(notice.parsed.subject).toMatch(/^We have moved your meeting to/);
    expect(notice.raw).toMatch(/Pieter van Dijk/);
    expect(notice.parsed.text).toMatch(/26 November 2026/);
    const [first, moved] = [invite(ack), invite(notice)];
    expect(moved).toMatchObject({ uid: first.uid, start: "2026-11-26T13:00:00.000Z" });
    expect(moved.sequence).toBeGreaterThan(first.sequence);
    expect((await manageGet(linkToken(notice, "en"))).json.data).toMatchObject({ date: "2026-11-26", time: "14:00" });
    expect(newest("pieter@bridgewise.test", before).parsed.subject).toMatch(/moved/);
  });

  test("keeps to the consultant's rules: a closed day or a taken slot is refused, a past meeting too", async () => {
    const { meeting } = await book("2026-11-25", "10:00", NASRIN);
    const other = await book("2026-11-25", "11:00", NASRIN);
    expect((await move(meeting, "2026-11-28", "10:00")).json.message).toBe("consultantBusy"); // a Saturday
    expect((await move(meeting, "2026-11-23", "11:00")).json.message).toBe("consultantBusy"); // inside the notice
    expect((await move(meeting, "2026-11-25", "11:00")).status).toBe(409);
    expect((await move(meeting, "2026-11-25", "10:00")).status).toBe(400);
    process.env.BOOKING_NOW = "2026-11-25T09:30:00Z";
    expect((await move(meeting, "2026-11-27", "10:00")).json.message).toBe("The meeting has already taken place");
    expect(other.meeting.id).toBeGreaterThan(0);
  });

  test("two staff moving one meeting at once: one wins, the other is told 409, and one move is kept", async () => {
    const { meeting } = await book("2026-11-25", "10:00", NASRIN);
    const answers = await Promise.all([move(meeting, "2026-11-26", "10:00"), move(meeting, "2026-11-27", "10:00")]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.json.message).toBe("meetingChanged");
    const both = await Promise.all([handOver(meeting, KAVEH), move(meeting, "2026-11-26", "15:00")]);
    expect(both.map((a) => a.status).sort()).toEqual([409, 409]); // the panel's view is stale for both
    const won = answers.find((a) => a.status === 200)!.json as { date: string; time: string };
    const changes = await t.db
      .selectFrom("meetingChanges")
      .select(["fromDate", "fromTime", "toDate", "toTime", "by", "byUsername"])
      .where("meetingId", "=", meeting.id)
      .execute();
    expect(changes).toEqual([
      {
        fromDate: "2026-11-25",
        fromTime: "10:00",
        toDate: won.date,
        toTime: won.time,
        by: "admin",
        byUsername: "staff-admin",
      },
    ]);
  });
});

describe("GET /api/admin/meetings?consultant= and GET /api/admin/consultants", () => {
  test("the list filters by consultant (all: every one); the consultants name the signed-in one's as mine", async () => {
    await book("2026-11-25", "10:00", NASRIN);
    await book("2026-11-25", "10:00", PIETER);
    const list = async (query: string) =>
      (await call(adminMeetings, `/api/admin/meetings?${query}`, { cookie })).json.map(
        (m: { consultant: string }) => m.consultant,
      );
    expect(await list(`consultant=${NASRIN}`)).toEqual([NASRIN]);
    expect((await list("consultant=all")).sort()).toEqual([NASRIN, PIETER]);
    expect((await call(adminMeetings, "/api/admin/meetings?consultant=__proto__", { cookie })).status).toBe(400);
    const consultants = (await call(adminConsultants, "/api/admin/consultants", { cookie })).json;
    expect(consultants).toContainEqual({
      id: NASRIN,
      name: { en: "Nasrin Farahani", nl: "Nasrin Farahani", fa: "نسرین فراهانی" },
      languages: ["fa", "en", "nl"],
      active: true,
      mine: true,
      userId: expect.any(Number),
      hours: null,
    });
    expect(consultants.find((c: { id: string }) => c.id === KAVEH)).toMatchObject({ mine: false });
    expect((await call(adminConsultants, "/api/admin/consultants")).status).toBe(401);
  });

  test("POST /api/admin/consultants links an account to a team member once; hostile bodies are 4xx", async () => {
    const link = (body: unknown) =>
      call(adminConsultants, "/api/admin/consultants", { body, cookie, headers: { origin: ORIGIN } });
    const user = await t.db
      .insertInto("users")
      .values({ username: `linked-${++seq}`, password: "!", role: "admin" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect((await link({ consultant: "nobody-here", userId: user.id })).status).toBe(404);
    expect((await link({ consultant: KAVEH, userId: user.id })).status).toBe(409); // Kaveh is someone already
    expect((await link({ consultant: NASRIN, userId: 999_999 })).status).toBe(404);
    const patch = (id: string, body: unknown) =>
      call(adminConsultants, `/api/admin/consultants/${id}`, {
        method: "PATCH",
        params: { id },
        body,
        cookie,
        headers: { origin: ORIGIN },
      });
    expect((await patch(PIETER, { active: false })).json).toEqual({ consultant: PIETER, active: false });
    expect((await patch("nobody-here", { active: true })).status).toBe(404);
    expect((await patch("__proto__", { active: true })).status).toBe(404);
    expect((await patch(PIETER, { active: "yes" })).status).toBe(400);
    expect((await patch(PIETER, { active: true })).status).toBe(200);
    for (const body of [
      null,
      [],
      { consultant: 1, userId: "1" },
      { consultant: KAVEH, userId: 1.5 },
      ...PROTOTYPE_KEYS.map((k) => ({ consultant: k, userId: user.id })),
    ]) {
      const res = await link(body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe("hostile bodies", () => {
  test("prototype keys, wrong types, deep nesting and oversize answer 4xx, never 5xx", async () => {
    const { meeting } = await book("2026-11-25", "10:00", NASRIN);
    const bodies: unknown[] = [
      null,
      [],
      "x",
      { consultant: 42, was: was(meeting) },
      { consultant: PIETER, was: { ...was(meeting), date: "2026-02-30" } },
      { consultant: PIETER },
      { consultant: "x".repeat(10_000), was: was(meeting) },
      { date: ["2026-11-26"], time: "10:00", was: was(meeting) },
      { date: "2026-11-26", time: "25:99", was: was(meeting) },
      ...PROTOTYPE_KEYS.map((key) => ({ consultant: key, was: was(meeting) })),
    ];
    for (const action of ["consultant", "move"] as const) {
      for (const body of bodies) {
        const res = await post(meeting.id, action, body);
        expect(res.status, `${action} ${JSON.stringify(body).slice(0, 80)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      for (const raw of [
        ...PROTOTYPE_KEYS.map((key) => `{"${key}":{"consultant":"${PIETER}"},"consultant":"${PIETER}"}`),
        '{"a":'.repeat(5000) + "1" + "}".repeat(5000),
      ]) {
        const res = await post(meeting.id, action, undefined, raw);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      const valid = action === "move" ? { date: "2026-11-26", time: "10:00" } : { consultant: PIETER };
      expect((await post("abc", action, { ...valid, was: was(meeting) })).status).toBe(404);
    }
    expect((await t.db.selectFrom("meetings").select("consultantId").executeTakeFirstOrThrow()).consultantId).toBe(
      NASRIN,
    );
  });
});
