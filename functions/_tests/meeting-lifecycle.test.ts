/**
 * A meeting's life after booking: the admin cancels it, the visitor moves or cancels it from the
 * signed link in their emails, and a reminder goes out 24 hours before. Real
 * handlers, a real database and a real SMTP server; invites parsed with ical.js.
 */
import { SignJWT } from "jose";
import { beforeEach, describe, expect, test } from "vitest";
import { call, ORIGIN, apiTestbed, type ApiTestDatabase } from "./harness.ts";
import { invite, TestMailServer, type ReceivedMessage } from "./mail-server.ts";
import meetings from "../meetings.ts";
import manage from "../meeting-manage.ts";
import adminMeetings from "../admin-meetings.ts";
import outboxRetry from "../outbox-retry.ts";
import { signManageToken } from "../_lib/booking/manage-token.ts";
import { deliverDue, enqueueDueReminders } from "../_lib/mail/outbox.ts";
import { mailTransport } from "../_lib/mail/transport.ts";

const LEADS = "leads@bridgewise.test";
const smtp = new TestMailServer();
let t: ApiTestDatabase;
let cookie: string;

// Many bookings from one test address: the abuse limits have their own tests (abuse.test.ts).
apiTestbed(
  { bookingAsBefore: true, admin: "lifecycle-admin", smtp, rateLimitOff: true },
  (bed) => ({ t, cookie } = bed),
);
beforeEach(async () => {
  process.env.SMTP_URL = smtp.url;
  process.env.NOTIFY_EMAIL = LEADS;
  // Monday 2026-11-23, 10:10 in Amsterdam.
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
  await t.db.deleteFrom("emailOutbox").execute();
  await t.db.deleteFrom("meetings").execute();
  smtp.messages.length = 0;
});

const visitor = { name: "Leila Ahmadi", phone: "+98 912 345 6789" };
let seq = 0;
/** Books a slot through the API and waits for its two emails; answers the meeting and the visitor's acknowledgement. */
async function book(date: string, time: string, language: "en" | "nl" | "fa" = "en") {
  const email = `guest${++seq}@example.com`;
  const before = smtp.messages.length;
  const res = await call(meetings, "/api/meetings/schedule", { body: { ...visitor, email, date, time, language } });
  expect(res.status, res.text).toBe(201);
  await smtp.waitFor(before + 2);
  return { meeting: res.json.data as { id: number; email: string }, ack: smtp.to(email) };
}
const slots = async (date: string) =>
  (await call(meetings, `/api/meetings/available-slots?date=${date}`)).json.data as string[];
const adminCancel = (id: number | string, headers: Record<string, string> = { origin: ORIGIN }, withCookie = true) =>
  call(adminMeetings, `/api/admin/meetings/${id}/cancel`, {
    method: "POST",
    params: { id: String(id) },
    cookie: withCookie ? cookie : undefined,
    headers,
  });
const confirm = (id: number) =>
  call(adminMeetings, `/api/admin/meetings/${id}`, {
    method: "PATCH",
    body: { isConfirmed: true },
    params: { id: String(id) },
    cookie,
    headers: { origin: ORIGIN },
  });
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, origin: ORIGIN });
const manageGet = (token: string) => call(manage, "/api/meetings/manage", { headers: bearer(token) });
const manageMove = (token: string, date: string, time: string) =>
  call(manage, "/api/meetings/manage/move", { body: { date, time }, headers: bearer(token) });
const manageCancel = (token: string) =>
  call(manage, "/api/meetings/manage/cancel", { method: "POST", headers: bearer(token) });

/** The manage link's token in an email (text part): https://…/{lang}/meeting/#<token>. */
function linkToken(m: ReceivedMessage, lang = "en"): string {
  const match = new RegExp(`https://bridgewise\\.eu/${lang}/meeting/#([A-Za-z0-9_.-]+)`).exec(m.parsed.text ?? "");
  expect(match, `manage link in "${m.parsed.subject}"`).not.toBeNull();
  expect(m.parsed.html).toContain(`href="https://bridgewise.eu/${lang}/meeting/#${match![1]}"`);
  return match![1];
}

describe("POST /api/admin/meetings/{id}/cancel", () => {
  test("frees the slot at once and sends the visitor a METHOD:CANCEL invite in their language", async () => {
    const { meeting, ack } = await book("2026-11-24", "11:00", "nl");
    expect(await slots("2026-11-24")).not.toContain("11:00");
    const booked = invite(ack);

    const res = await adminCancel(meeting.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: meeting.id, cancelledBy: "admin", cancelledAt: expect.any(String) });
    expect(await slots("2026-11-24")).toContain("11:00");

    await smtp.waitFor(3);
    const notice = smtp.messages.at(-1)!;
    expect(notice.envelope.to).toEqual([meeting.email]);
    expect(notice.parsed.subject).toMatch(/^Je afspraak op .* is geannuleerd/);
    expect(notice.parsed.html).toContain('<html lang="nl" dir="ltr">');
    const cancelled = invite(notice);
    expect(cancelled).toMatchObject({ method: "CANCEL", uid: booked.uid, status: "CANCELLED", start: booked.start });
    expect(cancelled.sequence).toBeGreaterThan(booked.sequence);
    expect(notice.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=CANCEL/i);
  });

  test("the freed slot can be booked again, still by exactly one of many at once", async () => {
    const { meeting } = await book("2026-11-25", "09:00");
    expect((await adminCancel(meeting.id)).status).toBe(200);
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(meetings, "/api/meetings/schedule", {
          body: { ...visitor, email: `race${i}@example.com`, date: "2026-11-25", time: "09:00" },
        }),
      ),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([201, ...Array(7).fill(409)]);
  });

  test("needs a session (401), a same-origin request (403), a meeting (404), and one not already cancelled (409)", async () => {
    const { meeting } = await book("2026-11-26", "10:00");
    expect((await adminCancel(meeting.id, { origin: ORIGIN }, false)).status).toBe(401);
    expect((await adminCancel(meeting.id, { origin: "https://evil.example" })).status).toBe(403);
    expect((await adminCancel(999_999)).json).toMatchObject({ success: false, message: "Meeting not found" });
    expect((await adminCancel(999_999)).status).toBe(404);
    expect((await adminCancel("abc")).status).toBe(404);
    expect((await adminCancel(meeting.id)).status).toBe(200);
    const again = await adminCancel(meeting.id);
    expect(again.status).toBe(409);
    expect(again.json.message).toBe("The meeting is already cancelled");
    // A cancelled meeting cannot be confirmed either.
    expect((await confirm(meeting.id)).status).toBe(409);
  });

  test("a meeting that has taken place cannot be cancelled (409)", async () => {
    const { meeting } = await book("2026-11-23", "11:00");
    process.env.BOOKING_NOW = "2026-11-23T11:00:00Z"; // 12:00 in Amsterdam
    const res = await adminCancel(meeting.id);
    expect(res.status).toBe(409);
    expect(res.json.message).toBe("The meeting has already taken place");
  });
});

describe("with the abuse limits on", () => {
  test("a cancelled meeting no longer counts against its address's pending meetings", async () => {
    process.env.RATE_LIMIT = "on";
    try {
      const bookAs = (time: string, ip: string) =>
        call(meetings, "/api/meetings/schedule", {
          body: { ...visitor, email: "limits@example.com", date: "2026-12-02", time },
          ip,
        });
      const first = await bookAs("09:00", "198.51.100.1");
      expect(first.status, first.text).toBe(201);
      expect((await bookAs("09:30", "198.51.100.2")).status).toBe(201);
      expect((await bookAs("10:00", "198.51.100.3")).status).toBe(429);
      expect((await adminCancel(first.json.data.id)).status).toBe(200);
      expect((await bookAs("10:00", "198.51.100.4")).status).toBe(201);
    } finally {
      process.env.RATE_LIMIT = "off";
    }
  });
});

describe("the visitor's manage link", () => {
  test("the acknowledgement and the confirmation carry it, in the visitor's language; it reads only that meeting", async () => {
    const { meeting, ack } = await book("2026-11-24", "14:00", "fa");
    const token = linkToken(ack, "fa");
    expect((await confirm(meeting.id)).status).toBe(200);
    await smtp.waitFor(3);
    const confirmation = smtp.messages.at(-1)!;
    expect(linkToken(confirmation, "fa")).toBeTruthy();

    const res = await manageGet(token);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual({
      reference: `M-${String(meeting.id).padStart(5, "0")}`,
      date: "2026-11-24",
      time: "14:00",
      language: "fa",
      status: "confirmed",
      changeable: true,
      changeCutoffMinutes: 0,
    });
    // Nothing personal in the answer: a forwarded link shows no email or phone.
    expect(res.text).not.toContain("example.com");
  });

  test("a tampered token, another meeting's, a session token or none at all is refused", async () => {
    const a = await book("2026-11-24", "15:00");
    const b = await book("2026-11-24", "15:30");
    const token = linkToken(a.ack);
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: String(b.meeting.id) })).toString("base64url")}.${signature}`;
    for (const bad of [forged, `${token}x`, token.slice(0, -2), "not-a-token", cookie.split("=")[1]]) {
      const res = await manageGet(bad);
      expect(res.status, bad).toBe(403);
      expect(res.json.message).toBe("linkInvalid");
    }
    // Signed with the admin session key instead of the manage-link key.
    const sessionKeyed = await new SignJWT({ v: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(a.meeting.id))
      .setAudience("meeting-manage")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(process.env.JWT_SECRET));
    expect((await manageGet(sessionKeyed)).status).toBe(403);
    expect((await call(manage, "/api/meetings/manage")).status).toBe(403);
    // B's own link works for B only: its answer is B's meeting.
    expect((await manageGet(linkToken(b.ack))).json.data.time).toBe("15:30");
    expect((await manageCancel(forged)).status).toBe(403);
    expect((await manageMove(forged, "2026-11-25", "10:00")).status).toBe(403);
  });

  test("expires when the meeting starts", async () => {
    const { ack } = await book("2026-11-24", "11:00");
    const token = linkToken(ack);
    process.env.BOOKING_NOW = "2026-11-24T09:59:00Z"; // 10:59 in Amsterdam
    expect((await manageGet(token)).status).toBe(200);
    process.env.BOOKING_NOW = "2026-11-24T10:00:00Z";
    const res = await manageGet(token);
    expect(res.status).toBe(410);
    expect(res.json.message).toBe("linkExpired");
  });

  test("moving keeps the UID, raises the SEQUENCE, frees the old slot, tells the company and retires the old link", async () => {
    const { meeting, ack } = await book("2026-11-24", "10:00", "en");
    const token = linkToken(ack);
    const before = invite(ack);
    const moved = await manageMove(token, "2026-11-26", "13:30");
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.data).toMatchObject({ date: "2026-11-26", time: "13:30", status: "pending" });
    expect(await slots("2026-11-24")).toContain("10:00");
    expect(await slots("2026-11-26")).not.toContain("13:30");

    await smtp.waitFor(4);
    const toVisitor = smtp.messages.filter((m) => m.envelope.to[0] === meeting.email).at(-1)!;
    expect(toVisitor.parsed.subject).toMatch(/moved/);
    const after = invite(toVisitor);
    expect(after).toMatchObject({ method: "REQUEST", uid: before.uid, status: "TENTATIVE" });
    expect(after.sequence).toBeGreaterThan(before.sequence);
    expect(after.start).toBe("2026-11-26T12:30:00.000Z");
    const company = smtp.messages.filter((m) => m.envelope.to[0] === LEADS).at(-1)!;
    expect(company.parsed.subject).toBe(
      `Meeting M-${String(meeting.id).padStart(5, "0")} moved by the visitor: Thu, 26 Nov 2026, 13:30 (was Tue, 24 Nov 2026, 10:00)`,
    );
    expect(company.parsed.text).toContain("Leila Ahmadi");

    // The old link is retired; the new one (in the answer and the email) works.
    expect((await manageGet(token)).json.message).toBe("linkReplaced");
    expect((await manageGet(moved.json.data.token)).status).toBe(200);
    expect((await manageGet(linkToken(toVisitor))).json.data.time).toBe("13:30");
  });

  test("moving to a taken, closed or same slot is refused and changes nothing", async () => {
    await book("2026-11-27", "09:00");
    const { ack } = await book("2026-11-27", "09:30");
    const token = linkToken(ack);
    const taken = await manageMove(token, "2026-11-27", "09:00");
    expect(taken.status).toBe(409);
    expect(taken.json.message).toBe("timeSlotOccupied");
    expect((await manageMove(token, "2026-11-28", "10:00")).status).toBe(400); // a Saturday
    expect((await manageMove(token, "2026-11-27", "09:30")).status).toBe(400);
    expect((await manageGet(token)).json.data).toMatchObject({ date: "2026-11-27", time: "09:30" });
  });

  test("two visitors moving into one free slot at once: exactly one gets it", async () => {
    const tokens = [];
    for (const time of ["11:00", "11:30", "12:00", "12:30"])
      tokens.push(linkToken((await book("2026-11-30", time)).ack));
    const results = await Promise.all(tokens.map((token) => manageMove(token, "2026-11-30", "15:00")));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });

  test("cancelling frees the slot, sends the CANCEL invite, tells the company; the link then only shows it cancelled", async () => {
    const { meeting, ack } = await book("2026-11-24", "16:00", "nl");
    const token = linkToken(ack, "nl");
    const res = await manageCancel(token);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.status).toBe("cancelled");
    expect(await slots("2026-11-24")).toContain("16:00");
    await smtp.waitFor(4);
    const toVisitor = smtp.messages.filter((m) => m.envelope.to[0] === meeting.email).at(-1)!;
    expect(invite(toVisitor)).toMatchObject({ method: "CANCEL", uid: invite(ack).uid, status: "CANCELLED" });
    expect(smtp.messages.filter((m) => m.envelope.to[0] === LEADS).at(-1)!.parsed.subject).toContain("cancelled");
    expect((await manageGet(token)).json.data.status).toBe("cancelled");
    const again = await manageCancel(token);
    expect(again.status).toBe(409);
    expect(again.json.message).toBe("meetingCancelled");
    expect((await manageMove(token, "2026-11-25", "10:00")).json.message).toBe("meetingCancelled");
  });

  test("a token made for one meeting never reaches another, whatever its claims", async () => {
    const a = await book("2026-12-01", "10:00");
    const b = await book("2026-12-01", "10:30");
    const tokenA = await signManageToken({ id: a.meeting.id, manageVersion: 0, date: "2026-12-01", time: "10:00" });
    expect((await manageCancel(tokenA)).status).toBe(200);
    expect((await manageGet(linkToken(b.ack))).json.data.status).toBe("pending");
  });
});

describe("the 24-hour reminder", () => {
  test("goes out once for a confirmed meeting, even with several runs at the same time", async () => {
    const { meeting } = await book("2026-11-24", "11:00", "fa");
    const other = await book("2026-11-24", "11:30"); // pending: no reminder
    expect((await confirm(meeting.id)).status).toBe(200);
    await smtp.waitFor(5);
    expect(other.meeting.id).not.toBe(meeting.id);

    // 24 h 50 min before: not yet.
    expect(await enqueueDueReminders(t.db, new Date("2026-11-23T09:10:00Z"))).toBe(0);
    // 23.5 hours before: five runs at once queue it once.
    process.env.BOOKING_NOW = "2026-11-23T10:30:00Z";
    const queued = await Promise.all(
      Array.from({ length: 5 }, () => enqueueDueReminders(t.db, new Date(process.env.BOOKING_NOW!))),
    );
    expect(queued.reduce((a, b) => a + b, 0)).toBe(1);
    await Promise.all([outboxRetry(), outboxRetry(), outboxRetry()]);
    await deliverDue(t.db, mailTransport());
    const reminders = smtp.messages.filter(
      (m) => m.envelope.to[0] === meeting.email && /یادآوری/.test(m.parsed.subject ?? ""),
    );
    expect(reminders).toHaveLength(1);
    expect(reminders[0].parsed.html).toContain('dir="rtl"');
    expect(linkToken(reminders[0], "fa")).toBeTruthy();
    const rows = await t.db.selectFrom("emailOutbox").select("status").where("kind", "=", "meeting.reminder").execute();
    expect(rows).toEqual([{ status: "sent" }]);
    // Later runs find nothing more to send.
    expect(await enqueueDueReminders(t.db, new Date("2026-11-24T08:00:00Z"))).toBe(0);
  });

  test("a meeting confirmed less than 24 hours ahead gets no reminder on top of its confirmation", async () => {
    const { meeting } = await book("2026-11-23", "15:00"); // in five hours
    expect((await confirm(meeting.id)).status).toBe(200);
    expect(await enqueueDueReminders(t.db, new Date(process.env.BOOKING_NOW!))).toBe(0);
  });

  test("a cancelled meeting gets none, and a moved one gets one for its new time", async () => {
    const a = await book("2026-11-24", "13:00");
    const b = await book("2026-11-24", "13:30");
    expect((await confirm(a.meeting.id)).status).toBe(200);
    expect((await confirm(b.meeting.id)).status).toBe(200);
    expect((await adminCancel(a.meeting.id)).status).toBe(200);
    expect((await manageMove(linkToken(b.ack), "2026-11-25", "09:00")).status).toBe(200);
    expect(await enqueueDueReminders(t.db, new Date("2026-11-23T13:00:00Z"))).toBe(0);
    expect(await enqueueDueReminders(t.db, new Date("2026-11-24T08:30:00Z"))).toBe(1);
    const [row] = await t.db.selectFrom("emailOutbox").selectAll().where("kind", "=", "meeting.reminder").execute();
    expect(row.meetingId).toBe(b.meeting.id);
  });
});
