/**
 * Calendar arithmetic on `yyyy-MM-dd` strings, and the office's wall clock. Dates here are
 * calendar days, not instants: they are computed in UTC so no time zone can shift them.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first and last year a date anywhere in the product may have. */
const FIRST_YEAR = 1970;
const LAST_YEAR = 2999;

/** Whether a `yyyy-MM-dd` string is a real calendar date between 1970 and 2999. */
export function isCalendarDate(date: string): boolean {
  const m = DATE.exec(date);
  if (!m) return false;
  // Years this site books in or keeps records of; the day after 9999-12-31 is no date Intl can format.
  if (Number(m[1]) < FIRST_YEAR || Number(m[1]) > LAST_YEAR) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** A calendar date from its parts (month 1–12); days beyond the month roll over. */
export function ymd(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return ymd(y, m, d + days);
}

/** 1 = Monday … 7 = Sunday. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** ISO weekday of a date. */
export function isoWeekday(date: string): IsoWeekday {
  const [y, m, d] = date.split("-").map(Number);
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() || 7) as IsoWeekday;
}

// One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one, and
// the figures, the export and the date checks ask for office time many times per request.
const clocks = new Map<string, Intl.DateTimeFormat>();
function clock(timeZone: string): Intl.DateTimeFormat {
  let formatter = clocks.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    clocks.set(timeZone, formatter);
  }
  return formatter;
}

// The minutes each zone's clock was read for lately: every request asks for the office's date and
// time at "now" (and a booking day's slots at a few other minutes, one set per consultant), and within
// one minute the answer is the same. One remembered minute per zone made those few evict each other
// on every call (bench:api, whoever is free with three consultants: 14 % of a request in Intl).
// Since 1980 every zone's offset from UTC is whole minutes, so a UTC minute is one wall-clock minute;
// earlier instants are not cached. Bounded: emptied when full.
const minutesSeen = new Map<string, { date: string; time: string }>();
const MAX_MINUTES = 256;
const WHOLE_MINUTE_OFFSETS_FROM = Date.UTC(1980, 0, 1);

/** The office's wall-clock date and time at the instant `now`, whatever the server's time zone. */
export function officeNow(now: Date, timeZone: string): { date: string; time: string } {
  const ms = now.getTime();
  const minute = Math.floor(ms / 60_000);
  const key = `${minute} ${timeZone}`;
  const known = minutesSeen.get(key);
  if (known) return { date: known.date, time: known.time };
  const parts = Object.fromEntries(
    clock(timeZone)
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}`;
  if (ms >= WHOLE_MINUTE_OFFSETS_FROM) {
    if (minutesSeen.size >= MAX_MINUTES) minutesSeen.clear();
    minutesSeen.set(key, { date, time });
  }
  return { date, time };
}

// Instants already worked out: the slots answer asks for the same office day's 16 slots on every
// request once a calendar feed has busy times that day, and each costs four Intl formats. Bounded,
// and a fresh Date is handed out each time (a caller may change it).
const instants = new Map<string, number>();
const MAX_INSTANTS = 10_000;

/** The instant at which it is `date` `time` on the wall clocks of `timeZone` (DST included). */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const key = `${date} ${time} ${timeZone}`;
  let instant = instants.get(key);
  if (instant === undefined) {
    instant = computeZonedInstant(date, time, timeZone);
    if (instants.size >= MAX_INSTANTS) instants.clear();
    instants.set(key, instant);
  }
  return new Date(instant);
}

function computeZonedInstant(date: string, time: string, timeZone: string): number {
  const [y, mo, d] = date.split("-").map(Number);
  const [h, mi] = time.split(":").map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  // The zone's offset at a guess of the instant, then once more at the corrected instant (DST edges).
  let instant = wall;
  for (let i = 0; i < 2; i++) {
    const seen = officeNow(new Date(instant), timeZone);
    const [sy, sm, sd] = seen.date.split("-").map(Number);
    const [sh, smi] = seen.time.split(":").map(Number);
    instant = wall - (Date.UTC(sy, sm - 1, sd, sh, smi) - instant);
  }
  return instant;
}

/** `HH:mm` as minutes since midnight, and back. */
export const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
export const toTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
