/**
 * Booking rules, shared by the slots answer, the schedule check and the date picker, so all three
 * agree. Pure functions of (date, now, office rules): no clock and no database in here. Dates are
 * office-local `yyyy-MM-dd`, times `HH:mm` (src/shared/office.ts has the rules themselves).
 */
import { addDays, isCalendarDate, isoWeekday, officeNow, toMinutes, zonedInstant } from "./dates.ts";
import { closedReason, openingHours, slotsOn, type OfficeRules, type OpeningHours } from "./office.ts";

export { addDays, isCalendarDate, isoWeekday, officeNow } from "./dates.ts";

/** Why a date takes no meetings: "weekend" is any weekday without opening hours. */
export type DateStatus = "open" | "invalid" | "past" | "beyond-horizon" | "weekend" | "closed";

/** Whether meetings can be booked on `date` at all, and if not, why. */
export function dateStatus(date: string, now: Date, rules: OfficeRules): DateStatus {
  if (!isCalendarDate(date)) return "invalid";
  const today = officeNow(now, rules.timeZone).date;
  if (date < today) return "past";
  if (date > addDays(today, rules.horizonDays)) return "beyond-horizon";
  if (!openingHours(date, rules).length) return "weekend";
  if (closedReason(date, rules)) return "closed";
  return "open";
}

/** A stretch of time in which a connected calendar shows the office busy: epoch milliseconds, end exclusive. */
export interface BusyInterval {
  start: number;
  end: number;
}

/** The UTC span of office day `date` (what to read busy intervals for). */
export function officeDaySpan(date: string, rules: OfficeRules): { from: Date; to: Date } {
  return {
    from: zonedInstant(date, "00:00", rules.timeZone),
    to: zonedInstant(addDays(date, 1), "00:00", rules.timeZone),
  };
}

const MINUTE = 60_000;

/**
 * The earliest office-local start a booking may have now: `noticeMinutes` ahead, and never the
 * current minute or earlier (a slot starting now has begun). A slot qualifies when
 * (date, time) >= this; exactly the notice qualifies.
 */
export function earliestStart(now: Date, rules: OfficeRules): { date: string; time: string } {
  const notice = Math.max(rules.guardrails.noticeMinutes * MINUTE, 1);
  // Up to the next whole minute: slots start on whole minutes, so a start at or after this instant is one at or after it rounded up.
  const instant = Math.ceil((now.getTime() + notice) / MINUTE) * MINUTE;
  return officeNow(new Date(instant), rules.timeZone);
}

/** Whether a slot starting at office-local `date` `slot` is at least the notice ahead of `earliest` (earliestStart). */
export function meetsNotice(date: string, slot: string, earliest: { date: string; time: string }): boolean {
  return date > earliest.date || (date === earliest.date && slot >= earliest.time);
}

/**
 * Whether meetings starting at `slot` and `other` on one date keep the buffers between them: the
 * later one starts at least max(after, before) minutes after the earlier one ends (one meeting's
 * buffer after may be the next one's buffer before). The same slot never keeps them.
 */
export function keepsBuffers(slot: string, other: string, rules: OfficeRules): boolean {
  const { bufferBeforeMinutes, bufferAfterMinutes } = rules.guardrails;
  const gap = Math.max(bufferBeforeMinutes, bufferAfterMinutes);
  const a = toMinutes(slot);
  const b = toMinutes(other);
  return a + rules.slotMinutes + gap <= b || b + rules.slotMinutes + gap <= a;
}

/** Whether `count` meetings on one day already reach the admin's daily cap. */
export function dailyLimitReached(count: number, rules: OfficeRules): boolean {
  const limit = rules.guardrails.dailyLimit;
  return limit !== null && count >= limit;
}

/**
 * Whether the meeting starting at `date` `slot`, with its buffers before and after, overlaps any
 * busy interval (touching ends do not overlap).
 */
export function overlapsBusy(date: string, slot: string, rules: OfficeRules, busy: readonly BusyInterval[]): boolean {
  if (!busy.length) return false;
  const { bufferBeforeMinutes, bufferAfterMinutes } = rules.guardrails;
  const begins = zonedInstant(date, slot, rules.timeZone).getTime();
  const start = begins - bufferBeforeMinutes * MINUTE;
  const end = begins + (rules.slotMinutes + bufferAfterMinutes) * MINUTE;
  return busy.some((b) => b.start < end && start < b.end);
}

/**
 * Slots that can still be booked on `date`: an open day below its daily cap, minus slots that
 * start sooner than the notice, minus those too close to a booked meeting (the taken ones
 * included), minus those a connected calendar shows busy (buffers included).
 */
export function availableSlots(
  date: string,
  now: Date,
  taken: readonly string[],
  rules: OfficeRules,
  busy: readonly BusyInterval[] = [],
): string[] {
  if (dateStatus(date, now, rules) !== "open") return [];
  if (dailyLimitReached(taken.length, rules)) return [];
  const earliest = earliestStart(now, rules);
  return slotsOn(date, rules).filter(
    (slot) =>
      meetsNotice(date, slot, earliest) &&
      taken.every((other) => keepsBuffers(slot, other, rules)) &&
      !overlapsBusy(date, slot, rules, busy),
  );
}

/** Whether one slot may be booked (ignoring whether someone else holds it: the database decides that). */
export function isBookable(
  date: string,
  time: string,
  now: Date,
  rules: OfficeRules,
  busy: readonly BusyInterval[] = [],
): boolean {
  return availableSlots(date, now, [], rules, busy).includes(time);
}

/**
 * Why the day's other meetings stop a booking of `time` (they are `taken`, the meeting being moved
 * left out): "daily-limit" when the day is full, "taken" when the slot or its buffers are, or null.
 */
export function dayConflict(
  time: string,
  taken: readonly string[],
  rules: OfficeRules,
): "daily-limit" | "taken" | null {
  if (taken.includes(time) || !taken.every((other) => keepsBuffers(time, other, rules))) return "taken";
  if (dailyLimitReached(taken.length, rules)) return "daily-limit";
  return null;
}

/**
 * Whether a visitor may still move or cancel the meeting at `date` `time` themselves: until
 * `changeCutoffMinutes` before its start, exactly then included.
 */
export function canChangeMeeting(date: string, time: string, now: Date, rules: OfficeRules): boolean {
  const start = zonedInstant(date, time, rules.timeZone).getTime();
  return start - now.getTime() >= rules.guardrails.changeCutoffMinutes * MINUTE;
}

/** What the date picker needs to mark a day (a subset of the calendar answer, src/shared/api/availability.ts). */
export interface CalendarMarks {
  weekdays: readonly number[];
  closedDates: readonly string[];
  /** Days whose daily cap is reached. */
  fullDates: readonly string[];
  /** earliestStart as the server saw it: `yyyy-MM-dd` and `HH:mm`, office time. */
  earliest: { date: string; time: string };
  hours: readonly OpeningHours[];
  slotMinutes: number;
}

/**
 * Whether the date picker shows `date` as bookable: a working weekday, not closed, not full, and
 * with at least one slot that gives the notice. Booked slots and busy calendars are the slots
 * answer's business (a day can look open and have no free time left).
 */
export function calendarDayOpen(date: string, marks: CalendarMarks): boolean {
  if (!marks.weekdays.includes(isoWeekday(date))) return false;
  if (marks.closedDates.includes(date) || marks.fullDates.includes(date)) return false;
  if (date < marks.earliest.date) return false;
  if (date > marks.earliest.date) return true;
  const weekday = isoWeekday(date);
  const earliest = toMinutes(marks.earliest.time);
  return marks.hours.some((p) => {
    if (p.weekday !== weekday) return false;
    const opens = toMinutes(p.opens);
    const closes = toMinutes(p.closes);
    if (opens + marks.slotMinutes > closes) return false;
    const lastStart = opens + Math.floor((closes - opens - marks.slotMinutes) / marks.slotMinutes) * marks.slotMinutes;
    return lastStart >= earliest;
  });
}
