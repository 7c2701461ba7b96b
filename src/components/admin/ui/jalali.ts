/**
 * Jalali (Solar Hijri) days written as the panel's Persian date field shows and reads them:
 * "1405/09/08" (the field puts the digits in Persian). The calendar itself is `Intl`'s, as
 * everywhere on the site (shared/format.ts calendarParts); a typed day is found by walking from
 * the Nowruz of its year and checked against `Intl` on the way back.
 */
import { addDays, isCalendarDate, ymd } from "#shared/dates.ts";
import { calendarParts } from "#shared/format.ts";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** "1405/09/08" for 2026-11-29. */
export function jalaliOf(isoDate: string): string {
  const { year, month, day } = calendarParts(isoDate, "persian");
  return `${pad(year, 4)}/${pad(month)}/${pad(day)}`;
}

/** Persian and Arabic-Indic digits as Latin ones. */
const latinDigits = (text: string) =>
  text.replace(/[۰-۹٠-٩]/g, (d) => String((d.charCodeAt(0) - (d >= "۰" ? 0x06f0 : 0x0660)) % 10));

/** The ISO day of a typed Jalali date ("۱۴۰۵/۹/۸", "1405-09-08"), or null when it is no such day. */
export function parseJalali(text: string): string | null {
  const m = /^\s*(\d{4})\s*[/\-.\s]\s*(\d{1,2})\s*[/\-.\s]\s*(\d{1,2})\s*$/.exec(latinDigits(text));
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1300 || year > 1500 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  // Nowruz (1 Farvardin) falls on 19 to 22 March of the Gregorian year 621 later.
  let nowruz: string | null = null;
  for (let d = 19; d <= 22 && !nowruz; d++) {
    const candidate = ymd(year + 621, 3, d);
    const p = calendarParts(candidate, "persian");
    if (p.year === year && p.month === 1 && p.day === 1) nowruz = candidate;
  }
  if (!nowruz) return null;
  // Months 1–6 have 31 days, 7–11 have 30, Esfand 29 or 30.
  const offset = (month <= 6 ? (month - 1) * 31 : 186 + (month - 7) * 30) + day - 1;
  const iso = addDays(nowruz, offset);
  const back = calendarParts(iso, "persian");
  return isCalendarDate(iso) && back.year === year && back.month === month && back.day === day ? iso : null;
}
