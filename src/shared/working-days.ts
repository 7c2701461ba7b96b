/**
 * Working days by the office rules (src/shared/office.ts): a day with opening hours on which the
 * office is not closed (public holiday, company closing day or range). The dashboard's "processed
 * within 2 working days" counts with these.
 */
import { addDays, officeNow, zonedInstant } from "./dates.ts";
import { closedReason, openingHours, type OfficeRules } from "./office.ts";

/** How many working days an enquiry may wait for an answer. */
export const ANSWER_WITHIN_WORKING_DAYS = 2;

export const isWorkingDay = (date: string, rules: OfficeRules): boolean =>
  openingHours(date, rules).length > 0 && closedReason(date, rules) === null;

/**
 * The last day an enquiry received on `date` (office time) is answered in time: the `count`th
 * working day after that date. Received on a Monday: Wednesday; on a Friday, a Saturday or a
 * Sunday: Tuesday; a holiday in between moves it on by a day. The arrival day itself never counts,
 * so an enquiry that came in at 16:55 still gets two whole working days.
 */
export function answerDeadlineDate(date: string, rules: OfficeRules, count = ANSWER_WITHIN_WORKING_DAYS): string {
  let day = date;
  // A year without a single working day would loop for ever: give up after a year and a bit.
  for (let seen = 0, steps = 0; seen < count && steps < 400; steps++) {
    day = addDays(day, 1);
    if (isWorkingDay(day, rules)) seen++;
  }
  return day;
}

/**
 * The last arrival date (office time) whose answer is late on `today`: an enquiry received on it
 * or before and still unanswered is overdue. The inverse of answerDeadlineDate, which never
 * decreases as the arrival date moves on, so the first date back from today that is late is it.
 */
export function lastOverdueArrivalDate(today: string, rules: OfficeRules, count = ANSWER_WITHIN_WORKING_DAYS): string {
  let day = addDays(today, -1);
  for (let steps = 0; steps < 400 && answerDeadlineDate(day, rules, count) >= today; steps++) day = addDays(day, -1);
  return day;
}

/**
 * The moment an enquiry received at `receivedAt` and still waiting on us (stage new) becomes
 * overdue: the start, office time, of the day after its answerDeadlineDate. Received on a Friday at
 * 17:00: Wednesday 00:00; with the Monday or the Tuesday a holiday or a closing day, Thursday.
 */
export function answerOverdueAt(receivedAt: Date, rules: OfficeRules, count = ANSWER_WITHIN_WORKING_DAYS): Date {
  const received = officeNow(receivedAt, rules.timeZone).date;
  return zonedInstant(addDays(answerDeadlineDate(received, rules, count), 1), "00:00", rules.timeZone);
}

/** Whether a lead still waiting on us, received at `receivedAt`, is overdue at `now`. */
export const isAnswerOverdue = (receivedAt: Date, now: Date, rules: OfficeRules): boolean =>
  now.getTime() >= answerOverdueAt(receivedAt, rules).getTime();

/** Whether a follow-up date (yyyy-MM-dd) has come: on or before today, office time. */
export const isFollowUpDue = (followUpOn: string, now: Date, rules: OfficeRules): boolean =>
  followUpOn <= officeNow(now, rules.timeZone).date;
