import { describe, expect, test } from "vitest";
import {
  closedDatesBetween,
  closedReason,
  defaultOfficeRules,
  MEETING_MINUTES,
  OFFICE_TIME_ZONE,
  slotsOn,
  workingWeekdays,
  type OfficeRules,
} from "./office";

const rules = defaultOfficeRules;

describe("the office's default rules", () => {
  test("Amsterdam time, 30-minute meetings, Monday to Friday 09:00 to 17:00", () => {
    expect(rules.timeZone).toBe(OFFICE_TIME_ZONE);
    expect(OFFICE_TIME_ZONE).toBe("Europe/Amsterdam");
    expect(rules.slotMinutes).toBe(MEETING_MINUTES);
    expect(MEETING_MINUTES).toBe(30);
    expect(workingWeekdays(rules)).toEqual([1, 2, 3, 4, 5]);
    const monday = slotsOn("2026-11-23", rules);
    expect(monday).toHaveLength(16);
    expect([monday[0], monday.at(-1)]).toEqual(["09:00", "16:30"]);
    expect(slotsOn("2026-11-28", rules)).toEqual([]);
  });

  test("public holidays and the company's own closing days are told apart", () => {
    expect(closedReason("2026-12-25", rules)).toBe("public-holiday");
    expect(closedReason("2026-05-05", rules)).toBe("public-holiday");
    expect(closedReason("2026-12-24", rules)).toBe("company");
    expect(closedReason("2027-12-31", rules)).toBe("company");
    expect(closedReason("2026-04-03", rules)).toBeNull(); // Good Friday
    expect(closedReason("2026-12-23", rules)).toBeNull();
  });

  test("the closed working days of a window, weekends left out", () => {
    // 26 and 27 December 2026 are a Saturday and a Sunday: closed anyway, so not listed.
    expect(closedDatesBetween("2026-12-20", "2027-01-03", rules)).toEqual([
      "2026-12-24",
      "2026-12-25",
      "2026-12-31",
      "2027-01-01",
    ]);
  });

  test("holidays are computed for any year, not typed in until a year runs out", () => {
    expect(closedReason("2041-04-22", rules)).toBe("public-holiday"); // Easter Monday 2041
    expect(closedReason("2041-12-24", rules)).toBe("company");
  });
});

describe("rules an admin will edit", () => {
  test("one-off closing days and ranges (both ends included)", () => {
    const closed: OfficeRules = {
      ...rules,
      closedDates: ["2026-11-30"],
      closedRanges: [{ from: "2026-12-07", to: "2026-12-09" }],
    };
    expect(closedDatesBetween("2026-11-30", "2026-12-11", closed)).toEqual([
      "2026-11-30",
      "2026-12-07",
      "2026-12-08",
      "2026-12-09",
    ]);
  });

  test("opening hours per weekday, with a lunch break and a short Friday", () => {
    const custom: OfficeRules = {
      ...rules,
      hours: [
        { weekday: 1, opens: "13:00", closes: "15:00" },
        { weekday: 1, opens: "09:00", closes: "12:00" },
        { weekday: 5, opens: "10:00", closes: "11:45" },
      ],
    };
    expect(workingWeekdays(custom)).toEqual([1, 5]);
    expect(slotsOn("2026-11-23", custom)).toEqual([
      "09:00",
      "09:30",
      "10:00",
      "10:30",
      "11:00",
      "11:30",
      "13:00",
      "13:30",
      "14:00",
      "14:30",
    ]);
    // A slot must end by closing time: 11:30–12:00 does not fit before 11:45.
    expect(slotsOn("2026-11-27", custom)).toEqual(["10:00", "10:30", "11:00"]);
    expect(slotsOn("2026-11-24", custom)).toEqual([]);
  });

  test("a company that opens on public holidays", () => {
    expect(closedReason("2026-12-25", { ...rules, publicHolidays: false })).toBeNull();
  });
});

describe("yearly closures", () => {
  test("repeat on the same days every year, and a range over New Year wraps", () => {
    const yearly: OfficeRules = {
      ...rules,
      publicHolidays: false,
      closedRanges: [
        { from: "2026-07-20", to: "2026-07-24", yearly: true },
        { from: "2026-12-28", to: "2027-01-02", yearly: true },
      ],
    };
    for (const date of ["2031-07-22", "2029-12-28", "2030-01-02", "2035-12-31"]) {
      expect(closedReason(date, yearly), date).toBe("company");
    }
    for (const date of ["2031-07-25", "2029-12-27", "2030-01-03", "2031-07-19"]) {
      expect(closedReason(date, yearly), date).toBeNull();
    }
  });
});
