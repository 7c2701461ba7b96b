/**
 * Connected calendars against real HTTP servers on loopback (CALENDAR_FETCH_ALLOW=loopback): a feed
 * with a busy event, one slow, one broken, one huge. The slots answer and a booking leave the busy
 * times out; a failing feed keeps its last good copy and says since when it fails.
 */
import { bookingAsBefore } from "#db/testing.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import meetings from "../meetings.ts";
import availability from "../admin-availability.ts";
import alerts from "../admin-alerts.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import { DUMMY_HASH } from "#db/admins.ts";
import { createUser } from "#db/users.repository.ts";
import { refreshCalendars } from "../_lib/calendars/refresh.ts";
import { fetchFeed, isFetchableAddress } from "../_lib/calendars/fetch.ts";
import { addFeed, listFeeds } from "#db/busy-calendars.repository.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let server: http.Server;
let base: string;
let goodBody = "";
let cookie = "";
const ics = (...events: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", ...events, "END:VCALENDAR"].join("\r\n");
// Tuesday 24 November 2026, 11:00–12:00 Amsterdam (CET, UTC+1).
const BUSY = [
  "BEGIN:VEVENT",
  "UID:busy@test",
  "DTSTAMP:20261101T000000Z",
  "DTSTART:20261124T100000Z",
  "DTEND:20261124T110000Z",
  "END:VEVENT",
].join("\r\n");

beforeAll(async () => {
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  process.env.RATE_LIMIT = "off";
  process.env.CALENDAR_FETCH_ALLOW = "loopback";
  const admin = await createUser(t.db, "calendar-admin", DUMMY_HASH);
  cookie = `${SESSION_COOKIE}=${await signSession({ id: admin.id, sessionVersion: 1 })}`;
  server = http.createServer((req, res) => {
    if (req.url === "/good.ics") return res.end(goodBody);
    if (req.url === "/broken.ics") return res.end("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nthis is not");
    if (req.url === "/huge.ics") {
      res.write("BEGIN:VCALENDAR\r\n");
      const line = `X-PAD:${"x".repeat(1000)}\r\n`;
      for (let i = 0; i < 200; i++) res.write(line);
      return res.end("END:VCALENDAR\r\n");
    }
    if (req.url === "/slow.ics") return void setTimeout(() => res.end(ics()), 3_000).unref();
    if (req.url === "/private.ics") {
      if (req.headers.authorization !== `Basic ${Buffer.from("team:s3cret").toString("base64")}`) {
        res.statusCode = 401;
        return res.end();
      }
      return res.end(goodBody);
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  delete process.env.CALENDAR_FETCH_ALLOW;
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.destroy();
});
beforeEach(async () => {
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
  goodBody = ics(BUSY);
  await t.db.deleteFrom("meetings").execute();
  await t.db.deleteFrom("busyCalendars").execute();
});

const slots = async (date: string) =>
  (await call(meetings, `/api/meetings/available-slots?date=${date}`)).json.data as string[];
const book = (date: string, time: string) =>
  call(meetings, "/api/meetings/schedule", {
    body: { name: "Ada Lovelace", email: "ada@example.com", phone: "+31 20 123 4567", date, time },
  });

describe("GET /api/meetings/available-slots with a connected calendar", () => {
  test("leaves out the slots a busy event overlaps, and only those", async () => {
    expect(await slots("2026-11-24")).toContain("11:00");
    await addFeed(t.db, { name: "Work", url: `${base}/good.ics` });
    expect(await refreshCalendars(t.db, new Date("2026-11-23T09:10:00Z"))).toEqual([
      expect.objectContaining({ ok: true, intervals: 1 }),
    ]);
    const day = await slots("2026-11-24");
    expect(day).toContain("10:30");
    expect(day).not.toContain("11:00");
    expect(day).not.toContain("11:30");
    expect(day).toContain("12:00");
  });

  test("a booking of a busy slot answers 400; the slot next to it books", async () => {
    await addFeed(t.db, { name: "Work", url: `${base}/good.ics` });
    await refreshCalendars(t.db, new Date("2026-11-23T09:10:00Z"));
    expect((await book("2026-11-24", "11:30")).status).toBe(400);
    expect((await book("2026-11-24", "12:00")).status).toBe(201);
  });

  test("basic-auth credentials are sent, and never listed back", async () => {
    await addFeed(t.db, { name: "Private", url: `${base}/private.ics`, username: "team", password: "s3cret" });
    expect((await refreshCalendars(t.db, new Date("2026-11-23T09:10:00Z")))[0].ok).toBe(true);
    const [feed] = await listFeeds(t.db);
    expect(feed).toMatchObject({ hasCredentials: true, address: "http://127.0.0.1:" + new URL(base).port + "/…" });
    expect(JSON.stringify(feed)).not.toContain("s3cret");
    expect(JSON.stringify(feed)).not.toContain("private.ics");
  });

  test("the address and the credentials are sealed in the database (AES-256-GCM), not stored as typed", async () => {
    await addFeed(t.db, { name: "Private", url: `${base}/private.ics`, username: "team", password: "s3cret" });
    const row = await t.db
      .selectFrom("busyCalendars")
      .select(["url", "username", "password"])
      .executeTakeFirstOrThrow();
    for (const value of Object.values(row)) expect(value).toMatch(/^sealed:v1:[A-Za-z0-9+/=]+$/);
    expect(JSON.stringify(row)).not.toMatch(/s3cret|team|private\.ics|127\.0\.0\.1/);
    // Sealing uses a fresh nonce: the same password twice gives two different texts.
    await addFeed(t.db, { name: "Again", url: `${base}/good.ics`, password: "s3cret" });
    const passwords = await t.db.selectFrom("busyCalendars").select("password").execute();
    expect(new Set(passwords.map((p) => p.password)).size).toBe(2);
  });

  test("a row stored before sealing is still fetched, and sealed on its next refresh", async () => {
    await t.db
      .insertInto("busyCalendars")
      .values({ name: "Old", url: `${base}/private.ics`, username: "team", password: "s3cret" })
      .execute();
    expect((await refreshCalendars(t.db, new Date("2026-11-23T09:10:00Z")))[0]).toMatchObject({ ok: true });
    const row = await t.db.selectFrom("busyCalendars").select(["url", "password"]).executeTakeFirstOrThrow();
    expect(row.url).toMatch(/^sealed:v1:/);
    expect(row.password).toMatch(/^sealed:v1:/);
  });

  test("a feed sealed under another JWT_SECRET fails with a reason the admin can act on", async () => {
    await addFeed(t.db, { name: "Work", url: `${base}/good.ics` });
    const secret = process.env.JWT_SECRET;
    process.env.JWT_SECRET = "another-secret-another-secret-another-secret";
    try {
      expect((await refreshCalendars(t.db, new Date("2026-11-23T09:10:00Z")))[0]).toMatchObject({
        ok: false,
        error: "the stored address cannot be read (JWT_SECRET changed): remove the feed and add it again",
      });
      expect((await listFeeds(t.db))[0].address).toBe("…");
    } finally {
      process.env.JWT_SECRET = secret;
    }
  });
});

describe("a failing feed", () => {
  test("keeps its last good busy times and says since when and why it fails", async () => {
    const id = await addFeed(t.db, { name: "Work", url: `${base}/good.ics` });
    await refreshCalendars(t.db, new Date("2026-11-23T09:10:00Z"));
    goodBody = "not a calendar";
    await refreshCalendars(t.db, new Date("2026-11-23T10:00:00Z"));
    await refreshCalendars(t.db, new Date("2026-11-23T11:00:00Z"));
    const [feed] = await listFeeds(t.db);
    expect(feed).toMatchObject({ id, lastError: "not a readable iCalendar file" });
    expect(feed.failingSince?.toISOString()).toBe("2026-11-23T10:00:00.000Z");
    expect(feed.lastOkAt?.toISOString()).toBe("2026-11-23T09:10:00.000Z");
    expect(await slots("2026-11-24")).not.toContain("11:00");
  });

  test(`after CALENDAR_STALE_HOURS (24) of failing, the feed blocks every slot; one millisecond earlier its copy still stands in`, async () => {
    await addFeed(t.db, { name: "Work", url: `${base}/good.ics` });
    await refreshCalendars(t.db, new Date("2026-11-23T08:00:00Z"));
    goodBody = "not a calendar";
    await refreshCalendars(t.db, new Date("2026-11-23T09:00:00Z"));
    process.env.BOOKING_NOW = "2026-11-24T08:59:59.999Z";
    const before = await slots("2026-11-25");
    expect(before).toContain("11:00");
    expect(before).toHaveLength(16);
    process.env.BOOKING_NOW = "2026-11-24T09:00:00.000Z";
    expect(await slots("2026-11-25")).toEqual([]);
    expect((await book("2026-11-25", "14:00")).status).toBe(400);
    // The feed works again: its new copy decides, the day opens.
    goodBody = ics(BUSY);
    await refreshCalendars(t.db, new Date("2026-11-24T09:05:00Z"));
    expect(await slots("2026-11-25")).toHaveLength(16);
  });

  test("CALENDAR_STALE_HOURS sets how long the copy stands in", async () => {
    process.env.CALENDAR_STALE_HOURS = "2";
    try {
      await addFeed(t.db, { name: "Work", url: `${base}/broken.ics` });
      await refreshCalendars(t.db, new Date("2026-11-23T09:00:00Z"));
      process.env.BOOKING_NOW = "2026-11-23T10:59:00Z";
      expect(await slots("2026-11-25")).toHaveLength(16);
      process.env.BOOKING_NOW = "2026-11-23T11:00:00Z";
      expect(await slots("2026-11-25")).toEqual([]);
    } finally {
      delete process.env.CALENDAR_STALE_HOURS;
    }
  });

  test("GET /api/admin/alerts names each failing feed, since when, and whether it now blocks every slot", async () => {
    await addFeed(t.db, { name: "Sara's work", url: `${base}/good.ics` });
    await addFeed(t.db, { name: "Broken one", url: `${base}/broken.ics` });
    await refreshCalendars(t.db, new Date("2026-11-22T09:00:00Z"));
    expect((await call(alerts, "/api/admin/alerts", { cookie })).json.data.calendars).toEqual([
      {
        name: "Broken one",
        failingSince: "2026-11-22T09:00:00.000Z",
        stale: true,
        reason: "not a readable iCalendar file",
      },
    ]);
    goodBody = "not a calendar";
    await refreshCalendars(t.db, new Date("2026-11-23T09:00:00Z"));
    expect((await call(alerts, "/api/admin/alerts", { cookie })).json.data.calendars).toEqual([
      {
        name: "Broken one",
        failingSince: "2026-11-22T09:00:00.000Z",
        stale: true,
        reason: "not a readable iCalendar file",
      },
      {
        name: "Sara's work",
        failingSince: "2026-11-23T09:00:00.000Z",
        stale: false,
        reason: "not a readable iCalendar file",
      },
    ]);
    goodBody = ics(BUSY);
    await refreshCalendars(t.db, new Date("2026-11-23T09:05:00Z"));
    expect((await call(alerts, "/api/admin/alerts", { cookie })).json.data.calendars).toHaveLength(1);
  });

  test("broken, huge and slow feeds fail with their reason", async () => {
    await addFeed(t.db, { name: "Broken", url: `${base}/broken.ics` });
    await addFeed(t.db, { name: "Huge", url: `${base}/huge.ics` });
    await addFeed(t.db, { name: "Slow", url: `${base}/slow.ics` });
    const results = await refreshCalendars(t.db, new Date("2026-11-23T09:10:00Z"), undefined, {
      maxBytes: 100_000,
      timeoutMs: 500,
    });
    expect(results.map((r) => r.error)).toEqual([
      "not a readable iCalendar file",
      "larger than 98 KB",
      "no complete answer within 0.5 s",
    ]);
  });
});

describe("fetching is limited to public http(s) addresses", () => {
  test.each([
    ["file:///etc/passwd", "only http and https addresses"],
    ["ftp://example.com/a.ics", "only http and https addresses"],
    ["http://10.0.0.1/a.ics", "the address is in a private or local network"],
    ["http://169.254.169.254/latest/meta-data", "the address is in a private or local network"],
    ["http://[::1]/good.ics", "the address is in a private or local network"],
    ["http://localhost/good.ics", "the address is in a private or local network"],
    ["http://[::ffff:127.0.0.1]/good.ics", "the address is in a private or local network"],
    // Issue 29: every IPv6 form that carries an IPv4 address (these passed the check before).
    ["http://[::127.0.0.1]/good.ics", "the address is in a private or local network"], // IPv4-compatible
    ["http://[::ffff:7f00:1]/good.ics", "the address is in a private or local network"], // mapped, in hex
    ["http://[::ffff:10.0.0.1]/good.ics", "the address is in a private or local network"],
    ["http://[::ffff:0:127.0.0.1]/good.ics", "the address is in a private or local network"], // IPv4-translated
    ["http://[2002:7f00:1::]/good.ics", "the address is in a private or local network"], // 6to4 of 127.0.0.1
    ["http://[2002:c0a8:101::1]/good.ics", "the address is in a private or local network"], // 6to4 of 192.168.1.1
    ["http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/good.ics", "the address is in a private or local network"], // Teredo, 127.0.0.1 obfuscated
    ["http://[64:ff9b::127.0.0.1]/good.ics", "the address is in a private or local network"], // NAT64
    ["http://[64:ff9b:1::a00:1]/good.ics", "the address is in a private or local network"], // local-use NAT64
  ])("refuses %s", async (url, reason) => {
    await expect(fetchFeed({ url, allowLoopback: false })).rejects.toThrow(reason);
  });
  test("the address check: public yes; private, loopback and link-local no", () => {
    expect(isFetchableAddress("93.184.216.34", false)).toBe(true);
    expect(isFetchableAddress("2606:4700::1111", false)).toBe(true);
    for (const a of ["127.0.0.1", "192.168.1.5", "172.20.0.1", "100.64.0.1", "fe80::1", "fd00::1", "0.0.0.0"])
      expect(isFetchableAddress(a, false)).toBe(false);
    expect(isFetchableAddress("127.0.0.1", true)).toBe(true);
    expect(isFetchableAddress("10.0.0.1", true)).toBe(false);
    // A public IPv4 address in its mapped IPv6 form is still public.
    expect(isFetchableAddress("::ffff:808:808", false)).toBe(true);
    expect(isFetchableAddress("not an address", false)).toBe(false);
  });
});

describe("/api/admin/availability/calendars", () => {
  const admin = (path: string, method = "GET", body?: unknown) =>
    call(availability, `/api/admin/availability/calendars${path}`, {
      method,
      body,
      cookie,
      headers: { origin: ORIGIN },
    });

  test("an admin adds a feed (fetched at once), lists it without its password, refreshes and removes it", async () => {
    const added = await admin("", "POST", {
      name: "Team",
      url: `${base}/private.ics`,
      username: "team",
      password: "s3cret",
    });
    expect(added.status).toBe(201);
    expect(added.json.data).toMatchObject({ ok: true, events: 1, intervals: 1 });
    expect(await slots("2026-11-24")).not.toContain("11:00");
    const listed = await admin("");
    expect(listed.json.data).toEqual({
      feeds: [expect.objectContaining({ name: "Team", hasCredentials: true, failingSince: null, stale: false })],
      staleAfterHours: 24,
    });
    expect(JSON.stringify(listed.json)).not.toContain("private.ics");
    expect(JSON.stringify(listed.json)).not.toContain("s3cret");
    const id = added.json.data.id as number;
    expect((await admin(`/${id}/refresh`, "POST")).json.data).toMatchObject({ ok: true });
    expect((await admin("", "POST", { name: "Again", url: `${base}/private.ics` })).status).toBe(409);
    expect((await admin(`/${id}`, "DELETE")).status).toBe(200);
    expect(await slots("2026-11-24")).toContain("11:00");
    expect((await admin(`/${id}`, "DELETE")).status).toBe(404);
  });

  test("a wrong password is reported as refused, and the feed is listed as failing", async () => {
    const added = await admin("", "POST", {
      name: "Team",
      url: `${base}/private.ics`,
      username: "team",
      password: "wrong",
    });
    expect(added.json.data).toMatchObject({ ok: false, error: "refused (HTTP 401): check the credentials" });
    expect((await admin("")).json.data.feeds[0].failingSince).not.toBeNull();
  });

  test("the test button fetches an address and says what it found, storing nothing", async () => {
    goodBody = ics(BUSY, BUSY.replace("busy@test", "other@test").replace(/20261124/g, "20261125"));
    expect((await admin("/test", "POST", { name: "T", url: `${base}/good.ics` })).json.data).toEqual({
      ok: true,
      events: 2,
      intervals: 2,
    });
    expect((await admin("/test", "POST", { name: "T", url: `${base}/broken.ics` })).json.data).toEqual({
      ok: false,
      error: "not a readable iCalendar file",
    });
    expect((await admin("/test", "POST", { name: "T", url: `${base}/missing.ics` })).json.data).toEqual({
      ok: false,
      error: "HTTP 404",
    });
    expect(await listFeeds(t.db)).toEqual([]);
    expect(await slots("2026-11-24")).toContain("11:00");
  });

  test("a webcal:// address (Apple's) is fetched over https", async () => {
    const added = await admin("/test", "POST", { name: "T", url: "webcal://127.0.0.1:1/x.ics" });
    // https to a closed port: refused, which shows the scheme became https (webcal is not refused as a scheme)
    expect(added.json.data).toEqual({ ok: false, error: "connection refused" });
  });

  test("answers 400 for an address that is not http(s), 401 without a session", async () => {
    expect((await admin("", "POST", { name: "X", url: "file:///etc/passwd" })).status).toBe(400);
    expect((await call(availability, "/api/admin/availability/calendars")).status).toBe(401);
  });
});

// Issue 29: feeds that hung the server or stopped every booking, the owner's declined invitations,
// credentials over plain http, and the warning before a failing feed stops bookings.
describe("hostile and unusual feeds (issue 29)", () => {
  const admin = (path: string, method = "GET", body?: unknown) =>
    call(availability, `/api/admin/availability/calendars${path}`, {
      method,
      body,
      cookie,
      headers: { origin: ORIGIN },
    });
  // The 228-byte feed: one event whose rule matches no day.
  const NEVER = ics(
    [
      "BEGIN:VEVENT",
      "UID:never@test",
      "SUMMARY:Never",
      "DTSTAMP:20261101T000000Z",
      "DTSTART:20261201T090000Z",
      "DTEND:20261201T100000Z",
      "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
      "END:VEVENT",
    ].join("\r\n"),
  );

  test("a never-matching rule: the test button answers with the reason, and the server answers others meanwhile", async () => {
    expect(NEVER.length).toBeLessThan(300);
    goodBody = NEVER;
    const started = Date.now();
    let testDoneAt = 0;
    const tested = admin("/test", "POST", { name: "T", url: `${base}/good.ics` }).then((r) => {
      testDoneAt = Date.now();
      return r;
    });
    // Before: no answer at all, and nothing else answered until the process was killed.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await slots("2026-11-24")).toContain("11:00");
    const otherDoneAt = Date.now();
    const res = await tested;
    expect(otherDoneAt).toBeLessThan(testDoneAt);
    expect(res.json.data).toEqual({
      ok: false,
      error: "reading it took longer than 5 s (stopped in the repeating event “Never”)",
    });
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  test("a cut-off is recorded as the feed's failure: listed, and on the dashboard with its reason at once", async () => {
    goodBody = NEVER;
    const added = await admin("", "POST", { name: "Loop", url: `${base}/good.ics` });
    expect(added.status).toBe(201);
    expect(added.json.data).toMatchObject({ ok: false });
    const reason = "reading it took longer than 5 s (stopped in the repeating event “Never”)";
    expect((await admin("")).json.data.feeds[0]).toMatchObject({ lastError: reason, stale: false });
    expect((await call(alerts, "/api/admin/alerts", { cookie })).json.data.calendars).toEqual([
      { name: "Loop", failingSince: "2026-11-23T09:10:00.000Z", stale: false, reason },
    ]);
  }, 60_000);

  test("a feed with a byte order mark and lowercase names is read, its events counted", async () => {
    goodBody = `\uFEFF${ics(BUSY)}`;
    expect((await admin("/test", "POST", { name: "T", url: `${base}/good.ics` })).json.data).toEqual({
      ok: true,
      events: 1,
      intervals: 1,
    });
    goodBody = ics(BUSY)
      .split("\r\n")
      .map((line) => (/^(BEGIN|END):/.test(line) ? line.toLowerCase() : line.replace(/^[^:]+/, (n) => n.toLowerCase())))
      .join("\n");
    expect((await admin("/test", "POST", { name: "T", url: `${base}/good.ics` })).json.data).toEqual({
      ok: true,
      events: 1,
      intervals: 1,
    });
  });

  test("an invitation the owner declined does not block; the owner's address is kept with the feed", async () => {
    goodBody = ics(
      BUSY.replace(
        "END:VEVENT",
        [
          "ORGANIZER:mailto:boss@example.com",
          "ATTENDEE;PARTSTAT=ACCEPTED:mailto:boss@example.com",
          "ATTENDEE;PARTSTAT=DECLINED:mailto:sara@example.com",
          "END:VEVENT",
        ].join("\r\n"),
      ),
    );
    expect((await admin("/test", "POST", { name: "T", url: `${base}/good.ics` })).json.data).toMatchObject({
      intervals: 1,
    });
    const added = await admin("", "POST", { name: "Sara", url: `${base}/good.ics`, ownerEmail: "Sara@Example.com" });
    expect(added.json.data).toMatchObject({ ok: true, events: 1, intervals: 0 });
    expect(await slots("2026-11-24")).toContain("11:00");
    expect((await admin("")).json.data.feeds[0]).toMatchObject({ ownerEmail: "Sara@Example.com" });
    expect((await admin("", "POST", { name: "X", url: `${base}/good.ics`, ownerEmail: "not an address" })).status).toBe(
      400,
    );
  });

  test("a user name or password over plain http is refused with 400, nothing stored; https and loopback tests pass", async () => {
    const refused = await admin("", "POST", {
      name: "Team",
      url: "http://calendar.example.com/team.ics",
      username: "team",
      password: "s3cret",
    });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe("a user name and password are sent only over https: use the https:// address");
    expect(
      (await admin("/test", "POST", { name: "T", url: "http://calendar.example.com/t.ics", password: "x" })).status,
    ).toBe(400);
    expect(await listFeeds(t.db)).toEqual([]);
    await expect(
      fetchFeed({ url: "http://calendar.example.com/t.ics", username: "a", password: "b", allowLoopback: false }),
    ).rejects.toThrow("sent only over https");
    // Without credentials plain http stays allowed (public calendars).
    expect((await admin("/test", "POST", { name: "T", url: `${base}/good.ics` })).status).toBe(200);
  });

  test("hostile bodies: prototype keys, an object for a text, a huge name: 400, nothing stored", async () => {
    for (const raw of [
      `{"name":"X","url":"${base}/good.ics","__proto__":{"admin":true}}`,
      `{"name":"X","url":"${base}/good.ics","constructor":{"prototype":{"x":1}}}`,
      `{"name":"X","url":"${base}/good.ics","ownerEmail":{"toString":"a@b.c"}}`,
      JSON.stringify({ name: "x".repeat(81), url: `${base}/good.ics` }),
      JSON.stringify({ name: "X", url: `${base}/good.ics`, ownerEmail: `${"a".repeat(250)}@example.com` }),
    ]) {
      const res = await call(availability, "/api/admin/availability/calendars", {
        raw,
        cookie,
        headers: { origin: ORIGIN, "content-type": "application/json" },
      });
      expect(res.status, raw.slice(0, 80)).toBe(400);
      expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(await listFeeds(t.db)).toEqual([]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  test("a failing feed warns the admin by email at half of CALENDAR_STALE_HOURS, once per run of failures", async () => {
    const warnings = () =>
      t.db
        .selectFrom("emailOutbox")
        .select(["kind", "toAddress", "subject", "textBody"])
        .where("kind", "=", "calendar.failing")
        .execute();
    await t.db.deleteFrom("emailOutbox").execute();
    await addFeed(t.db, { name: "Sara's work", url: `${base}/good.ics` });
    await refreshCalendars(t.db, new Date("2026-11-23T08:00:00Z"));
    goodBody = "not a calendar";
    await refreshCalendars(t.db, new Date("2026-11-23T09:00:00Z"));
    await refreshCalendars(t.db, new Date("2026-11-23T20:59:59Z"));
    expect(await warnings()).toEqual([]);
    await refreshCalendars(t.db, new Date("2026-11-23T21:00:00Z"));
    await refreshCalendars(t.db, new Date("2026-11-23T21:15:00Z"));
    const [warning, ...more] = await warnings();
    expect(more).toEqual([]);
    expect(warning.subject).toBe(
      `Connected calendar "Sara's work" failing: bookings stop at Tuesday, 24 November 2026, 10:00 (Amsterdam time)`,
    );
    expect(warning.textBody).toContain("Why: not a readable iCalendar file");
    expect(warning.textBody).toContain("/admin/availability");
    // Read again, then failing again: a new run of failures, a new warning.
    goodBody = ics(BUSY);
    await refreshCalendars(t.db, new Date("2026-11-23T22:00:00Z"));
    goodBody = "not a calendar";
    await refreshCalendars(t.db, new Date("2026-11-23T23:00:00Z"));
    await refreshCalendars(t.db, new Date("2026-11-24T11:00:00Z"));
    expect(await warnings()).toHaveLength(2);
  });
});
