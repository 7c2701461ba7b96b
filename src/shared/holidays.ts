/**
 * Dutch public holidays, computed by rule for any year from 2014, so no hand-typed list runs out.
 *
 * The office keeps the holidays of the Algemene termijnenwet (the Dutch law that lists the
 * generally recognised public holidays), which is also the list most employers give off:
 * New Year's Day, Easter Sunday and Monday, King's Day, Liberation Day, Ascension Day, Whit Sunday
 * and Monday, Christmas Day and Boxing Day. Two days are often asked about:
 * - Good Friday is not on that list and most employers work on it: the office is open.
 * - Liberation Day (5 May) is on that list every year, so the office closes every year (some
 *   collective agreements give it off only every five years, 2025, 2030, …; we do not follow those).
 * King's Day is 27 April, or Saturday 26 April when the 27th is a Sunday. It replaced Queen's Day
 * (30 April) in 2014; earlier years are refused rather than answered wrongly.
 * Company closing days (24 and 31 December) are not public holidays: see src/shared/office.ts.
 */
import { addDays, isoWeekday, ymd } from "./dates.ts";

export type DutchHoliday =
  | "newYearsDay"
  | "easterSunday"
  | "easterMonday"
  | "kingsDay"
  | "liberationDay"
  | "ascensionDay"
  | "whitSunday"
  | "whitMonday"
  | "christmasDay"
  | "boxingDay";

export interface PublicHoliday {
  /** yyyy-MM-dd */
  date: string;
  holiday: DutchHoliday;
}

/** Easter Sunday of a year in the Gregorian calendar (the anonymous Gregorian algorithm, "Meeus/Jones/Butcher"). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return ymd(year, month, day);
}

/** The first year the King's Day rule holds. */
export const FIRST_HOLIDAY_YEAR = 2014;

/** The Dutch public holidays of `year`, in date order. */
export function dutchPublicHolidays(year: number): PublicHoliday[] {
  if (!Number.isInteger(year) || year < FIRST_HOLIDAY_YEAR || year > 9999) {
    throw new RangeError(`Dutch public holidays are computed for ${FIRST_HOLIDAY_YEAR} to 9999, not ${year}`);
  }
  const easter = easterSunday(year);
  const kingsDay = ymd(year, 4, 27);
  const list: PublicHoliday[] = [
    { date: ymd(year, 1, 1), holiday: "newYearsDay" },
    { date: easter, holiday: "easterSunday" },
    { date: addDays(easter, 1), holiday: "easterMonday" },
    { date: isoWeekday(kingsDay) === 7 ? ymd(year, 4, 26) : kingsDay, holiday: "kingsDay" },
    { date: ymd(year, 5, 5), holiday: "liberationDay" },
    { date: addDays(easter, 39), holiday: "ascensionDay" },
    { date: addDays(easter, 49), holiday: "whitSunday" },
    { date: addDays(easter, 50), holiday: "whitMonday" },
    { date: ymd(year, 12, 25), holiday: "christmasDay" },
    { date: ymd(year, 12, 26), holiday: "boxingDay" },
  ];
  // Ascension can fall on 5 May (it did in 2016): both stay listed.
  return list.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
}
