import { describe, expect, test } from "vitest";
import { addDays } from "#shared/dates.ts";
import { jalaliOf, parseJalali } from "./jalali.ts";

describe("the Persian date field's Jalali days", () => {
  test("writes and reads known days, in Persian or Latin digits", () => {
    expect(jalaliOf("2026-11-29")).toBe("1405/09/08");
    expect(jalaliOf("2026-03-21")).toBe("1405/01/01");
    expect(parseJalali("۱۴۰۵/۰۹/۰۸")).toBe("2026-11-29");
    expect(parseJalali("1405-9-8")).toBe("2026-11-29");
    expect(parseJalali("١٤٠٥/٠١/٠١")).toBe("2026-03-21");
  });

  test("every day of five years goes there and back", () => {
    for (let day = "2024-01-01"; day < "2029-01-01"; day = addDays(day, 1))
      expect(parseJalali(jalaliOf(day))).toBe(day);
  });

  test("refuses what is no day: 31 Mehr, 30 Esfand of a common year, words, nonsense", () => {
    expect(parseJalali("1405/07/31")).toBeNull();
    expect(parseJalali("1404/12/30")).toBeNull();
    expect(parseJalali("1403/12/30")).toBe("2025-03-20");
    for (const text of ["", "tomorrow", "1405/13/01", "1405/00/10", "99999/1/1", "1405/1", "1405/01/01/01"])
      expect(parseJalali(text)).toBeNull();
  });
});
