/**
 * Booking rules, shared by the slots answer, the schedule check and the date picker, so all three
 * agree. Times are office times (Europe/Amsterdam); dates are `yyyy-MM-dd`, times `HH:mm`.
 * Pure functions of (date, now, config): no clock and no database in here.
 */
export interface BookingConfig {
  timeZone: string;
  /** ISO weekdays that take meetings: 1 = Monday … 7 = Sunday. */
  weekdays: readonly number[];
  firstSlot: string;
  lastSlot: string;
  slotMinutes: number;
  /** How far ahead a meeting may be booked, in days from today (office time). */
  horizonDays: number;
  /** Office closing days (public holidays, company days off). */
  closedDates: readonly string[];
}

export const defaultBookingConfig: BookingConfig = {
  timeZone: "Europe/Amsterdam",
  weekdays: [1, 2, 3, 4, 5],
  firstSlot: "09:00",
  lastSlot: "16:30",
  slotMinutes: 30,
  horizonDays: 60,
  // Dutch public holidays that fall on weekdays, 2026 and 2027.
  closedDates: [
    "2026-01-01",
    "2026-04-03",
    "2026-04-06",
    "2026-04-27",
    "2026-05-05",
    "2026-05-14",
    "2026-05-25",
    "2026-12-24",
    "2026-12-25",
    "2026-12-31",
    "2027-01-01",
    "2027-03-26",
    "2027-03-29",
    "2027-04-27",
    "2027-05-05",
    "2027-05-06",
    "2027-05-17",
    "2027-12-24",
    "2027-12-31",
  ],
};

export type DateStatus = "open" | "invalid" | "past" | "beyond-horizon" | "weekend" | "closed";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const toTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** Whether a `yyyy-MM-dd` string is a real calendar date. */
export function isCalendarDate(date: string): boolean {
  const m = DATE.exec(date);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** ISO weekday of a date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay() || 7;
}

/** The office's wall-clock date and time at the instant `now`, whatever the server's time zone. */
export function officeNow(now: Date, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** The instant at which it is `date` `time` on the wall clocks of `timeZone` (DST included). */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
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
  return new Date(instant);
}

/** Every slot start of a working day: 09:00, 09:30, … 16:30. */
export function dailySlots(config: BookingConfig = defaultBookingConfig): string[] {
  const out: string[] = [];
  for (let m = toMinutes(config.firstSlot); m <= toMinutes(config.lastSlot); m += config.slotMinutes)
    out.push(toTime(m));
  return out;
}

/** Whether meetings can be booked on `date` at all, and if not, why. */
export function dateStatus(date: string, now: Date, config: BookingConfig = defaultBookingConfig): DateStatus {
  if (!isCalendarDate(date)) return "invalid";
  const today = officeNow(now, config.timeZone).date;
  if (date < today) return "past";
  if (date > addDays(today, config.horizonDays)) return "beyond-horizon";
  if (!config.weekdays.includes(isoWeekday(date))) return "weekend";
  if (config.closedDates.includes(date)) return "closed";
  return "open";
}

/** Slots that can still be booked on `date`: an open day, minus taken slots, minus today's elapsed ones. */
export function availableSlots(
  date: string,
  now: Date,
  taken: readonly string[],
  config: BookingConfig = defaultBookingConfig,
): string[] {
  if (dateStatus(date, now, config) !== "open") return [];
  const office = officeNow(now, config.timeZone);
  const takenSet = new Set(taken);
  return dailySlots(config).filter((slot) => !takenSet.has(slot) && (date > office.date || slot > office.time));
}

/** Whether one slot may be booked (ignoring whether someone else holds it: the database decides that). */
export function isBookable(
  date: string,
  time: string,
  now: Date,
  config: BookingConfig = defaultBookingConfig,
): boolean {
  return availableSlots(date, now, [], config).includes(time);
}
