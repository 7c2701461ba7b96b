import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { bookingAsBefore } from "#db/testing.ts";
import { call, setupApiDatabase } from "./harness.ts";
import meetings from "../meetings.ts";

let db: Awaited<ReturnType<typeof setupApiDatabase>>;
beforeAll(async () => {
  db = await setupApiDatabase();
  await bookingAsBefore(db.db);
  // Many submissions from one test address: the abuse limits have their own tests (abuse.test.ts).
  process.env.RATE_LIMIT = "off";
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});
// Monday 2026-11-23, 10:10 in Amsterdam.
beforeEach(() => {
  process.env.BOOKING_NOW = "2026-11-23T09:10:00Z";
});

const slots = (date: string) => call(meetings, `/api/meetings/available-slots?date=${date}`);
const book = (body: Record<string, unknown>) => call(meetings, "/api/meetings/schedule", { body });
const visitor = { name: "Leila Ahmadi", email: "leila@example.com", phone: "+98 912 345 6789" };

describe("GET /api/meetings/calendar", () => {
  test("gives the date picker every rule in one answer", async () => {
    const res = await call(meetings, "/api/meetings/calendar");
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      timeZone: "Europe/Amsterdam",
      today: "2026-11-23",
      lastDate: "2027-01-22",
      weekdays: [1, 2, 3, 4, 5],
    });
    // Working days that are closed between today and the last date: public holidays (Christmas,
    // Boxing Day, New Year) and the company's own days (24 and 31 December); nothing else.
    expect(res.json.data.closedDates).toEqual(["2026-12-24", "2026-12-25", "2026-12-31", "2027-01-01"]);
    expect(res.json.data.hours).toHaveLength(5);
    expect(res.json.data.hours[0]).toEqual({ weekday: 1, opens: "09:00", closes: "17:00" });
  });

  test("adds BOOKING_CLOSED_DATES to the company's closing days", async () => {
    process.env.BOOKING_CLOSED_DATES = "2026-12-02,2026-12-05";
    try {
      const res = await call(meetings, "/api/meetings/calendar");
      // 5 December is a Saturday: closed anyway, so not listed.
      expect(res.json.data.closedDates).toEqual(["2026-12-02", "2026-12-24", "2026-12-25", "2026-12-31", "2027-01-01"]);
      expect((await slots("2026-12-02")).json.data).toEqual([]);
    } finally {
      delete process.env.BOOKING_CLOSED_DATES;
    }
  });
});

describe("GET /api/meetings/available-slots", () => {
  test("today: only the slots still ahead in office time", async () => {
    const res = await slots("2026-11-23");
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data[0]).toBe("10:30");
    expect(res.json.data.at(-1)).toBe("16:30");
  });
  test("weekends, closed dates, the past and beyond 60 days: none", async () => {
    for (const date of ["2026-11-28", "2026-12-25", "2026-11-20", "2027-02-01"]) {
      expect((await slots(date)).json).toEqual({ success: true, data: [] });
    }
  });
  test("a missing, malformed or impossible date is 400", async () => {
    expect((await call(meetings, "/api/meetings/available-slots")).status).toBe(400);
    for (const date of ["2026-02-30", "2026-13-01", "abc", ""]) {
      const res = await slots(date);
      expect(res.status, date).toBe(400);
      expect(res.json).toMatchObject({ success: false, message: "Please select a date" });
    }
    // A control character is refused at the edge, for any query parameter.
    const nul = await slots("2026-11-23%00");
    expect(nul.status).toBe(400);
    expect(nul.json).toMatchObject({ success: false, errors: { date: ["date contains invalid characters"] } });
    expect((await slots("23-11-2026")).status).toBe(400);
    expect((await slots("2026-11-23'%20OR%201=1")).status).toBe(400);
  });
});

describe("POST /api/meetings/schedule", () => {
  test("books a slot (201), which then disappears from the slots answer", async () => {
    const res = await book({ ...visitor, date: "2026-11-24", time: "11:00" });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      success: true,
      data: {
        id: expect.any(Number),
        ...visitor,
        date: "2026-11-24",
        time: "11:00",
        language: "en",
        createdAt: expect.any(String),
        isConfirmed: false,
        cancelledAt: null,
        consultant: "nasrin-farahani",
      },
    });
    expect((await slots("2026-11-24")).json.data).not.toContain("11:00");
  });
  test("the same slot again answers 409 timeSlotOccupied", async () => {
    await book({ ...visitor, date: "2026-11-25", time: "09:00" });
    const res = await book({ ...visitor, email: "other@example.com", date: "2026-11-25", time: "09:00" });
    expect(res.status).toBe(409);
    expect(res.json).toEqual({ success: false, message: "timeSlotOccupied" });
  });
  test("50 visitors racing for one slot: exactly one wins, 49 hear 409", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        book({ ...visitor, email: `racer${i}@example.com`, date: "2026-11-26", time: "14:00" }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
  }, 60_000);
  test("slots that the rules forbid are refused: past, elapsed today, weekend, closed, not a slot", async () => {
    for (const [date, time] of [
      ["2026-11-20", "10:00"],
      ["2026-11-23", "10:00"],
      ["2026-11-28", "10:00"],
      ["2026-12-25", "10:00"],
      ["2026-11-24", "10:15"],
      ["2026-11-24", "17:00"],
    ]) {
      const res = await book({ ...visitor, date, time });
      expect(res.status, `${date} ${time}`).toBe(400);
      expect(res.json.errors.time).toBeDefined();
    }
  });
  test.each([
    ["name", { name: "L" }, "Name must be at least 2 characters"],
    ["email", { email: "leila@" }, "Please enter a valid email address"],
    ["phone", { phone: "12345" }, "Please enter a valid phone number"],
    ["phone", { phone: "call me maybe 123456" }, "Please enter a valid phone number"],
    ["date", { date: "" }, "Please select a date"],
    ["time", { time: "" }, "Please select a time"],
  ])("a bad %s is 400 with the published message", async (field, change, message) => {
    const res = await book({ ...visitor, date: "2026-11-24", time: "15:00", ...change });
    expect(res.status).toBe(400);
    expect(res.json.errors[field]).toContain(message);
  });
  test("hostile and huge input: 400 or 413, nothing stored", async () => {
    expect((await book({ ...visitor, name: { $gt: "" }, date: "2026-11-24", time: "15:30" })).status).toBe(400);
    expect(
      (
        await call(meetings, "/api/meetings/schedule", {
          raw: "{".repeat(40_000),
          headers: { "content-type": "application/json" },
        })
      ).status,
    ).toBe(413);
    expect((await slots("2026-11-24")).json.data).toContain("15:30");
  });
  test("a Persian name is stored intact", async () => {
    const res = await book({ ...visitor, name: "لیلا احمدی", date: "2026-11-27", time: "09:30" });
    expect(res.json.data.name).toBe("لیلا احمدی");
  });
  test("a method a path does not serve is 405 with that path's Allow; an unknown sub-path 404", async () => {
    const cases = [
      ["GET", "/api/meetings/schedule", "POST"],
      ["DELETE", "/api/meetings/schedule", "POST"],
      ["POST", "/api/meetings/available-slots?date=2026-11-27", "GET"],
      ["PUT", "/api/meetings/calendar", "GET"],
    ] as const;
    for (const [method, path, allow] of cases) {
      const res = await call(meetings, path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
    }
    expect((await call(meetings, "/api/meetings/nothing-here")).status).toBe(404);
  });
  test("an impossible date is refused (400), not booked", async () => {
    const res = await book({ ...visitor, date: "2026-02-30", time: "09:00" });
    expect(res.status).toBe(400);
    expect(res.json.errors.date).toEqual(["Please select a date"]);
  });
});
