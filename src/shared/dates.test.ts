import { describe, expect, test } from "vitest";
import { addDays, isCalendarDate, zonedInstant } from "./dates.ts";

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
