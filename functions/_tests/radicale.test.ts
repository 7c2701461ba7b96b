/**
 * Connected calendars against a real CalDAV server: Debian's radicale, started here on a free
 * loopback port with basic auth, a calendar seeded through CalDAV (MKCALENDAR, PUT) with a weekly
 * meeting across the change to summer time (28 March 2027), an exception to it (RECURRENCE-ID),
 * an all-day event, an event in Tehran time and a free one. The feed points at the collection's
 * ICS address; the slots answer, a booking and a move are checked against it.
 *
 * radicale is installed by `npm test` and `.ci/run` as the browser is (apt-get, as root); without
 * it this file fails with a message that says how to install it.
 */
import { bookingAsBefore } from "#db/testing.ts";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import meetings from "../meetings.ts";
import manage from "../meeting-manage.ts";
import availability from "../admin-availability.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import { signManageToken } from "../_lib/booking/manage-token.ts";
import { DUMMY_HASH } from "#db/admins.ts";
import { createUser } from "#db/users.repository.ts";

const USER = "team";
const PASSWORD = "correct-horse-7";
const auth = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let radicale: ChildProcess | undefined;
let folder = "";
let calendarUrl = "";
let cookie = "";

/** A port the system says is free now (radicale takes no port 0). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until radicale answers on `base` (polling, bounded by a deadline, not a fixed sleep). */
async function waitForServer(base: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`radicale stopped (exit ${child.exitCode}):\n${output()}`);
    try {
      await fetch(base);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`radicale did not answer on ${base} within 30 s:\n${output()}`);
}

const dav = async (method: string, url: string, body?: string) => {
  const res = await fetch(url, {
    method,
    headers: { authorization: auth, ...(body && { "content-type": "text/calendar; charset=utf-8" }) },
    body,
  });
  expect(res.status, `${method} ${url}`).toBeLessThan(300);
};

const vcalendar = (...lines: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Bridgewise tests//EN", ...lines, "END:VCALENDAR", ""].join("\r\n");

// Tuesdays 10:00–11:00 Amsterdam time from 16 March 2027 (CET, UTC+1) past 28 March (CEST, UTC+2).
// The calendar client sends its VTIMEZONE, as Apple's and Thunderbird's do.
const AMSTERDAM = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Amsterdam",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "DTSTART:19810329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "DTSTART:19961027T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
];
const WEEKLY = vcalendar(
  ...AMSTERDAM,
  "BEGIN:VEVENT",
  "UID:weekly-standup@test",
  "DTSTAMP:20270101T000000Z",
  "SUMMARY:Weekly client call",
  "DTSTART;TZID=Europe/Amsterdam:20270316T100000",
  "DTEND;TZID=Europe/Amsterdam:20270316T110000",
  "RRULE:FREQ=WEEKLY;COUNT=6",
  "END:VEVENT",
  // The exception: on 6 April the call moves to 14:00–15:00.
  "BEGIN:VEVENT",
  "UID:weekly-standup@test",
  "DTSTAMP:20270101T000000Z",
  "SUMMARY:Weekly client call (moved)",
  "RECURRENCE-ID;TZID=Europe/Amsterdam:20270406T100000",
  "DTSTART;TZID=Europe/Amsterdam:20270406T140000",
  "DTEND;TZID=Europe/Amsterdam:20270406T150000",
  "END:VEVENT",
);
const ALL_DAY = vcalendar(
  "BEGIN:VEVENT",
  "UID:offsite@test",
  "DTSTAMP:20270101T000000Z",
  "SUMMARY:Team offsite",
  "DTSTART;VALUE=DATE:20270331",
  "DTEND;VALUE=DATE:20270401",
  "END:VEVENT",
);
// 15:30–16:30 in Tehran (UTC+3:30 all year since 2022) is 12:00–13:00 UTC, 13:00–14:00 in Amsterdam
// on 24 March (still CET). The client sends no VTIMEZONE; radicale writes its own, with offsets
// rounded to +0300/+0400 (pytz): the runtime's own zone rules must win over it.
const TEHRAN = vcalendar(
  "BEGIN:VEVENT",
  "UID:tehran-call@test",
  "DTSTAMP:20270101T000000Z",
  "SUMMARY:Call with Tehran",
  "DTSTART;TZID=Asia/Tehran:20270324T153000",
  "DTEND;TZID=Asia/Tehran:20270324T163000",
  "END:VEVENT",
);
const FREE = vcalendar(
  "BEGIN:VEVENT",
  "UID:focus@test",
  "DTSTAMP:20270101T000000Z",
  "SUMMARY:Focus time (free)",
  "DTSTART:20270325T080000Z",
  "DTEND:20270325T110000Z",
  "TRANSP:TRANSPARENT",
  "END:VEVENT",
);

const ALL_SLOTS = Array.from(
  { length: 16 },
  (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`,
);
const without = (...times: string[]) => ALL_SLOTS.filter((s) => !times.includes(s));
const slots = async (date: string) =>
  (await call(meetings, `/api/meetings/available-slots?date=${date}`)).json.data as string[];

beforeAll(async () => {
  if (spawnSync("radicale", ["--version"]).error)
    throw new Error(
      "radicale (a CalDAV server) is required for this test and is not installed. " +
        "Install it with `sudo apt-get install -y radicale` and run the test again (`npm test` installs it when run as root).",
    );
  folder = mkdtempSync(path.join(tmpdir(), "radicale-"));
  writeFileSync(path.join(folder, "users"), `${USER}:${PASSWORD}\n`);
  const port = await freePort();
  let output = "";
  radicale = spawn(
    "radicale",
    [
      `--storage-filesystem-folder=${path.join(folder, "collections")}`,
      "--auth-type=htpasswd",
      `--auth-htpasswd-filename=${path.join(folder, "users")}`,
      "--auth-htpasswd-encryption=plain",
      `--server-hosts=127.0.0.1:${port}`,
      "--logging-level=warning",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  radicale.stdout?.on("data", (d) => (output += d));
  radicale.stderr?.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  await waitForServer(base, radicale, () => output);
  calendarUrl = `${base}/${USER}/work/`;
  await dav("MKCALENDAR", calendarUrl);
  await dav("PUT", `${calendarUrl}weekly.ics`, WEEKLY);
  await dav("PUT", `${calendarUrl}offsite.ics`, ALL_DAY);
  await dav("PUT", `${calendarUrl}tehran.ics`, TEHRAN);
  await dav("PUT", `${calendarUrl}focus.ics`, FREE);

  t = await setupApiDatabase();

  await bookingAsBefore(t.db);
  process.env.RATE_LIMIT = "off";
  process.env.CALENDAR_FETCH_ALLOW = "loopback";
  process.env.BOOKING_NOW = "2027-03-15T08:00:00Z";
  const admin = await createUser(t.db, "dav-admin", DUMMY_HASH);
  cookie = `${SESSION_COOKIE}=${await signSession({ id: admin.id, sessionVersion: 1 })}`;
}, 90_000);

afterAll(async () => {
  delete process.env.CALENDAR_FETCH_ALLOW;
  if (radicale && radicale.exitCode === null) {
    const exited = new Promise((resolve) => radicale!.once("exit", resolve));
    radicale.kill("SIGTERM");
    await exited;
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
  await t?.destroy();
});

describe("a radicale calendar connected with basic auth", () => {
  test("the collection needs its credentials: without them the feed is refused, with them it is read", async () => {
    const admin = (body: unknown) =>
      call(availability, "/api/admin/availability/calendars", { body, cookie, headers: { origin: ORIGIN } });
    expect((await admin({ name: "Team (no password)", url: calendarUrl })).json.data).toMatchObject({
      ok: false,
      error: "refused (HTTP 401): check the credentials",
    });
    await t.db.deleteFrom("busyCalendars").execute();
    const added = await admin({ name: "Team", url: calendarUrl, username: USER, password: PASSWORD });
    expect(added.status).toBe(201);
    // Four objects: the series and its exception are one object (one UID) but two VEVENTs.
    expect(added.json.data).toMatchObject({ ok: true, events: 5 });
  });

  test("the weekly call blocks 10:00–11:00 Amsterdam time before and after the change to summer time", async () => {
    expect(await slots("2027-03-16")).toEqual(without("10:00", "10:30"));
    expect(await slots("2027-03-23")).toEqual(without("10:00", "10:30"));
    expect(await slots("2027-03-30")).toEqual(without("10:00", "10:30"));
    expect(await slots("2027-04-13")).toEqual(without("10:00", "10:30"));
    // COUNT=6: the sixth and last call is on 20 April.
    expect(await slots("2027-04-20")).toEqual(without("10:00", "10:30"));
    expect(await slots("2027-05-04")).toEqual(ALL_SLOTS);
  });

  test("the moved occurrence blocks its new time and frees its old one", async () => {
    expect(await slots("2027-04-06")).toEqual(without("14:00", "14:30"));
  });

  test("the all-day event closes the whole office day", async () => {
    expect(await slots("2027-03-31")).toEqual([]);
  });

  test("the Tehran call blocks 13:00–14:00 Amsterdam time", async () => {
    expect(await slots("2027-03-24")).toEqual(without("13:00", "13:30"));
  });

  test("the free (transparent) event blocks nothing", async () => {
    expect(await slots("2027-03-25")).toEqual(ALL_SLOTS);
  });

  test("a booking into the weekly call after the change is refused; one next to it is taken; a move into the moved occurrence is refused", async () => {
    const book = (date: string, time: string) =>
      call(meetings, "/api/meetings/schedule", {
        body: { name: "Ada Lovelace", email: "ada@example.com", phone: "+31 20 123 4567", date, time },
      });
    expect((await book("2027-03-30", "10:30")).status).toBe(400);
    const booked = await book("2027-03-30", "11:00");
    expect(booked.status).toBe(201);
    const { id } = booked.json.data as { id: number };
    const token = await signManageToken({ id, manageVersion: 0, date: "2027-03-30", time: "11:00" });
    const move = (date: string, time: string) =>
      call(manage, "/api/meetings/manage/move", {
        body: { date, time },
        headers: { authorization: `Bearer ${token}`, origin: ORIGIN },
      });
    expect((await move("2027-04-06", "14:30")).status).toBe(400);
    expect((await move("2027-03-24", "13:00")).status).toBe(400);
    expect((await move("2027-03-31", "09:00")).status).toBe(400);
    const moved = await move("2027-04-06", "10:00");
    expect(moved.status).toBe(200);
    expect(moved.json.data).toMatchObject({ date: "2027-04-06", time: "10:00" });
  });
});
