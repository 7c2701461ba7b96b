/**
 * Booking rules, shared by the slots answer, the schedule check and the date picker, so all three
 * agree. Pure functions of (date, now, office rules): no clock and no database in here. Dates are
 * office-local `yyyy-MM-dd`, times `HH:mm` (src/shared/office.ts has the rules themselves).
 */
import { addDays, isCalendarDate, officeNow, zonedInstant } from "./dates.ts";
import { closedReason, openingHours, slotsOn, type OfficeRules } from "./office.ts";

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

/** Whether the meeting starting at `date` `slot` overlaps any busy interval (touching ends do not overlap). */
export function overlapsBusy(date: string, slot: string, rules: OfficeRules, busy: readonly BusyInterval[]): boolean {
  if (!busy.length) return false;
  const start = zonedInstant(date, slot, rules.timeZone).getTime();
  const end = start + rules.slotMinutes * 60_000;
  return busy.some((b) => b.start < end && start < b.end);
}

/**
 * Slots that can still be booked on `date`: an open day, minus taken slots, minus today's elapsed
 * ones, minus those a connected calendar shows busy.
 */
export function availableSlots(
  date: string,
  now: Date,
  taken: readonly string[],
  rules: OfficeRules,
  busy: readonly BusyInterval[] = [],
): string[] {
  if (dateStatus(date, now, rules) !== "open") return [];
  const office = officeNow(now, rules.timeZone);
  const takenSet = new Set(taken);
  return slotsOn(date, rules).filter(
    (slot) =>
      !takenSet.has(slot) && (date > office.date || slot > office.time) && !overlapsBusy(date, slot, rules, busy),
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
