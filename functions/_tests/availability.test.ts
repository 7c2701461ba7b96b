/**
 * The office's availability, edited in the admin and stored in the database: the slots answer, the
 * date picker's calendar and the schedule check read the same rules, and an edit shows at once.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { call, ORIGIN, apiTestbed, type ApiTestDatabase } from "./harness.ts";
import meetings from "../meetings.ts";
import availability from "../admin-availability.ts";

let t: ApiTestDatabase;
let cookie: string;
// Many bookings from one test address: the abuse limits have their own tests (abuse.test.ts).
apiTestbed({ bookingAsBefore: true, admin: "hours-admin", rateLimitOff: true }, (bed) => ({ t, cookie } = bed));
const DEFAULT_HOURS = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: "09:00", closes: "17:00" }));
beforeEach(async () => {
  // Monday 2026-11-23, 10:10 in Amsterdam.
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
  await t.db.deleteFrom("meetings").execute();
  await t.db.deleteFrom("officeClosures").where("yearly", "=", false).execute();
  await put({ hours: DEFAULT_HOURS, publicHolidays: true });
});

const get = () => call(availability, "/api/admin/availability", { cookie });
const put = (body: unknown) =>
  call(availability, "/api/admin/availability", { method: "PUT", body, cookie, headers: { origin: ORIGIN } });
const close = (body: unknown) =>
  call(availability, "/api/admin/availability/closures", { body, cookie, headers: { origin: ORIGIN } });
const reopen = (id: number | string) =>
  call(availability, `/api/admin/availability/closures/${id}`, {
    method: "DELETE",
    params: { id: String(id) },
    cookie,
    headers: { origin: ORIGIN },
  });
const slots = async (date: string) =>
  (await call(meetings, `/api/meetings/available-slots?date=${date}`)).json.data as string[];
const calendar = async () => (await call(meetings, "/api/meetings/calendar")).json.data;
const book = (date: string, time: string) =>
  call(meetings, "/api/meetings/schedule", {
    body: { name: "Ada Lovelace", email: "ada@example.com", phone: "+31 20 123 4567", date, time },
  });

describe("GET /api/admin/availability", () => {
  test("starts with the rules the code held: weekdays 09:00–17:00, 24 and 31 December, public holidays", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ hours: DEFAULT_HOURS, publicHolidays: true });
    expect(res.json.data.closures).toEqual([
      { id: expect.any(Number), from: "2026-12-24", to: "2026-12-24", yearly: true, note: "Christmas Eve" },
      { id: expect.any(Number), from: "2026-12-31", to: "2026-12-31", yearly: true, note: "New Year's Eve" },
    ]);
    // The computed public holidays of this year and the next, for the admin to see.
    expect(res.json.data.holidays).toContainEqual({ date: "2027-04-27", holiday: "kingsDay" });
    expect(res.json.data.holidays).toContainEqual({ date: "2026-12-25", holiday: "christmasDay" });
  });

  test("is for admins only", async () => {
    expect((await call(availability, "/api/admin/availability")).status).toBe(401);
    const res = await call(availability, "/api/admin/availability", {
      method: "PUT",
      body: { hours: [], publicHolidays: true },
    });
    expect(res.status).toBe(401);
    const anonymous = await call(availability, "/api/admin/availability/closures/1", {
      method: "DELETE",
      params: { id: "1" },
      headers: { origin: ORIGIN },
    });
    expect(anonymous.status).toBe(401);
    const post = await call(availability, "/api/admin/availability/closures", {
      body: { from: "2026-12-02", to: "2026-12-02" },
      headers: { origin: ORIGIN },
    });
    expect(post.status).toBe(401);
    expect((await get()).json.data.closures).toHaveLength(2);
  });
});

describe("an edit changes what visitors are offered, at once", () => {
  test("a closed day: no slots, greyed out in the date picker, and a booking on it is refused", async () => {
    expect(await slots("2026-12-02")).toHaveLength(16);
    const res = await close({ from: "2026-12-02", to: "2026-12-02", note: "Team day" });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ from: "2026-12-02", to: "2026-12-02", yearly: false, note: "Team day" });
    expect(await slots("2026-12-02")).toEqual([]);
    expect((await calendar()).closedDates).toContain("2026-12-02");
    expect((await book("2026-12-02", "10:00")).status).toBe(400);

    expect((await reopen(res.json.data.id)).status).toBe(200);
    expect(await slots("2026-12-02")).toHaveLength(16);
    expect((await calendar()).closedDates).not.toContain("2026-12-02");
    expect((await book("2026-12-02", "10:00")).status).toBe(201);
  });

  test("a range of days, both ends included", async () => {
    expect((await close({ from: "2026-12-07", to: "2026-12-09", note: "Offsite" })).status).toBe(201);
    expect((await calendar()).closedDates).toEqual(expect.arrayContaining(["2026-12-07", "2026-12-08", "2026-12-09"]));
    expect(await slots("2026-12-06")).toEqual([]); // Sunday anyway
    expect(await slots("2026-12-10")).toHaveLength(16);
  });

  test("office hours per weekday: a short Friday, an open Saturday, a closed Wednesday", async () => {
    const hours = [
      { weekday: 1, opens: "09:00", closes: "17:00" },
      { weekday: 2, opens: "09:00", closes: "12:00" },
      { weekday: 2, opens: "13:00", closes: "17:00" },
      { weekday: 4, opens: "09:00", closes: "17:00" },
      { weekday: 5, opens: "10:00", closes: "12:00" },
      { weekday: 6, opens: "10:00", closes: "11:00" },
    ];
    const res = await put({ hours, publicHolidays: true });
    expect(res.status, res.text).toBe(200);
    expect(await slots("2026-11-27")).toEqual(["10:00", "10:30", "11:00", "11:30"]);
    expect(await slots("2026-11-28")).toEqual(["10:00", "10:30"]);
    expect(await slots("2026-11-25")).toEqual([]);
    expect(await slots("2026-11-24")).not.toContain("12:00");
    expect((await calendar()).weekdays).toEqual([1, 2, 4, 5, 6]);
    expect((await book("2026-11-28", "10:30")).status).toBe(201);
    expect((await book("2026-11-27", "12:00")).status).toBe(400);
  });

  test("public holidays can be switched off (the office opens on Boxing Day's Monday 2028)", async () => {
    expect(await slots("2027-01-01")).toEqual([]);
    process.env.BOOKING_NOW = "2028-12-20T09:10:00Z";
    expect(await slots("2028-12-26")).toEqual([]);
    expect((await put({ hours: DEFAULT_HOURS, publicHolidays: false })).status).toBe(200);
    expect(await slots("2028-12-26")).toHaveLength(16);
  });

  test("a yearly closure repeats every year", async () => {
    process.env.BOOKING_NOW = "2031-12-01T09:10:00Z";
    expect(await slots("2031-12-24")).toEqual([]);
    expect(await slots("2031-12-23")).toHaveLength(16);
  });
});

describe("bad input is refused with a clear message and changes nothing", () => {
  test.each([
    [{ hours: [{ weekday: 8, opens: "09:00", closes: "17:00" }], publicHolidays: true }, "weekday"],
    [{ hours: [{ weekday: 1, opens: "17:00", closes: "09:00" }], publicHolidays: true }, "before"],
    [{ hours: [{ weekday: 1, opens: "09:15", closes: "17:00" }], publicHolidays: true }, "30"],
    [
      {
        hours: [
          { weekday: 1, opens: "09:00", closes: "13:00" },
          { weekday: 1, opens: "12:00", closes: "17:00" },
        ],
        publicHolidays: true,
      },
      "overlap",
    ],
    [{ hours: DEFAULT_HOURS }, "publicHolidays"],
  ])("PUT %j", async (body, word) => {
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(res.json.message.toLowerCase()).toContain(word.toLowerCase());
    expect((await get()).json.data.hours).toEqual(DEFAULT_HOURS);
  });

  test.each([
    [{ from: "2026-12-09", to: "2026-12-07" }, "after"],
    [{ from: "2026-02-30", to: "2026-03-01" }, "date"],
    [{ from: "2026-12-01", to: "2028-12-01" }, "year"],
    [{ from: "2026-12-01", to: "2026-12-01", note: "x".repeat(201) }, "200"],
  ])("POST closures %j", async (body, word) => {
    const res = await close(body);
    expect(res.status).toBe(400);
    expect(res.json.message.toLowerCase()).toContain(word);
  });

  test("deleting an unknown closure is 404", async () => {
    expect((await reopen(999_999)).status).toBe(404);
    expect((await reopen("abc")).status).toBe(404);
  });
});
