import { describe, expect, test } from "vitest";
import { defaultOfficeRules } from "./office.ts";
import { addDays } from "./dates.ts";
import { answerDeadlineDate, isWorkingDay, lastOverdueArrivalDate } from "./working-days.ts";

describe("working days", () => {
  test("are the weekdays with opening hours on which the office is open", () => {
    expect(isWorkingDay("2026-11-23", defaultOfficeRules)).toBe(true); // Monday
    expect(isWorkingDay("2026-11-28", defaultOfficeRules)).toBe(false); // Saturday
    expect(isWorkingDay("2026-12-25", defaultOfficeRules)).toBe(false); // Christmas
    expect(isWorkingDay("2026-12-24", defaultOfficeRules)).toBe(false); // a company closing day
    expect(isWorkingDay("2026-12-01", { ...defaultOfficeRules, closedDates: ["2026-12-01"] })).toBe(false);
  });

  test("an enquiry is answered in time up to the end of the 2nd working day after the day it came in", () => {
    expect(answerDeadlineDate("2026-11-23", defaultOfficeRules)).toBe("2026-11-25"); // Monday → Wednesday
    expect(answerDeadlineDate("2026-11-27", defaultOfficeRules)).toBe("2026-12-01"); // Friday → Tuesday
    expect(answerDeadlineDate("2026-11-28", defaultOfficeRules)).toBe("2026-12-01"); // Saturday → Tuesday
    // 23 December (Wednesday): 24, 25, 26 and 27 are closed, 28 and 29 are working days.
    expect(answerDeadlineDate("2026-12-23", defaultOfficeRules)).toBe("2026-12-29");
  });
});

describe("lastOverdueArrivalDate", () => {
  test("is the last arrival day whose two working days are over, and inverts answerDeadlineDate", () => {
    // Wednesday 2026-11-25: Monday's enquiry was due Wednesday (not late yet); Friday's before it was due Tuesday.
    expect(lastOverdueArrivalDate("2026-11-25", defaultOfficeRules)).toBe("2026-11-22");
    for (let day = "2026-11-01"; day < "2027-01-31"; day = addDays(day, 1)) {
      const last = lastOverdueArrivalDate(day, defaultOfficeRules);
      expect(answerDeadlineDate(last, defaultOfficeRules) < day, day).toBe(true);
      expect(answerDeadlineDate(addDays(last, 1), defaultOfficeRules) >= day, day).toBe(true);
    }
  });
});
