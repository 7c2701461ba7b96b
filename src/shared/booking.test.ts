import { describe, expect, test } from "vitest";
import { addDays, availableSlots, dateStatus, isBookable, officeNow } from "./booking";
import { defaultOfficeRules, slotsOn, type OfficeRules } from "./office";
import { zonedInstant } from "./dates";

const config: OfficeRules = { ...defaultOfficeRules, closedDates: ["2026-12-01"] };
const at = (iso: string) => new Date(iso);
const ALL = slotsOn("2026-11-23", config);

describe("working day", () => {
  test("has 16 half-hour slots from 09:00 to 16:30", () => {
    expect(ALL).toHaveLength(16);
    expect(ALL[0]).toBe("09:00");
    expect(ALL.at(-1)).toBe("16:30");
  });
});

describe("today's slots in office time", () => {
  test("elapsed slots disappear, the current one too", () => {
    // 10:00 in Amsterdam (CET, UTC+1) on Monday 2026-11-23.
    expect(availableSlots("2026-11-23", at("2026-11-23T09:00:00Z"), [], config)[0]).toBe("10:30");
    expect(availableSlots("2026-11-23", at("2026-11-23T08:59:00Z"), [], config)[0]).toBe("10:00");
  });
  test("after the last slot, nothing is left today", () => {
    expect(availableSlots("2026-11-23", at("2026-11-23T15:31:00Z"), [], config)).toEqual([]);
  });
  test("taken slots are not offered", () => {
    expect(availableSlots("2026-11-24", at("2026-11-23T12:00:00Z"), ["09:00", "13:30"], config)).not.toContain("13:30");
    expect(availableSlots("2026-11-24", at("2026-11-23T12:00:00Z"), ["09:00", "13:30"], config)).toHaveLength(14);
  });
});

describe("around midnight", () => {
  test("23:30 UTC on Sunday is already Monday in Amsterdam: Monday opens in full", () => {
    const now = at("2026-11-22T23:30:00Z");
    expect(officeNow(now, config.timeZone)).toEqual({ date: "2026-11-23", time: "00:30" });
    expect(availableSlots("2026-11-23", now, [], config)).toEqual(ALL);
    expect(dateStatus("2026-11-22", now, config)).toBe("past");
  });
  test("22:59 UTC on Monday is still Monday in Amsterdam", () => {
    expect(officeNow(at("2026-11-23T22:59:00Z"), config.timeZone).date).toBe("2026-11-23");
  });
});

describe("days without meetings", () => {
  const monday = at("2026-11-23T08:00:00Z");
  test("weekends", () => {
    expect(dateStatus("2026-11-28", monday, config)).toBe("weekend");
    expect(dateStatus("2026-11-29", monday, config)).toBe("weekend");
    expect(availableSlots("2026-11-28", monday, [], config)).toEqual([]);
  });
  test("company closing days and public holidays", () => {
    expect(dateStatus("2026-12-01", monday, config)).toBe("closed");
    expect(availableSlots("2026-12-01", monday, [], config)).toEqual([]);
    expect(dateStatus("2026-12-24", monday, config)).toBe("closed");
    expect(dateStatus("2026-12-25", monday, config)).toBe("closed");
    expect(dateStatus("2026-12-28", monday, config)).toBe("open");
  });
  test("the past", () => {
    expect(dateStatus("2026-11-20", monday, config)).toBe("past");
  });
  test("nothing more than 60 days ahead", () => {
    expect(addDays("2026-11-23", 60)).toBe("2027-01-22");
    expect(dateStatus("2027-01-22", monday, config)).toBe("open");
    expect(dateStatus("2027-01-23", monday, config)).toBe("beyond-horizon");
    expect(dateStatus("2027-01-25", monday, config)).toBe("beyond-horizon");
  });
  test("impossible dates", () => {
    expect(dateStatus("2026-02-30", monday, config)).toBe("invalid");
    expect(dateStatus("26-11-23", monday, config)).toBe("invalid");
  });
});

describe("daylight-saving changes in Europe/Amsterdam", () => {
  test("spring forward (Sunday 2026-03-29): Monday's slots keep their office times", () => {
    // 06:59 UTC on Monday 2026-03-30 is 08:59 CEST (UTC+2): every slot is still ahead.
    expect(availableSlots("2026-03-30", at("2026-03-30T06:59:00Z"), [], config)).toEqual(ALL);
    // 07:00 UTC is 09:00 CEST: the 09:00 slot has begun.
    expect(availableSlots("2026-03-30", at("2026-03-30T07:00:00Z"), [], config)[0]).toBe("09:30");
    // The previous Friday was still winter time: 08:00 UTC is 09:00 CET.
    expect(availableSlots("2026-03-27", at("2026-03-27T08:00:00Z"), [], config)[0]).toBe("09:30");
  });
  test("fall back (Sunday 2026-10-25): the late-evening UTC hour belongs to the next office day", () => {
    // 23:30 UTC on Sunday is 00:30 CET on Monday 2026-10-26.
    expect(officeNow(at("2026-10-25T23:30:00Z"), config.timeZone)).toEqual({ date: "2026-10-26", time: "00:30" });
    // In summer time the same UTC hour of the previous Saturday was 01:30 CEST on Sunday.
    expect(officeNow(at("2026-10-24T23:30:00Z"), config.timeZone)).toEqual({ date: "2026-10-25", time: "01:30" });
    expect(availableSlots("2026-10-26", at("2026-10-26T08:00:00Z"), [], config)[0]).toBe("09:30");
  });
});

describe("isBookable agrees with the slots answer", () => {
  test("for every slot of a day", () => {
    const now = at("2026-11-23T10:10:00Z");
    for (const slot of ALL) {
      expect(isBookable("2026-11-23", slot, now, config)).toBe(
        availableSlots("2026-11-23", now, [], config).includes(slot),
      );
    }
  });
  test("a time that is not a slot start is refused", () => {
    expect(isBookable("2026-11-24", "09:15", at("2026-11-23T10:00:00Z"), config)).toBe(false);
    expect(isBookable("2026-11-24", "17:00", at("2026-11-23T10:00:00Z"), config)).toBe(false);
  });
});

describe("zonedInstant", () => {
  test("asked again, gives the same instant in a fresh Date: changing one does not change the next", () => {
    const first = zonedInstant("2027-03-28", "03:30", "Europe/Amsterdam");
    expect(first.toISOString()).toBe("2027-03-28T01:30:00.000Z");
    first.setTime(0);
    expect(zonedInstant("2027-03-28", "03:30", "Europe/Amsterdam").toISOString()).toBe("2027-03-28T01:30:00.000Z");
    expect(zonedInstant("2027-03-28", "03:30", "Asia/Tehran").toISOString()).toBe("2027-03-28T00:00:00.000Z");
  });
  test("an Amsterdam wall-clock time is the right instant in winter and in summer", () => {
    expect(zonedInstant("2026-11-24", "09:00", "Europe/Amsterdam").toISOString()).toBe("2026-11-24T08:00:00.000Z");
    expect(zonedInstant("2026-07-01", "09:00", "Europe/Amsterdam").toISOString()).toBe("2026-07-01T07:00:00.000Z");
    expect(zonedInstant("2026-03-29", "16:30", "Europe/Amsterdam").toISOString()).toBe("2026-03-29T14:30:00.000Z");
    expect(zonedInstant("2026-11-24", "09:00", "Asia/Tehran").toISOString()).toBe("2026-11-24T05:30:00.000Z");
  });
});

describe("busy times from connected calendars", () => {
  const day = "2026-11-24"; // Tuesday, CET (UTC+1)
  const now = at("2026-11-20T08:00:00Z");
  const busy = [{ start: at("2026-11-24T10:00:00Z").getTime(), end: at("2026-11-24T11:15:00Z").getTime() }];
  test("a slot overlapping a busy event is not offered; slots that only touch it are", () => {
    const slots = availableSlots(day, now, [], config, busy);
    // Busy 11:00–12:15 office time: 10:30 ends as it starts (offered), 11:00, 11:30, 12:00 overlap.
    expect(slots).toContain("10:30");
    expect(slots).not.toContain("11:00");
    expect(slots).not.toContain("11:30");
    expect(slots).not.toContain("12:00");
    expect(slots).toContain("12:30");
    expect(slots).toHaveLength(ALL.length - 3);
  });
  test("isBookable refuses the busy slot and accepts its neighbour", () => {
    expect(isBookable(day, "12:00", now, config, busy)).toBe(false);
    expect(isBookable(day, "12:30", now, config, busy)).toBe(true);
  });
  test("an event of one minute blocks the slot it falls in", () => {
    const minute = [{ start: at("2026-11-24T13:29:00Z").getTime(), end: at("2026-11-24T13:30:00Z").getTime() }];
    expect(availableSlots(day, now, [], config, minute)).not.toContain("14:00");
    expect(availableSlots(day, now, [], config, minute)).toContain("14:30");
  });
});
