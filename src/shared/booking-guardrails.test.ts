/**
 * The admin's guardrails at their edges, as pure functions (src/shared/booking.ts): the slots answer,
 * the schedule check, a move and the date picker all decide with these.
 * Monday 2026-11-23 is CET (UTC+1): 10:00 in Amsterdam is 09:00Z.
 */
import { describe, expect, test } from "vitest";
import {
  availableSlots,
  calendarDayOpen,
  canChangeMeeting,
  dayConflict,
  earliestStart,
  isBookable,
  keepsBuffers,
} from "./booking";
import { defaultGuardrails, defaultOfficeRules, type BookingGuardrails, type OfficeRules } from "./office";

const rules = (g: Partial<BookingGuardrails>): OfficeRules => ({
  ...defaultOfficeRules,
  guardrails: { ...defaultGuardrails, ...g },
});
const at = (iso: string) => new Date(iso);

describe("minimum notice", () => {
  test("a slot starting exactly the notice from now is offered; a millisecond later it is not", () => {
    const hour = rules({ noticeMinutes: 60 });
    // 10:00:00 in Amsterdam: 11:00 is exactly 60 minutes ahead.
    expect(availableSlots("2026-11-23", at("2026-11-23T09:00:00.000Z"), [], hour)[0]).toBe("11:00");
    expect(isBookable("2026-11-23", "11:00", at("2026-11-23T09:00:00.000Z"), hour)).toBe(true);
    expect(availableSlots("2026-11-23", at("2026-11-23T09:00:00.001Z"), [], hour)[0]).toBe("11:30");
    expect(isBookable("2026-11-23", "11:00", at("2026-11-23T09:00:00.001Z"), hour)).toBe(false);
  });
  test("without notice a slot is offered until the minute it starts, as before the guardrails", () => {
    const none = rules({});
    expect(isBookable("2026-11-23", "10:00", at("2026-11-23T08:59:59.999Z"), none)).toBe(true);
    expect(isBookable("2026-11-23", "10:00", at("2026-11-23T09:00:00.000Z"), none)).toBe(false);
  });
  test("24 hours of notice: nothing today, tomorrow from the same time on", () => {
    const day = rules({ noticeMinutes: 24 * 60 });
    const now = at("2026-11-23T09:00:00Z");
    expect(availableSlots("2026-11-23", now, [], day)).toEqual([]);
    expect(availableSlots("2026-11-24", now, [], day)[0]).toBe("10:00");
    expect(isBookable("2026-11-24", "09:30", now, day)).toBe(false);
    expect(earliestStart(now, day)).toEqual({ date: "2026-11-24", time: "10:00" });
  });
  test("the earliest start rounds up to the next whole minute", () => {
    expect(earliestStart(at("2026-11-23T09:00:30Z"), rules({ noticeMinutes: 30 }))).toEqual({
      date: "2026-11-23",
      time: "10:31",
    });
  });
});

describe("buffers between meetings", () => {
  test("a 15-minute buffer: the slots next to a booked 10:00 go, those 30 minutes away stay", () => {
    const buffered = rules({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15 });
    const free = availableSlots("2026-11-24", at("2026-11-23T09:00:00Z"), ["10:00"], buffered);
    expect(free).not.toContain("09:30");
    expect(free).not.toContain("10:00");
    expect(free).not.toContain("10:30");
    expect(free).toContain("09:00");
    expect(free).toContain("11:00");
  });
  test("exactly the buffer apart is enough: 30 minutes after, the 11:00 after a 10:00 meeting books", () => {
    const after = rules({ bufferAfterMinutes: 30 });
    expect(keepsBuffers("11:00", "10:00", after)).toBe(true);
    expect(keepsBuffers("10:30", "10:00", after)).toBe(false);
    // One meeting's buffer after is the next one's buffer before: the gap is the larger of the two.
    expect(keepsBuffers("09:00", "10:00", after)).toBe(true);
    expect(keepsBuffers("09:30", "10:00", after)).toBe(false);
    expect(dayConflict("10:30", ["10:00"], after)).toBe("taken");
    expect(dayConflict("11:00", ["10:00"], after)).toBeNull();
  });
  test("a busy calendar event keeps the buffers too; touching the buffer's end is not overlapping", () => {
    // Busy 11:00–12:00 Amsterdam time.
    const busy = [{ start: Date.parse("2026-11-24T10:00:00Z"), end: Date.parse("2026-11-24T11:00:00Z") }];
    const now = at("2026-11-23T09:00:00Z");
    const buffered = rules({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15 });
    const free = availableSlots("2026-11-24", now, [], buffered, busy);
    expect(free).toContain("10:00");
    expect(free).not.toContain("10:30");
    expect(free).not.toContain("12:00");
    expect(free).toContain("12:30");
    // A 30-minute buffer after a 10:00 meeting ends exactly at 11:00, when the event starts.
    expect(isBookable("2026-11-24", "10:00", now, rules({ bufferAfterMinutes: 30 }), busy)).toBe(true);
    expect(isBookable("2026-11-24", "10:00", now, rules({ bufferAfterMinutes: 31 }), busy)).toBe(false);
    expect(isBookable("2026-11-24", "12:00", now, rules({ bufferBeforeMinutes: 0 }), busy)).toBe(true);
  });
});

describe("daily cap", () => {
  test("the cap-th meeting can be booked, after it the day offers nothing", () => {
    const three = rules({ dailyLimit: 3 });
    const now = at("2026-11-23T09:00:00Z");
    expect(dayConflict("13:00", ["09:00", "10:00"], three)).toBeNull();
    expect(availableSlots("2026-11-24", now, ["09:00", "10:00"], three)).toHaveLength(14);
    expect(dayConflict("13:00", ["09:00", "10:00", "11:00"], three)).toBe("daily-limit");
    expect(availableSlots("2026-11-24", now, ["09:00", "10:00", "11:00"], three)).toEqual([]);
  });
  test("no cap: a full day of bookings leaves only untaken slots", () => {
    const taken = ["09:00", "09:30", "10:00"];
    expect(availableSlots("2026-11-24", at("2026-11-23T09:00:00Z"), taken, rules({}))).toHaveLength(13);
  });
});

describe("change cut-off", () => {
  // The meeting: Tuesday 2026-11-24 at 10:00 Amsterdam, 09:00Z.
  test("exactly the cut-off before the start a change is still allowed; a millisecond later it is not", () => {
    const twoHours = rules({ changeCutoffMinutes: 120 });
    expect(canChangeMeeting("2026-11-24", "10:00", at("2026-11-24T07:00:00.000Z"), twoHours)).toBe(true);
    expect(canChangeMeeting("2026-11-24", "10:00", at("2026-11-24T07:00:00.001Z"), twoHours)).toBe(false);
  });
  test("without a cut-off, changes are allowed until the start", () => {
    expect(canChangeMeeting("2026-11-24", "10:00", at("2026-11-24T09:00:00.000Z"), rules({}))).toBe(true);
    expect(canChangeMeeting("2026-11-24", "10:00", at("2026-11-24T09:00:00.001Z"), rules({}))).toBe(false);
  });
});

describe("the date picker's day marks", () => {
  const marks = {
    weekdays: [1, 2, 3, 4, 5],
    closedDates: ["2026-11-26"],
    fullDates: ["2026-11-25"],
    earliest: { date: "2026-11-24", time: "16:30" },
    hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday: weekday as 1, opens: "09:00", closes: "17:00" })),
    slotMinutes: 30,
  };
  test("a day before the notice allows, a full day and a closed day are not bookable", () => {
    expect(calendarDayOpen("2026-11-23", marks)).toBe(false);
    expect(calendarDayOpen("2026-11-25", marks)).toBe(false);
    expect(calendarDayOpen("2026-11-26", marks)).toBe(false);
    expect(calendarDayOpen("2026-11-27", marks)).toBe(true);
    expect(calendarDayOpen("2026-11-28", marks)).toBe(false);
  });
  test("the notice's own day is open while its last slot is still ahead, exactly included", () => {
    expect(calendarDayOpen("2026-11-24", marks)).toBe(true);
    expect(calendarDayOpen("2026-11-24", { ...marks, earliest: { date: "2026-11-24", time: "16:31" } })).toBe(false);
  });
  test("agrees with the slots answer at the notice's edge", () => {
    const r = rules({ noticeMinutes: 24 * 60 + 390 });
    // 10:00 Monday + 30 h 30 min = 16:30 Tuesday: the last slot of Tuesday, exactly.
    const now = at("2026-11-23T09:00:00Z");
    const day = { ...marks, fullDates: [], closedDates: [], earliest: earliestStart(now, r) };
    expect(availableSlots("2026-11-24", now, [], r)).toEqual(["16:30"]);
    expect(calendarDayOpen("2026-11-24", day)).toBe(true);
    const later = at("2026-11-23T09:00:00.001Z");
    expect(availableSlots("2026-11-24", later, [], r)).toEqual([]);
    expect(calendarDayOpen("2026-11-24", { ...day, earliest: earliestStart(later, r) })).toBe(false);
  });
});
