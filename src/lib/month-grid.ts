/**
 * Month pages for the booking calendar, in the Gregorian calendar or the Persian (Solar Hijri)
 * one: which `yyyy-MM-dd` days a month holds and how they fall into weeks. Persian months start
 * and end in the middle of Gregorian ones (1 Azar is 22 November), so a month is found by walking
 * days and asking `Intl` which month each belongs to.
 */
import { addDays, isoWeekday } from "../shared/dates";
import { calendarParts } from "../shared/format";

export type CalendarSystem = "gregory" | "persian";

/** The first and last day of the month that holds `date`. */
export function monthBounds(date: string, system: CalendarSystem): { first: string; last: string } {
  const { day } = calendarParts(date, system);
  const first = addDays(date, 1 - day);
  const { month } = calendarParts(first, system);
  // Every month in both calendars has 29 to 31 days.
  let last = addDays(first, 28);
  while (calendarParts(addDays(last, 1), system).month === month) last = addDays(last, 1);
  return { first, last };
}

/** The first day of the month `delta` months after the one that holds `date`. */
export function shiftMonth(date: string, system: CalendarSystem, delta: number): string {
  let { first } = monthBounds(date, system);
  for (let i = 0; i < Math.abs(delta); i++) {
    first = delta > 0 ? addDays(monthBounds(first, system).last, 1) : monthBounds(addDays(first, -1), system).first;
  }
  return first;
}

/**
 * The weeks of a month as rows of seven cells, `null` where a cell belongs to another month.
 * `weekStart` is the ISO weekday a week starts on: 1 (Monday) in Europe, 6 (Saturday) in Iran.
 */
export function monthWeeks(date: string, system: CalendarSystem, weekStart: number): (string | null)[][] {
  const { first, last } = monthBounds(date, system);
  const weeks: (string | null)[][] = [];
  let week: (string | null)[] = Array.from({ length: (isoWeekday(first) - weekStart + 7) % 7 }, () => null);
  for (let day = first; day <= last; day = addDays(day, 1)) {
    week.push(day);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}
