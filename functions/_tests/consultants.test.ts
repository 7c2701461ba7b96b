/**
 * Booking the right person: three consultants with their own hours and their own calendars on a
 * real CalDAV server (radicale): Nasrin (the first admin; the office's hours; speaks Persian, English
 * and Dutch), Pieter (mornings; Dutch and English) and Kaveh (afternoons; Persian and English). The
 * slots of "whoever is free" are the union of the right consultants' own; a named one's are theirs
 * only; 300 parallel bookings are shared fairly with nobody double-booked; hostile requests are 4xx.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { addClosure } from "#db/availability.repository.ts";
import { addFeed } from "#db/busy-calendars.repository.ts";
import { addConsultant, updateConsultant } from "#db/consultants.repository.ts";
import { DUMMY_HASH } from "#db/admins.ts";
import { createUser } from "#db/users.repository.ts";
import { call, setupApiDatabase } from "./harness.ts";
import { startRadicale } from "./radicale-server.ts";
import meetings from "../meetings.ts";
import manage from "../meeting-manage.ts";
import { refreshCalendars } from "../_lib/calendars/refresh.ts";
import { signManageToken } from "../_lib/booking/manage-token.ts";

const USER = "team";
const PASSWORD = "correct-horse-7";
// Monday 1 March 2027, 09:00 in Amsterdam; the day checked is Wednesday 3 March.
const NOW = "2027-03-01T08:00:00Z";
const DAY = "2027-03-03";
const NASRIN = "nasrin-farahani";
const PIETER = "pieter-van-dijk";
const KAVEH = "kaveh-tehrani";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let radicale: Awaited<ReturnType<typeof startRadicale>>;

const weekdays = (opens: string, closes: string) =>
  ([1, 2, 3, 4, 5] as const).map((weekday) => ({ weekday, opens, closes }));
const event = (uid: string, start: string, end: string) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Bridgewise tests//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20270101T000000Z",
    `DTSTART;TZID=Europe/Amsterdam:${start}`,
    `DTEND;TZID=Europe/Amsterdam:${end}`,
    "SUMMARY:Busy",
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");

beforeAll(async () => {
  radicale = await startRadicale(USER, PASSWORD);
  t = await setupApiDatabase();
  Object.assign(process.env, { RATE_LIMIT: "off", CALENDAR_FETCH_ALLOW: "loopback", BOOKING_NOW: NOW });
  // The first admin becomes the first consultant (Nasrin), as on a new install.
  await createUser(t.db, "nasrin", DUMMY_HASH);
  const pieter = await createUser(t.db, "pieter", DUMMY_HASH);
  const kaveh = await createUser(t.db, "kaveh", DUMMY_HASH);
  await addConsultant(t.db, { id: PIETER, userId: pieter.id, hours: weekdays("09:00", "13:00") });
  await addConsultant(t.db, { id: KAVEH, userId: kaveh.id, hours: weekdays("12:00", "17:00") });
  const busy = { [NASRIN]: ["100000", "110000"], [PIETER]: ["090000", "100000"], [KAVEH]: ["140000", "150000"] };
  for (const [id, [from, to]] of Object.entries(busy)) {
    const url = `${radicale.base}/${USER}/${id}/`;
    await radicale.dav("MKCALENDAR", url);
    await radicale.dav("PUT", `${url}busy.ics`, event(`${id}@test`, `20270303T${from}`, `20270303T${to}`));
    await addFeed(t.db, { name: id, url, username: USER, password: PASSWORD, consultantId: id });
  }
  const refreshed = await refreshCalendars(t.db, new Date(NOW));
  expect(refreshed.every((r) => r.ok)).toBe(true);
}, 120_000);

afterAll(async () => {
  delete process.env.CALENDAR_FETCH_ALLOW;
  delete process.env.BOOKING_NOW;
  await radicale?.stop();
  await t?.destroy();
});

const slots = async (query: string) => {
  const res = await call(meetings, `/api/meetings/available-slots?date=${DAY}&${query}`);
  expect(res.status, query).toBe(200);
  return res.json.data as string[];
};
const halfHours = (from: string, to: string) => {
  const out: string[] = [];
  for (let m = Number(from.slice(0, 2)) * 60 + Number(from.slice(3)); ; m += 30) {
    const time = `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
    if (time >= to) return out;
    out.push(time);
  }
};
const union = (...lists: string[][]) => [...new Set(lists.flat())].sort();
let visitorNumber = 0;
const visitor = () => ({
  name: "Leila Ahmadi",
  email: `visitor-${++visitorNumber}@example.com`,
  phone: "+98 912 345 6789",
});
const book = (body: Record<string, unknown>) => call(meetings, "/api/meetings/schedule", { body });

describe("GET /api/meetings/available-slots with consultants", () => {
  test("a named consultant's slots are theirs only: their hours, minus their own calendar", async () => {
    expect(await slots(`consultant=${NASRIN}`)).toEqual(
      halfHours("09:00", "17:00").filter((s) => !["10:00", "10:30"].includes(s)),
    );
    expect(await slots(`consultant=${PIETER}`)).toEqual(halfHours("10:00", "13:00"));
    expect(await slots(`consultant=${KAVEH}`)).toEqual(
      halfHours("12:00", "17:00").filter((s) => !["14:00", "14:30"].includes(s)),
    );
  });

  test("whoever is free in Persian: exactly the Persian speakers' free slots; in English: all three's", async () => {
    const own = {
      nasrin: await slots(`consultant=${NASRIN}`),
      pieter: await slots(`consultant=${PIETER}`),
      kaveh: await slots(`consultant=${KAVEH}`),
    };
    expect(await slots("consultant=any&language=fa")).toEqual(union(own.nasrin, own.kaveh));
    expect(await slots("consultant=any&language=en")).toEqual(union(own.nasrin, own.pieter, own.kaveh));
    expect(await slots("consultant=any&language=nl")).toEqual(union(own.nasrin, own.pieter));
    expect(await slots("consultant=any")).toEqual(union(own.nasrin, own.pieter, own.kaveh));
    // 10:00 is only Pieter's (Nasrin's calendar is busy, Kaveh starts at noon): not for Persian.
    expect(await slots("consultant=any&language=fa")).not.toContain("10:00");
    expect(await slots("consultant=any&language=en")).toContain("10:00");
  });

  test("the calendar lists the bookable consultants and the choice's weekdays and hours", async () => {
    const res = await call(meetings, `/api/meetings/calendar?consultant=${PIETER}`);
    expect(res.status).toBe(200);
    expect(res.json.data.consultants).toEqual([
      { id: KAVEH, languages: ["fa", "en"], services: expect.any(Array) },
      { id: NASRIN, languages: ["fa", "en", "nl"], services: expect.any(Array) },
      { id: PIETER, languages: ["nl", "en"], services: expect.any(Array) },
    ]);
    expect(res.json.data.hours).toEqual(weekdays("09:00", "13:00"));
    const any = await call(meetings, "/api/meetings/calendar?consultant=any&language=fa");
    expect(any.json.data.hours).toEqual(
      [...weekdays("09:00", "17:00"), ...weekdays("12:00", "17:00")].sort(
        (a, b) => a.weekday - b.weekday || a.opens.localeCompare(b.opens),
      ),
    );
  });
});

describe("POST /api/meetings/schedule with consultants", () => {
  test("two parallel bookings of the last free consultant at 10:00: one 201, one 409", async () => {
    const [a, b] = await Promise.all([
      book({ ...visitor(), date: DAY, time: "10:00", consultant: "any", language: "en" }),
      book({ ...visitor(), date: DAY, time: "10:00", consultant: "any", language: "en" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const won = a.status === 201 ? a : b;
    expect(won.json.data.consultant).toBe(PIETER);
    expect((a.status === 409 ? a : b).json.message).toBe("timeSlotOccupied");
    expect(await slots("consultant=any&language=en")).not.toContain("10:00");
  });

  test("a named consultant is booked as chosen, at the place the visitor chose", async () => {
    const res = await book({ ...visitor(), date: DAY, time: "15:00", consultant: KAVEH, place: "video" });
    expect(res.status).toBe(201);
    expect(res.json.data.consultant).toBe(KAVEH);
    const row = await t.db
      .selectFrom("meetings")
      .select(["assignment", "locationKind", "locationDetail"])
      .where("id", "=", res.json.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ assignment: { rule: "chosen" }, locationKind: "video" });
    expect(row.locationDetail).toMatch(/^https:\/\/meet\.jit\.si\/bridgewise-[a-z2-9]{14}$/);
  });

  test("a move keeps the consultant: 409 consultantBusy when they are not free but someone else is", async () => {
    const res = await book({ ...visitor(), date: DAY, time: "11:00", consultant: PIETER });
    expect(res.status).toBe(201);
    const meeting = await t.db
      .selectFrom("meetings")
      .selectAll()
      .where("id", "=", res.json.data.id)
      .executeTakeFirstOrThrow();
    const token = await signManageToken(meeting);
    const auth = { authorization: `Bearer ${token}` };
    // 16:00: Pieter has stopped working, Nasrin and Kaveh are free.
    const move = await call(manage, "/api/meetings/manage/move", {
      body: { date: DAY, time: "16:00" },
      headers: auth,
    });
    expect(move.status).toBe(409);
    expect(move.json.message).toBe("consultantBusy");
    // The slots a manage link shows are Pieter's.
    const own = await call(meetings, `/api/meetings/available-slots?date=${DAY}`, { headers: auth });
    // (its own 11:00 left out of the way).
    expect(own.json.data).toEqual(union(await slots(`consultant=${PIETER}`), ["11:00"]));
    expect(own.json.data).not.toContain("16:00");
    const moved = await call(manage, "/api/meetings/manage/move", {
      body: { date: DAY, time: "12:30" },
      headers: auth,
    });
    expect(moved.status).toBe(200);
    const after = await t.db
      .selectFrom("meetings")
      .select("consultantId")
      .where("id", "=", meeting.id)
      .executeTakeFirst();
    expect(after?.consultantId).toBe(PIETER);
  });

  test("hostile: unknown, inactive, wrong service, a closed day, prototype keys and wrong types are 4xx", async () => {
    const bad = async (res: Promise<{ status: number }>, status: number) => expect((await res).status).toBe(status);
    for (const id of ["nobody-here", "constructor", "prototype"]) {
      await bad(call(meetings, `/api/meetings/available-slots?date=${DAY}&consultant=${id}`), 404);
      await bad(call(meetings, `/api/meetings/calendar?consultant=${id}`), 404);
      await bad(book({ ...visitor(), date: DAY, time: "13:00", consultant: id }), 404);
    }
    for (const id of ["__proto__", "Nasrin", "a".repeat(65), "any,nasrin", "../x", ""]) {
      await bad(call(meetings, `/api/meetings/available-slots?date=${DAY}&consultant=${encodeURIComponent(id)}`), 400);
      await bad(book({ ...visitor(), date: DAY, time: "13:00", consultant: id }), 400);
    }
    for (const wrong of [42, ["any"], { id: NASRIN }, null, true])
      await bad(book({ ...visitor(), date: DAY, time: "13:00", consultant: wrong }), 400);
    for (const place of ["moon", 1, ["video"]]) await bad(book({ ...visitor(), date: DAY, time: "13:00", place }), 400);
    await bad(call(meetings, `/api/meetings/available-slots?date=${DAY}&language=xx`), 400);
    await bad(call(meetings, `/api/meetings/calendar?service=__proto__`), 400);
    const proto = call(meetings, "/api/meetings/schedule", {
      raw: JSON.stringify({ ...visitor(), date: DAY, time: "13:00" }).replace("{", '{"__proto__":{"consultant":"x"},'),
      headers: { "content-type": "application/json" },
    });
    expect((await proto).status).toBeLessThan(500);

    // Pieter does not take the Startup Studio; Kaveh has left; Pieter is away on Thursday.
    await bad(book({ ...visitor(), date: DAY, time: "12:00", consultant: PIETER, service: "startup-studio" }), 400);
    await updateConsultant(t.db, KAVEH, { active: false });
    try {
      await bad(book({ ...visitor(), date: DAY, time: "16:00", consultant: KAVEH }), 404);
      await bad(call(meetings, `/api/meetings/available-slots?date=${DAY}&consultant=${KAVEH}`), 404);
      expect(await slots("consultant=any&language=fa")).toEqual(await slots(`consultant=${NASRIN}`));
    } finally {
      await updateConsultant(t.db, KAVEH, { active: true });
    }
    await addClosure(t.db, { from: "2027-03-04", to: "2027-03-04", yearly: false, note: "Away" }, PIETER);
    await bad(book({ ...visitor(), date: "2027-03-04", time: "10:00", consultant: PIETER }), 400);
    expect(
      (await call(meetings, `/api/meetings/available-slots?date=2027-03-04&consultant=${PIETER}`)).json.data,
    ).toEqual([]);
    // The office is open that day: the others are not away.
    expect((await call(meetings, `/api/meetings/available-slots?date=2027-03-04&consultant=any`)).json.data).toContain(
      "10:00",
    );
  });
});

describe("whoever is free, shared fairly", () => {
  test("300 bookings over a month from parallel clients: nobody double-booked, counts within 10 %", async () => {
    // The same hours for all three, so every booking has all three to choose from.
    await updateConsultant(t.db, PIETER, { hours: null });
    await updateConsultant(t.db, KAVEH, { hours: null });
    const wanted: { date: string; time: string }[] = [];
    for (let day = 1; wanted.length < 300 && day <= 30; day++) {
      const date = `2027-04-${String(day).padStart(2, "0")}`;
      const res = await call(meetings, `/api/meetings/available-slots?date=${date}&consultant=any`);
      for (const time of res.json.data as string[]) if (wanted.length < 300) wanted.push({ date, time });
    }
    expect(wanted).toHaveLength(300);
    const queue = [...wanted];
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let slot = queue.shift(); slot; slot = queue.shift())
          statuses.push((await book({ ...visitor(), ...slot, consultant: "any", language: "en" })).status);
      }),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(300);
    const { rows: doubles } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (SELECT consultant_id, date, time FROM meetings WHERE cancelled_at IS NULL
        GROUP BY 1, 2, 3 HAVING count(*) > 1) AS d`.execute(t.db);
    expect(doubles[0]!.n).toBe(0);
    const { rows: counts } = await sql<{ consultant: string; n: number }>`
      SELECT consultant_id AS consultant, count(*)::int AS n FROM meetings
      WHERE cancelled_at IS NULL AND date LIKE '2027-04-%' GROUP BY 1 ORDER BY 1`.execute(t.db);
    expect(counts.map((c) => c.consultant)).toEqual([KAVEH, NASRIN, PIETER]);
    const ns = counts.map((c) => c.n);
    expect(Math.max(...ns) - Math.min(...ns)).toBeLessThanOrEqual(Math.ceil(0.1 * Math.min(...ns)));
    const fair = await t.db
      .selectFrom("meetings")
      .select("assignment")
      .where("date", "like", "2027-04-%")
      .executeTakeFirstOrThrow();
    expect(fair.assignment).toMatchObject({ rule: "fair", compared: expect.any(Array) });
  }, 300_000);
});
