import { describe, expect, test } from "vitest";
import { monthBounds, monthWeeks, shiftMonth } from "./month-grid";

describe("monthBounds", () => {
  test("Gregorian months", () => {
    expect(monthBounds("2026-11-24", "gregory")).toEqual({ first: "2026-11-01", last: "2026-11-30" });
    expect(monthBounds("2028-02-10", "gregory")).toEqual({ first: "2028-02-01", last: "2028-02-29" });
  });
  test("Persian months: Azar 1405 runs from 22 November to 21 December 2026", () => {
    expect(monthBounds("2026-11-24", "persian")).toEqual({ first: "2026-11-22", last: "2026-12-21" });
    // Esfand, the last month of 1405, has 29 days; Farvardin 1406 starts on 21 March 2027.
    expect(monthBounds("2027-03-01", "persian")).toEqual({ first: "2027-02-20", last: "2027-03-20" });
    expect(monthBounds("2027-03-21", "persian").first).toBe("2027-03-21");
  });
});

describe("shiftMonth", () => {
  test("moves whole months forward and back", () => {
    expect(shiftMonth("2026-11-24", "gregory", 1)).toBe("2026-12-01");
    expect(shiftMonth("2026-11-24", "gregory", -1)).toBe("2026-10-01");
    expect(shiftMonth("2026-11-24", "persian", 1)).toBe("2026-12-22");
    expect(shiftMonth("2026-11-24", "persian", -1)).toBe("2026-10-23");
    expect(shiftMonth("2026-12-31", "gregory", 2)).toBe("2027-02-01");
  });
});

describe("monthWeeks", () => {
  test("a Monday-first Gregorian month: November 2026 starts on a Sunday", () => {
    const weeks = monthWeeks("2026-11-10", "gregory", 1);
    expect(weeks[0]).toEqual([null, null, null, null, null, null, "2026-11-01"]);
    expect(weeks.at(-1)).toEqual(["2026-11-30", null, null, null, null, null, null]);
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
  });
  test("a Saturday-first Persian month: 1 Azar 1405 is a Sunday, the second column", () => {
    const weeks = monthWeeks("2026-11-24", "persian", 6);
    expect(weeks[0].slice(0, 3)).toEqual([null, "2026-11-22", "2026-11-23"]);
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
  });
});
