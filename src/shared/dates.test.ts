import { describe, expect, test } from "vitest";
import { addDays, isCalendarDate, officeNow, zonedInstant } from "./dates.ts";

describe("isCalendarDate", () => {
  test("takes real dates, leap days included, and refuses days that do not exist", () => {
    expect(isCalendarDate("2028-02-29")).toBe(true);
    expect(isCalendarDate("2027-02-29")).toBe(false);
    expect(isCalendarDate("2026-02-30")).toBe(false);
    expect(isCalendarDate("2026-13-01")).toBe(false);
  });

  // Found by the hostile-input test (seed 29, case 457): GET /api/meetings/available-slots?date=9999-12-31
  // answered 500, because the day after it (+010000-01-01) is no date the office's clock can format.
  test("refuses dates outside the years this site can book or keep (1970 to 2999), so the day after is one too", () => {
    for (const date of ["9999-12-31", "3000-01-01", "1969-12-31", "0101-01-01"])
      expect(isCalendarDate(date)).toBe(false);
    for (const date of ["1970-01-01", "2999-12-31"]) {
      expect(isCalendarDate(date)).toBe(true);
      expect(() => zonedInstant(addDays(date, 1), "00:00", "Europe/Amsterdam")).not.toThrow();
    }
  });
});

/** The office's clock straight from Intl, with no cache: what officeNow must always answer. */
function uncached(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

describe("officeNow remembers the minutes it read lately", () => {
  test("the same answer as Intl at every second around both DST changes and midnight, in three zones", () => {
    const edges = ["2026-03-29T00:58:00Z", "2026-10-25T00:58:00Z", "2026-11-23T22:58:00Z", "2026-03-21T20:28:00Z"];
    for (const zone of ["Europe/Amsterdam", "Asia/Tehran", "Asia/Kathmandu"]) {
      for (const edge of edges) {
        for (let s = 0; s < 240; s += 1) {
          const at = new Date(Date.parse(edge) + s * 1000 + (s % 7) * 111);
          expect(officeNow(at, zone), `${zone} ${at.toISOString()}`).toEqual(uncached(at, zone));
        }
      }
    }
  });

  test("going back in time, between zones, and before 1980 (offsets in seconds) is never answered from the cache", () => {
    const instants = [
      "2026-11-23T09:10:59.999Z",
      "2026-11-23T09:10:00.000Z",
      "2026-11-23T09:09:59.999Z",
      "1900-01-01T00:00:10Z",
    ];
    for (const iso of [...instants, ...instants.reverse()]) {
      for (const zone of ["Europe/Amsterdam", "Asia/Tehran", "UTC"]) {
        expect(officeNow(new Date(iso), zone)).toEqual(uncached(new Date(iso), zone));
      }
    }
  });

  test("a few minutes asked for in turn (one set per consultant) stay right, past the cache's bound too", () => {
    const base = Date.parse("2026-10-25T00:30:00Z");
    for (let round = 0; round < 3; round += 1)
      for (let m = 0; m < 600; m += 1) {
        const at = new Date(base + ((m * 37) % 600) * 60_000 + round * 1000);
        expect(officeNow(at, "Europe/Amsterdam"), at.toISOString()).toEqual(uncached(at, "Europe/Amsterdam"));
      }
  });

  test("the answer is a fresh object each time (a caller may change it)", () => {
    const at = new Date("2026-11-23T09:10:00Z");
    const first = officeNow(at, "Europe/Amsterdam");
    first.date = "changed";
    expect(officeNow(at, "Europe/Amsterdam").date).toBe("2026-11-23");
  });
});
