/**
 * Where a meeting happens, as the admin set it when it was booked: the office's address, a phone
 * call, or a video room of its own. The visitor's confirmation, invite and reminder say it in their
 * language. Real handlers, PostgreSQL and a real SMTP server; the invites parsed with ical.js.
 */
import { bookingAsBefore } from "#db/testing.ts";
import ICAL from "ical.js";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import { TestMailServer, type ReceivedMessage } from "./mail-server.ts";
import meetings from "../meetings.ts";
import rulesApi from "../admin-booking-rules.ts";
import adminMeetings from "../admin-meetings.ts";
import manage from "../meeting-manage.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import { signManageToken } from "../_lib/booking/manage-token.ts";
import { deliverDue, enqueueDueReminders } from "../_lib/mail/outbox.ts";
import { mailTransport } from "../_lib/mail/transport.ts";
import { DUMMY_HASH } from "#db/admins.ts";
import { lockMeeting } from "#db/meetings.repository.ts";
import { createUser } from "#db/users.repository.ts";

const smtp = new TestMailServer();
let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let cookie: string;
const RULES = {
  noticeMinutes: 0,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  dailyLimit: null,
  changeCutoffMinutes: 0,
  videoPattern: "https://meet.jit.si/bridgewise-{random}",
};
const ROOM = /https:\/\/meet\.jit\.si\/bridgewise-([a-z2-9]{14})/;

beforeAll(async () => {
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  process.env.RATE_LIMIT = "off";
  await smtp.start();
  const admin = await createUser(t.db, "place-admin", DUMMY_HASH);
  cookie = `${SESSION_COOKIE}=${await signSession({ id: admin.id, sessionVersion: 1 })}`;
}, 60_000);
afterAll(async () => {
  await smtp.stop();
  await t?.destroy();
});
beforeEach(async () => {
  process.env.SMTP_URL = smtp.url;
  process.env.NOTIFY_EMAIL = "leads@bridgewise.test";
  // Monday 2026-11-23, 10:10 in Amsterdam.
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
  await t.db.deleteFrom("emailOutbox").execute();
  await t.db.deleteFrom("meetings").execute();
  smtp.messages.length = 0;
});

const place = async (meetingPlace: "office" | "phone" | "video") => {
  const res = await call(rulesApi, "/api/admin/booking-rules", {
    method: "PUT",
    body: { ...RULES, meetingPlace },
    cookie,
    headers: { origin: ORIGIN },
  });
  expect(res.status, res.text).toBe(200);
};
let seq = 0;
async function book(date: string, time: string, language: "en" | "nl" | "fa") {
  const email = `place${++seq}@example.com`;
  const before = smtp.messages.length;
  const res = await call(meetings, "/api/meetings/schedule", {
    body: { name: "Leila Ahmadi", phone: "+98 912 345 6789", email, date, time, language },
  });
  expect(res.status, res.text).toBe(201);
  await smtp.waitFor(before + 2);
  return { id: res.json.data.id as number, email, ack: smtp.to(email) };
}

/** The invite's VEVENT, parsed by ical.js. */
function invite(m: ReceivedMessage) {
  const file = m.parsed.attachments.find((a) => a.filename === "invite.ics");
  expect(file, `invite.ics in "${m.parsed.subject}"`).toBeDefined();
  const vevent = new ICAL.Component(ICAL.parse(file!.content.toString("utf8"))).getFirstSubcomponent("vevent")!;
  return {
    location: vevent.getFirstPropertyValue("location") as string | null,
    url: vevent.getFirstPropertyValue("url") as string | null,
    description: vevent.getFirstPropertyValue("description") as string,
    sequence: vevent.getFirstPropertyValue("sequence"),
  };
}

describe("a video meeting", () => {
  test("gets its own room from the pattern, in the email (a link), the invite's URL, LOCATION and description", async () => {
    await place("video");
    const a = await book("2026-11-24", "10:00", "fa");
    const b = await book("2026-11-24", "11:00", "en");
    const room = ROOM.exec(a.ack.parsed.text ?? "")?.[0];
    expect(room, a.ack.parsed.text).toBeTruthy();
    // Every meeting its own room.
    expect(ROOM.exec(b.ack.parsed.text ?? "")?.[0]).not.toBe(room);
    // Persian: the place in Persian, the link clickable in the HTML.
    expect(a.ack.parsed.text).toContain("تماس تصویری");
    expect(a.ack.parsed.html).toContain(`href="${room}"`);
    const ics = invite(a.ack);
    expect(ics.url).toBe(room);
    expect(ics.location).toBe(room);
    expect(ics.description).toContain(room);
    expect(ics.description).toContain("تماس تصویری");
    // Stored with the meeting, for the admin too.
    const list = await call(adminMeetings, "/api/admin/meetings", { cookie });
    expect(list.json.find((m: { id: number }) => m.id === a.id).location).toEqual({ kind: "video", detail: room });
    // The company's notification names it as well.
    const company = smtp.messages.find(
      (m) => m.envelope.to[0] === "leads@bridgewise.test" && m.parsed.text?.includes(room!),
    );
    expect(company).toBeDefined();
  });

  test("keeps its room when it moves, and the reminder carries it", async () => {
    await place("video");
    const a = await book("2026-11-24", "10:00", "nl");
    const room = ROOM.exec(a.ack.parsed.text ?? "")![0];
    expect(a.ack.parsed.text).toContain(`Videogesprek: ${room}`);
    const token = await signManageToken((await lockMeeting(t.db, a.id))!);
    const before = smtp.messages.length;
    const moved = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-11-25", time: "14:00" },
      headers: { authorization: `Bearer ${token}`, origin: ORIGIN },
    });
    expect(moved.status, moved.text).toBe(200);
    await smtp.waitFor(before + 2);
    const news = smtp.messages.slice(before).find((m) => m.envelope.to[0] === a.email)!;
    expect(news.parsed.text).toContain(room);
    expect(invite(news)).toMatchObject({ url: room, location: room, sequence: 1 });

    // Confirmed, then the reminder 23.5 hours before.
    await call(adminMeetings, `/api/admin/meetings/${a.id}`, {
      method: "PATCH",
      body: { isConfirmed: true },
      params: { id: String(a.id) },
      cookie,
      headers: { origin: ORIGIN },
    });
    process.env.BOOKING_NOW = "2026-11-24T13:30:00Z";
    expect(await enqueueDueReminders(t.db, new Date(process.env.BOOKING_NOW))).toBe(1);
    await deliverDue(t.db, mailTransport());
    const reminder = smtp.messages.find(
      (m) => m.envelope.to[0] === a.email && /Herinnering/.test(m.parsed.subject ?? ""),
    );
    expect(reminder, smtp.messages.map((m) => m.parsed.subject).join("\n")).toBeDefined();
    expect(reminder!.parsed.text).toContain(`Videogesprek: ${room}`);
  });
});

describe("at the office and by phone", () => {
  test("the office's address in the email and the invite's LOCATION, no URL", async () => {
    await place("office");
    const a = await book("2026-11-24", "10:00", "en");
    expect(a.ack.parsed.text).toContain("Where: At our office: Herengracht 420, 1017 BZ Amsterdam");
    expect(invite(a.ack)).toMatchObject({ location: "Herengracht 420, 1017 BZ Amsterdam", url: null });
  });

  test("a phone call: we call the number the visitor gave; the invite says a phone call, in their language", async () => {
    await place("phone");
    const a = await book("2026-11-24", "10:00", "nl");
    expect(a.ack.parsed.text).toContain("Telefonisch: we bellen je op +98 912 345 6789");
    const ics = invite(a.ack);
    expect(ics).toMatchObject({ location: "Telefoongesprek", url: null });
    expect(ics.description).toContain("+98 912 345 6789");
  });

  test("a meeting keeps the place it was booked with when the admin changes the setting", async () => {
    await place("phone");
    const a = await book("2026-11-24", "10:00", "en");
    await place("video");
    const list = await call(adminMeetings, "/api/admin/meetings", { cookie });
    expect(list.json.find((m: { id: number }) => m.id === a.id).location).toEqual({ kind: "phone", detail: null });
  });
});
