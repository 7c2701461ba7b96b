import Holidays from "date-holidays";
import { describe, expect, test } from "vitest";
import { dutchPublicHolidays, easterSunday, type DutchHoliday } from "./holidays";

const days = (year: number) => Object.fromEntries(dutchPublicHolidays(year).map((h) => [h.holiday, h.date]));

/** The official list (rijksoverheid.nl, "Officiële feestdagen"), without Good Friday: see holidays.ts. */
const OFFICIAL: Record<number, Record<DutchHoliday, string>> = {
  2026: {
    newYearsDay: "2026-01-01",
    easterSunday: "2026-04-05",
    easterMonday: "2026-04-06",
    kingsDay: "2026-04-27",
    liberationDay: "2026-05-05",
    ascensionDay: "2026-05-14",
    whitSunday: "2026-05-24",
    whitMonday: "2026-05-25",
    christmasDay: "2026-12-25",
    boxingDay: "2026-12-26",
  },
  2027: {
    newYearsDay: "2027-01-01",
    easterSunday: "2027-03-28",
    easterMonday: "2027-03-29",
    kingsDay: "2027-04-27",
    liberationDay: "2027-05-05",
    ascensionDay: "2027-05-06",
    whitSunday: "2027-05-16",
    whitMonday: "2027-05-17",
    christmasDay: "2027-12-25",
    boxingDay: "2027-12-26",
  },
  2028: {
    newYearsDay: "2028-01-01",
    easterSunday: "2028-04-16",
    easterMonday: "2028-04-17",
    kingsDay: "2028-04-27",
    liberationDay: "2028-05-05",
    ascensionDay: "2028-05-25",
    whitSunday: "2028-06-04",
    whitMonday: "2028-06-05",
    christmasDay: "2028-12-25",
    boxingDay: "2028-12-26",
  },
  2029: {
    newYearsDay: "2029-01-01",
    easterSunday: "2029-04-01",
    easterMonday: "2029-04-02",
    kingsDay: "2029-04-27",
    liberationDay: "2029-05-05",
    ascensionDay: "2029-05-10",
    whitSunday: "2029-05-20",
    whitMonday: "2029-05-21",
    christmasDay: "2029-12-25",
    boxingDay: "2029-12-26",
  },
  2030: {
    newYearsDay: "2030-01-01",
    easterSunday: "2030-04-21",
    easterMonday: "2030-04-22",
    kingsDay: "2030-04-27",
    liberationDay: "2030-05-05",
    ascensionDay: "2030-05-30",
    whitSunday: "2030-06-09",
    whitMonday: "2030-06-10",
    christmasDay: "2030-12-25",
    boxingDay: "2030-12-26",
  },
};

describe("Dutch public holidays", () => {
  test.each([2026, 2027, 2028, 2029, 2030])("%i: the official list, Good Friday excepted", (year) => {
    expect(days(year)).toEqual(OFFICIAL[year]);
  });

  test("Good Friday is a working day (not in the Algemene termijnenwet; most employers work)", () => {
    for (const [year, goodFriday] of [
      [2026, "2026-04-03"],
      [2027, "2027-03-26"],
    ] as const) {
      expect(dutchPublicHolidays(year).map((h) => h.date)).not.toContain(goodFriday);
    }
  });

  test("Liberation Day closes the office every year, not only in the lustrum years 2025 and 2030", () => {
    for (let year = 2025; year <= 2035; year++) expect(days(year).liberationDay).toBe(`${year}-05-05`);
  });

  test("King's Day moves to Saturday 26 April when 27 April is a Sunday (2025, 2031), and not for a Saturday (2030)", () => {
    expect(days(2025).kingsDay).toBe("2025-04-26");
    expect(days(2031).kingsDay).toBe("2031-04-26");
    expect(days(2030).kingsDay).toBe("2030-04-27");
  });

  test("are in date order, even when Ascension falls on Liberation Day (2016)", () => {
    const list = dutchPublicHolidays(2016).map((h) => h.date);
    expect(list).toEqual([...list].sort());
    expect(days(2016)).toMatchObject({ ascensionDay: "2016-05-05", liberationDay: "2016-05-05" });
  });

  test("Easter Sunday by the Gregorian rule, at its earliest and latest dates", () => {
    expect(easterSunday(2285)).toBe("2285-03-22");
    expect(easterSunday(2038)).toBe("2038-04-25");
    expect(easterSunday(2024)).toBe("2024-03-31");
  });

  test("years before King's Day existed (2014) are refused, not answered wrongly", () => {
    expect(() => dutchPublicHolidays(2013)).toThrow(RangeError);
    expect(() => dutchPublicHolidays(2026.5)).toThrow(RangeError);
  });

  // date-holidays (a 1.4 MB dev dependency, never shipped) is an independent oracle: its "public"
  // days are ours; it lists Liberation Day every year too, as a day off for schools only.
  test("agree with date-holidays for 2014 to 2100", () => {
    const oracle = new Holidays("NL");
    for (let year = 2014; year <= 2100; year++) {
      const theirs = oracle.getHolidays(year);
      const expected = theirs.filter((h) => h.type === "public").map((h) => h.date.slice(0, 10));
      expect(theirs.map((h) => h.date.slice(0, 10))).toContain(`${year}-05-05`);
      expect(
        dutchPublicHolidays(year)
          .filter((h) => h.holiday !== "liberationDay")
          .map((h) => h.date),
        String(year),
      ).toEqual(expected.sort());
    }
  });
});
