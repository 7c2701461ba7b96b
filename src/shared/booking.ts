/**
 * Booking rules, shared by the slots answer, the schedule check and the date picker, so all three
 * agree. Pure functions of (date, now, office rules): no clock and no database in here. Dates are
 * office-local `yyyy-MM-dd`, times `HH:mm` (src/shared/office.ts has the rules themselves).
 */
import { addDays, isCalendarDate, officeNow } from "./dates.ts";
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

/** Slots that can still be booked on `date`: an open day, minus taken slots, minus today's elapsed ones. */
export function availableSlots(date: string, now: Date, taken: readonly string[], rules: OfficeRules): string[] {
  if (dateStatus(date, now, rules) !== "open") return [];
  const office = officeNow(now, rules.timeZone);
  const takenSet = new Set(taken);
  return slotsOn(date, rules).filter((slot) => !takenSet.has(slot) && (date > office.date || slot > office.time));
}

/** Whether one slot may be booked (ignoring whether someone else holds it: the database decides that). */
export function isBookable(date: string, time: string, now: Date, rules: OfficeRules): boolean {
  return availableSlots(date, now, [], rules).includes(time);
}
