/**
 * Meetings out: GET /api/meetings-feed/{token}, the feed the team's calendar app subscribes to,
 * parsed with ical.js and checked event by event; the admin makes and revokes its address.
 */
import { bookingAsBefore } from "#db/testing.ts";
import ICAL from "ical.js";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import meetings from "../meetings.ts";
import manage from "../meeting-manage.ts";
import adminMeetings from "../admin-meetings.ts";
import availability from "../admin-availability.ts";
import feed from "../meetings-feed.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import { signManageToken, verifyManageToken } from "../_lib/booking/manage-token.ts";
import { DUMMY_HASH } from "#db/admins.ts";
import { createUser } from "#db/users.repository.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let cookie = "";

beforeAll(async () => {
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  process.env.RATE_LIMIT = "off";
  const admin = await createUser(t.db, "feed-admin", DUMMY_HASH);
  cookie = `${SESSION_COOKIE}=${await signSession({ id: admin.id, sessionVersion: 1 })}`;
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});
beforeEach(async () => {
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
  await t.db.deleteFrom("meetings").execute();
  await t.db.deleteFrom("meetingsFeed").execute();
});

const feedAddress = (method = "GET") =>
  call(availability, "/api/admin/availability/meetings-feed", { method, cookie, headers: { origin: ORIGIN } });
const fetchFeed = (token: string) => call(feed, `/api/meetings-feed/${token}`, { params: { token } });
const tokenOf = (url: string) => url.split("/").at(-1)!;
const book = async (name: string, email: string, date: string, time: string, language: string) => {
  const res = await call(meetings, "/api/meetings/schedule", {
    body: { name, email, phone: "+31 20 123 4567", date, time, language },
  });
  expect(res.status).toBe(201);
  return res.json.data as { id: number };
};

/** The feed's events by UID, each with what a calendar app reads of it. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  return new Map(
    calendar.getAllSubcomponents("vevent").map((vevent) => {
      const event = new ICAL.Event(vevent);
      return [
        event.uid,
        {
          sequence: event.sequence,
          start: event.startDate.toJSDate().toISOString(),
          end: event.endDate.toJSDate().toISOString(),
          summary: event.summary,
          description: event.description,
          status: vevent.getFirstPropertyValue("status"),
          url: vevent.getFirstPropertyValue("url") as string | null,
        },
      ];
    }),
  );
}

describe("GET /api/meetings-feed/{token}", () => {
  test("lists every meeting with the visitor's name, contact, language and the admin's link; cancelled ones CANCELLED; a move keeps the UID", async () => {
    const made = await feedAddress("POST");
    expect(made.status).toBe(200);
    const url = made.json.data.url as string;
    expect(url).toMatch(/^https:\/\/bridgewise\.eu\/api\/meetings-feed\/[A-Za-z0-9_-]{43}$/);

    const ada = await book("Ada Lovelace", "ada@example.com", "2026-11-24", "10:00", "en");
    const dariush = await book("داریوش کریمی", "dariush@example.com", "2026-11-25", "14:30", "fa");
    const grace = await book("Grace Hopper", "grace@example.com", "2026-11-26", "09:00", "nl");
    // Dariush moves his meeting through his manage link; the office cancels Grace's.
    const dariushToken = await signManageToken({ id: dariush.id, manageVersion: 0, date: "2026-11-25", time: "14:30" });
    const moved = await call(manage, "/api/meetings/manage/move", {
      body: { date: "2026-11-27", time: "11:00" },
      headers: { authorization: `Bearer ${dariushToken}`, origin: ORIGIN },
    });
    expect(moved.status).toBe(200);
    const cancelled = await call(adminMeetings, `/api/admin/meetings/${grace.id}/cancel`, {
      method: "POST",
      params: { id: String(grace.id) },
      cookie,
      headers: { origin: ORIGIN },
    });
    expect(cancelled.status).toBe(200);

    const res = await fetchFeed(tokenOf(url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const events = parse(res.text);
    expect([...events.keys()].sort()).toEqual(
      [ada.id, dariush.id, grace.id].map((id) => `meeting-${id}@bridgewise.eu`).sort(),
    );

    const a = events.get(`meeting-${ada.id}@bridgewise.eu`)!;
    expect(a).toMatchObject({
      sequence: 0,
      start: "2026-11-24T09:00:00.000Z",
      end: "2026-11-24T09:30:00.000Z",
      summary: "Ada Lovelace: consultation (EN)",
      status: "TENTATIVE",
    });
    for (const line of [
      "Name: Ada Lovelace",
      "Email: ada@example.com",
      "Phone: +31 20 123 4567",
      "Language: English (en)",
    ])
      expect(a.description).toContain(line);
    expect(a.url).toBe("https://bridgewise.eu/admin/meetings?q=ada%40example.com&from=2026-11-24&to=2026-11-24");
    expect(a.description).toContain(`In the admin: ${a.url}`);

    // Moved: the same UID, the next SEQUENCE, the new time (Amsterdam, UTC+1).
    const d = events.get(`meeting-${dariush.id}@bridgewise.eu`)!;
    expect(d).toMatchObject({
      sequence: 1,
      start: "2026-11-27T10:00:00.000Z",
      summary: "داریوش کریمی: consultation (FA)",
      status: "TENTATIVE",
    });
    expect(d.description).toContain("Language: Persian (fa)");
    expect(d.url).toContain("from=2026-11-27&to=2026-11-27");

    const g = events.get(`meeting-${grace.id}@bridgewise.eu`)!;
    expect(g).toMatchObject({ status: "CANCELLED", start: "2026-11-26T08:00:00.000Z" });
    expect(g.sequence).toBeGreaterThan(0);
    expect(g.description).toContain("Cancelled by the admin.");
    expect(g.description).not.toContain("meeting/#");
  });

  test("a confirmed meeting is CONFIRMED; an anonymised one is left out", async () => {
    const made = await feedAddress("POST");
    const ada = await book("Ada Lovelace", "ada@example.com", "2026-11-24", "10:00", "en");
    const bob = await book("Bob Brown", "bob@example.com", "2026-11-24", "11:00", "en");
    await call(adminMeetings, `/api/admin/meetings/${ada.id}`, {
      method: "PATCH",
      body: { isConfirmed: true },
      params: { id: String(ada.id) },
      cookie,
      headers: { origin: ORIGIN },
    });
    await t.db.updateTable("meetings").set({ anonymisedAt: new Date() }).where("id", "=", bob.id).execute();
    const events = parse((await fetchFeed(tokenOf(made.json.data.url))).text);
    expect([...events.keys()]).toEqual([`meeting-${ada.id}@bridgewise.eu`]);
    expect(events.get(`meeting-${ada.id}@bridgewise.eu`)).toMatchObject({ status: "CONFIRMED", sequence: 1 });
  });

  // Issue 29: the feed carried each upcoming meeting's working manage link, so whoever held the
  // subscription address could move or cancel clients' meetings (GET /api/meetings/manage: 200,
  // changeable: true). Every token-like string of the feed is tried as a manage token.
  test("no token in the feed works on GET /api/meetings/manage", async () => {
    const made = await feedAddress("POST");
    await book("Ada Lovelace", "ada@example.com", "2026-11-24", "10:00", "en");
    await book("داریوش کریمی", "dariush@example.com", "2026-11-25", "14:30", "fa");
    const text = (await fetchFeed(tokenOf(made.json.data.url))).text.replace(/\r\n[ \t]/g, "");
    const candidates = new Set(text.match(/[A-Za-z0-9_.~%-]{20,}/g) ?? []);
    expect(candidates.size).toBeGreaterThan(0);
    expect(text).not.toContain("/meeting/#");
    for (const token of candidates) {
      expect(await verifyManageToken(token).catch(() => null)).toBeNull();
      const res = await call(manage, "/api/meetings/manage", {
        method: "GET",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status, token).not.toBe(200);
    }
  });

  test("answers 404 before an address is made, for a wrong token, and for the old token after a new one", async () => {
    expect((await feedAddress()).json.data).toEqual({ url: null });
    expect((await fetchFeed("A".repeat(43))).status).toBe(404);
    const first = tokenOf((await feedAddress("POST")).json.data.url);
    expect((await feedAddress()).json.data.url).toBe(`https://bridgewise.eu/api/meetings-feed/${first}`);
    expect((await fetchFeed(first)).status).toBe(200);
    expect((await fetchFeed(first.slice(0, -1) + (first.endsWith("A") ? "B" : "A"))).status).toBe(404);
    const second = tokenOf((await feedAddress("POST")).json.data.url);
    expect(second).not.toBe(first);
    expect((await fetchFeed(first)).status).toBe(404);
    expect((await fetchFeed(second)).status).toBe(200);
    expect((await fetchFeed(`${second}.ics`)).status).toBe(200);
  });

  test("the token is sealed in the database, not stored as it is", async () => {
    const token = tokenOf((await feedAddress("POST")).json.data.url);
    const row = await t.db.selectFrom("meetingsFeed").select("token").executeTakeFirstOrThrow();
    expect(row.token).toMatch(/^sealed:v1:/);
    expect(row.token).not.toContain(token);
  });

  test("making or reading the address needs an admin session and the site's origin", async () => {
    expect((await call(availability, "/api/admin/availability/meetings-feed")).status).toBe(401);
    const foreign = await call(availability, "/api/admin/availability/meetings-feed", {
      method: "POST",
      cookie,
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
  });
});
