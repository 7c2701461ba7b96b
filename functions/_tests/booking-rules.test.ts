/**
 * The admin's booking rules against the real handlers and PostgreSQL: the notice, the buffers (next
 * to a booked meeting and next to a connected calendar's busy event, fetched from a real HTTP
 * server on loopback), the daily cap, the visitor's change cut-off, and the outcome of a meeting.
 * Monday 2026-11-23 is CET (UTC+1): 10:00 in Amsterdam is 09:00Z.
 */
import { bookingAsBefore } from "#db/testing.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import meetings from "../meetings.ts";
import manage from "../meeting-manage.ts";
import rulesApi from "../admin-booking-rules.ts";
import adminMeetings from "../admin-meetings.ts";
import adminStats from "../admin-stats.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import { signManageToken } from "../_lib/booking/manage-token.ts";
import { refreshCalendars } from "../_lib/calendars/refresh.ts";
import { DUMMY_HASH } from "#db/admins.ts";
import { addFeed } from "#db/busy-calendars.repository.ts";
import { lockMeeting } from "#db/meetings.repository.ts";
import { createUser } from "#db/users.repository.ts";
import { defaultGuardrails } from "#shared/office.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let cookie: string;
let server: http.Server;
let feedUrl = "";
// Tuesday 24 November 2026, 11:00–12:00 Amsterdam.
const BUSY_ICS = [
  "BEGIN:VCALENDAR",
  "VERSION:2.0",
  "PRODID:-//test//EN",
  "BEGIN:VEVENT",
  "UID:dentist@test",
  "DTSTAMP:20261101T000000Z",
  "DTSTART:20261124T100000Z",
  "DTEND:20261124T110000Z",
  "END:VEVENT",
  "END:VCALENDAR",
].join("\r\n");

const DEFAULTS = {
  ...defaultGuardrails,
  meetingPlace: "office",
  videoPattern: "https://meet.jit.si/bridgewise-{random}",
};

beforeAll(async () => {
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  process.env.RATE_LIMIT = "off";
  process.env.CALENDAR_FETCH_ALLOW = "loopback";
  const admin = await createUser(t.db, "rules-admin", DUMMY_HASH);
  cookie = `${SESSION_COOKIE}=${await signSession({ id: admin.id, sessionVersion: 1 })}`;
  server = http.createServer((_req, res) => res.end(BUSY_ICS));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/busy.ics`;
}, 60_000);
afterAll(async () => {
  delete process.env.CALENDAR_FETCH_ALLOW;
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.destroy();
});
beforeEach(async () => {
  process.env.BOOKING_NOW = "2026-11-23T09:00:00.000Z";
  await t.db.deleteFrom("meetings").execute();
  await t.db.deleteFrom("busyCalendars").execute();
  expect((await putRules({})).status).toBe(200);
});

const getRules = () => call(rulesApi, "/api/admin/booking-rules", { cookie });
const putRules = (change: object, options: { cookie?: string; origin?: string } = { cookie }) =>
  call(rulesApi, "/api/admin/booking-rules", {
    method: "PUT",
    body: { ...DEFAULTS, ...change },
    cookie: options.cookie,
    headers: { origin: options.origin ?? ORIGIN },
  });
const slots = async (date: string) =>
  (await call(meetings, `/api/meetings/available-slots?date=${date}`)).json.data as string[];
const calendar = async () => (await call(meetings, "/api/meetings/calendar")).json.data;
let seq = 0;
const book = (date: string, time: string) =>
  call(meetings, "/api/meetings/schedule", {
    body: { name: "Ada Lovelace", email: `ada${++seq}@example.com`, phone: "+31 20 123 4567", date, time },
  });
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, origin: ORIGIN });
async function tokenFor(id: number) {
  return signManageToken((await lockMeeting(t.db, id))!);
}

describe("GET and PUT /api/admin/booking-rules", () => {
  test("start with the defaults: no notice, no buffer, no cap, no cut-off, meetings at the office", async () => {
    const res = await getRules();
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(DEFAULTS);
  });

  test("store what the admin sets and answer it", async () => {
    const rules = {
      noticeMinutes: 1440,
      bufferBeforeMinutes: 10,
      bufferAfterMinutes: 15,
      dailyLimit: 4,
      changeCutoffMinutes: 120,
      meetingPlace: "video",
      videoPattern: "https://meet.jit.si/acme-{random}",
    };
    const res = await putRules(rules);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(rules);
    expect((await getRules()).json.data).toEqual(rules);
  });

  test("refuse bad values with 400 and each field's error, and keep the stored rules", async () => {
    await putRules({ noticeMinutes: 60 });
    const res = await putRules({
      noticeMinutes: -1,
      bufferAfterMinutes: 2.5,
      dailyLimit: 0,
      changeCutoffMinutes: "soon",
      meetingPlace: "moon",
      videoPattern: "http://meet.example/room",
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.errors).sort()).toEqual([
      "bufferAfterMinutes",
      "changeCutoffMinutes",
      "dailyLimit",
      "meetingPlace",
      "noticeMinutes",
      "videoPattern",
    ]);
    expect(res.json.errors.videoPattern[0]).toContain("{random}");
    expect((await putRules({ extra: 1 })).status).toBe(400);
    expect((await getRules()).json.data.noticeMinutes).toBe(60);
  });

  test("are for admins only, changed from the site's own pages", async () => {
    expect((await call(rulesApi, "/api/admin/booking-rules")).status).toBe(401);
    expect((await putRules({ noticeMinutes: 5 }, { cookie: undefined })).status).toBe(401);
    expect((await putRules({ noticeMinutes: 5 }, { cookie, origin: "https://evil.example" })).status).toBe(403);
    const editor = await createUser(t.db, "rules-editor", DUMMY_HASH, "editor");
    const editorCookie = `${SESSION_COOKIE}=${await signSession({ id: editor.id, sessionVersion: 1 })}`;
    expect((await call(rulesApi, "/api/admin/booking-rules", { cookie: editorCookie })).status).toBe(403);
    expect((await getRules()).json.data.noticeMinutes).toBe(0);
  });
});

describe("minimum notice", () => {
  test("a slot exactly the notice ahead is offered and books; one a minute short is neither", async () => {
    await putRules({ noticeMinutes: 60 });
    const today = await slots("2026-11-23");
    expect(today[0]).toBe("11:00");
    expect(today).not.toContain("10:30");
    expect((await book("2026-11-23", "10:30")).status).toBe(400);
    expect((await book("2026-11-23", "11:00")).status).toBe(201);
  });

  test("a millisecond later the slot at the notice's edge is gone", async () => {
    await putRules({ noticeMinutes: 60 });
    process.env.BOOKING_NOW = "2026-11-23T09:00:00.001Z";
    expect((await slots("2026-11-23"))[0]).toBe("11:30");
    expect((await book("2026-11-23", "11:00")).status).toBe(400);
  });

  test("the calendar answer carries the earliest start, and the move keeps to the notice too", async () => {
    await putRules({ noticeMinutes: 24 * 60 });
    expect((await calendar()).earliest).toEqual({ date: "2026-11-24", time: "10:00" });
    expect(await slots("2026-11-23")).toEqual([]);
    const booked = await book("2026-11-25", "10:00");
    const token = await tokenFor(booked.json.data.id);
    const tooSoon = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-11-24", time: "09:30" },
      headers: bearer(token),
    });
    expect(tooSoon.status).toBe(400);
    const justInTime = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-11-24", time: "10:00" },
      headers: bearer(token),
    });
    expect(justInTime.status, justInTime.text).toBe(200);
  });
});

describe("buffers", () => {
  test("next to a booked meeting: the neighbouring slots are not offered and answer 409 timeSlotOccupied", async () => {
    await putRules({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15 });
    expect((await book("2026-11-24", "10:00")).status).toBe(201);
    const free = await slots("2026-11-24");
    expect(free).not.toContain("09:30");
    expect(free).not.toContain("10:30");
    expect(free).toContain("09:00");
    expect(free).toContain("11:00");
    const next = await book("2026-11-24", "10:30");
    expect(next.status).toBe(409);
    expect(next.json.message).toBe("timeSlotOccupied");
    expect((await book("2026-11-24", "11:00")).status).toBe(201);
  });

  test("a meeting moved within its own day does not block itself", async () => {
    await putRules({ bufferBeforeMinutes: 30, bufferAfterMinutes: 30 });
    const booked = await book("2026-11-24", "10:00");
    const moved = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-11-24", time: "10:30" },
      headers: bearer(await tokenFor(booked.json.data.id)),
    });
    expect(moved.status, moved.text).toBe(200);
  });

  test("next to a connected calendar's busy event (11:00–12:00), with the buffers", async () => {
    await addFeed(t.db, { name: "Dentist", url: feedUrl });
    expect((await refreshCalendars(t.db, new Date("2026-11-23T09:00:00Z")))[0]).toMatchObject({ ok: true });
    // Without buffers: 10:30 ends as the event starts, 12:00 starts as it ends.
    expect(await slots("2026-11-24")).toEqual(expect.arrayContaining(["10:30", "12:00"]));
    await putRules({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15 });
    const free = await slots("2026-11-24");
    expect(free).toContain("10:00");
    expect(free).not.toContain("10:30");
    expect(free).not.toContain("12:00");
    expect(free).toContain("12:30");
    expect((await book("2026-11-24", "10:30")).status).toBe(400);
    expect((await book("2026-11-24", "12:30")).status).toBe(201);
  });
});

describe("daily cap", () => {
  test("the cap-th booking of a day is accepted, the next is 409 dailyLimitReached", async () => {
    await putRules({ dailyLimit: 2 });
    expect((await book("2026-11-24", "09:00")).status).toBe(201);
    expect((await slots("2026-11-24")).length).toBeGreaterThan(0);
    expect((await book("2026-11-24", "14:00")).status).toBe(201);
    expect(await slots("2026-11-24")).toEqual([]);
    expect((await calendar()).fullDates).toEqual(["2026-11-24"]);
    const third = await book("2026-11-24", "15:00");
    expect(third.status).toBe(409);
    expect(third.json.message).toBe("dailyLimitReached");
    // Another day is not affected.
    expect((await book("2026-11-25", "15:00")).status).toBe(201);
  });

  test("holds when bookings for the last place race each other", async () => {
    await putRules({ dailyLimit: 3 });
    const answers = await Promise.all(
      ["09:00", "10:00", "11:00", "12:00", "13:00", "14:00"].map((time) => book("2026-11-24", time)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409]);
    const count = await t.db
      .selectFrom("meetings")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("date", "=", "2026-11-24")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });

  test("a cancelled meeting frees its place, and a move onto a full day is refused", async () => {
    await putRules({ dailyLimit: 1 });
    const first = await book("2026-11-24", "09:00");
    const other = await book("2026-11-25", "09:00");
    const move = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-11-24", time: "15:00" },
      headers: bearer(await tokenFor(other.json.data.id)),
    });
    expect(move.status).toBe(409);
    expect(move.json.message).toBe("dailyLimitReached");
    const cancel = await call(manage, "/api/meetings/manage/cancel", {
      method: "POST",
      headers: bearer(await tokenFor(first.json.data.id)),
    });
    expect(cancel.status).toBe(200);
    expect((await book("2026-11-24", "15:00")).status).toBe(201);
  });
});

describe("change cut-off", () => {
  // The meeting: Tuesday 2026-11-24 at 10:00 Amsterdam (09:00Z); the cut-off 2 hours before it.
  async function meetingWithCutoff() {
    const booked = await book("2026-11-24", "10:00");
    await putRules({ changeCutoffMinutes: 120 });
    return booked.json.data.id as number;
  }

  test("exactly at the cut-off the visitor can still cancel", async () => {
    const id = await meetingWithCutoff();
    process.env.BOOKING_NOW = "2026-11-24T07:00:00.000Z";
    const token = await tokenFor(id);
    const view = await call(manage, "/api/meetings/manage", { headers: bearer(token) });
    expect(view.json.data).toMatchObject({ changeable: true, changeCutoffMinutes: 120 });
    const cancel = await call(manage, "/api/meetings/manage/cancel", { method: "POST", headers: bearer(token) });
    expect(cancel.status, cancel.text).toBe(200);
  });

  test("a millisecond after the cut-off, move and cancel answer 409 changesClosed and nothing changes", async () => {
    const id = await meetingWithCutoff();
    process.env.BOOKING_NOW = "2026-11-24T07:00:00.001Z";
    const token = await tokenFor(id);
    const view = await call(manage, "/api/meetings/manage", { headers: bearer(token) });
    expect(view.status).toBe(200);
    expect(view.json.data).toMatchObject({ changeable: false, changeCutoffMinutes: 120 });
    const move = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-11-25", time: "10:00" },
      headers: bearer(token),
    });
    expect([move.status, move.json.message]).toEqual([409, "changesClosed"]);
    const cancel = await call(manage, "/api/meetings/manage/cancel", { method: "POST", headers: bearer(token) });
    expect([cancel.status, cancel.json.message]).toEqual([409, "changesClosed"]);
    const row = await lockMeeting(t.db, id);
    expect(row).toMatchObject({ date: "2026-11-24", time: "10:00", cancelledAt: null });
  });
});

describe("POST /api/admin/meetings/:id/outcome", () => {
  const mark = (id: number, outcome: unknown) =>
    call(adminMeetings, `/api/admin/meetings/${id}/outcome`, {
      body: { outcome },
      params: { id: String(id) },
      cookie,
      headers: { origin: ORIGIN },
    });

  test("marks a past meeting done or no-show; the dashboard counts them", async () => {
    const a = (await book("2026-11-24", "10:00")).json.data.id;
    const b = (await book("2026-11-24", "11:00")).json.data.id;
    const c = (await book("2026-11-24", "12:00")).json.data.id;
    process.env.BOOKING_NOW = "2026-11-24T11:00:00.000Z"; // 12:00 Amsterdam: c has just started.
    const done = await mark(a, "done");
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ id: a, outcome: "done" });
    expect((await mark(b, "no-show")).json.outcome).toBe("no-show");
    expect((await mark(c, "done")).status).toBe(200);
    const stats = await call(adminStats, "/api/admin/stats", { cookie });
    expect(stats.json).toMatchObject({ meetingsDone: 2, meetingsNoShow: 1 });
    // Cleared again.
    expect((await mark(c, null)).json.outcome).toBeNull();
    expect((await call(adminStats, "/api/admin/stats", { cookie })).json).toMatchObject({
      meetingsDone: 1,
      meetingsNoShow: 1,
    });
  });

  test("refuses a future meeting with 409, a cancelled one too, and bad input with 400", async () => {
    const id = (await book("2026-11-24", "10:00")).json.data.id;
    const early = await mark(id, "done");
    expect(early.status).toBe(409);
    expect((await mark(id, "maybe")).status).toBe(400);
    expect((await mark(999999, "done")).status).toBe(404);
    const anonymous = await call(adminMeetings, `/api/admin/meetings/${id}/outcome`, {
      body: { outcome: "done" },
      params: { id: String(id) },
      headers: { origin: ORIGIN },
    });
    expect(anonymous.status).toBe(401);
    const row = await t.db.selectFrom("meetings").select("outcome").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.outcome).toBeNull();
  });
});

describe("the slots answer for a visitor moving their meeting", () => {
  test("with the meeting's manage token, its own time and buffers do not hide the slots next to it", async () => {
    await putRules({ bufferBeforeMinutes: 30, bufferAfterMinutes: 30 });
    const booked = await book("2026-11-24", "10:00");
    const token = await tokenFor(booked.json.data.id);
    const publicSlots = await slots("2026-11-24");
    expect(publicSlots).not.toContain("10:30");
    const forMove = await call(meetings, "/api/meetings/available-slots?date=2026-11-24", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(forMove.json.data).toContain("09:30");
    expect(forMove.json.data).toContain("10:30");
    // And the move agrees.
    const moved = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-11-24", time: "10:30" },
      headers: bearer(token),
    });
    expect(moved.status, moved.text).toBe(200);
    // A token that does not verify changes nothing.
    const forged = await call(meetings, "/api/meetings/available-slots?date=2026-11-24", {
      headers: { authorization: "Bearer not.a.token" },
    });
    expect(forged.status).toBe(200);
    expect(forged.json.data).not.toContain("11:00");
  });
});
