/**
 * The office rules: when the office takes meetings. The data is one `OfficeRules` object and every
 * function here takes it as an argument, so the API, the date picker, the emails and the tests read
 * the same rules. The editable parts (opening hours per weekday, closures, whether public holidays
 * close the office) live in the database and are edited in the admin (db/availability.repository.ts);
 * `defaultOfficeRules` is what a new database starts with.
 */
import { addDays, isoWeekday, toMinutes, toTime, type IsoWeekday } from "./dates.ts";
import { dutchPublicHolidays } from "./holidays.ts";

/** The office's time zone: every meeting date and time is wall-clock time here. */
export const OFFICE_TIME_ZONE = "Europe/Amsterdam";

/** A meeting's length, which is also the step between slot starts: meetings start every 30 minutes. */
export const MEETING_MINUTES = 30;

export type { IsoWeekday } from "./dates.ts";

/** One opening period of a weekday, office time (`HH:mm`); a weekday may have several, e.g. around a lunch break. */
export interface OpeningHours {
  weekday: IsoWeekday;
  opens: string;
  closes: string;
}

/** A company closure from `from` to `to`, both included (yyyy-MM-dd); `yearly`: on those days of every year. */
export interface ClosedRange {
  from: string;
  to: string;
  yearly?: boolean;
}

export interface OfficeRules {
  /** IANA time zone of the office. Fixed in code (OFFICE_TIME_ZONE): stored meetings are in it. */
  timeZone: string;
  /** Meeting length and slot step. Fixed in code (MEETING_MINUTES): the emails and invites say it. */
  slotMinutes: number;
  /** How far ahead a meeting may be booked, in days from today (office time). */
  horizonDays: number;
  /** Opening hours; a weekday without any is closed. Editable. */
  hours: readonly OpeningHours[];
  /** Whether the office closes on the Dutch public holidays (src/shared/holidays.ts). */
  publicHolidays: boolean;
  /** Extra company closing days, yyyy-MM-dd (BOOKING_CLOSED_DATES). */
  closedDates: readonly string[];
  /** Company closures, one-off or yearly. Kept apart from public holidays: they are the company's choice. Editable. */
  closedRanges: readonly ClosedRange[];
  /** Notice, buffers, the daily cap and the visitor's change cut-off. Editable. */
  guardrails: BookingGuardrails;
}

/**
 * The admin's limits on bookings (src/shared/booking.ts applies them). Every "at least N minutes
 * ahead" holds at exactly N: a slot starting exactly `noticeMinutes` from now is offered, and a
 * visitor can still move or cancel exactly `changeCutoffMinutes` before the start.
 */
export interface BookingGuardrails {
  /** A slot is offered only if it starts at least this many minutes from now. */
  noticeMinutes: number;
  /** Free time kept before each meeting: no other meeting or busy calendar event may end within it. */
  bufferBeforeMinutes: number;
  /** Free time kept after each meeting: no other meeting or busy calendar event may start within it. */
  bufferAfterMinutes: number;
  /** At most this many meetings on one day (cancelled ones do not count); null: no cap. */
  dailyLimit: number | null;
  /** The visitor's manage link moves or cancels a meeting only until this many minutes before its start. */
  changeCutoffMinutes: number;
}

/**
 * What a new database starts with, and an upgraded one keeps until the admin chooses: no notice
 * beyond "not in the past", no buffer, no cap, changes until the start. Booking behaves as before
 * the guardrails existed; the admin's availability page sets them.
 */
export const defaultGuardrails: BookingGuardrails = {
  noticeMinutes: 0,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  dailyLimit: null,
  changeCutoffMinutes: 0,
};

/** Where meetings happen: at the office, by phone (we call the visitor), or in a video room made per meeting. */
export type MeetingPlaceKind = "office" | "phone" | "video";
export const MEETING_PLACE_KINDS: readonly MeetingPlaceKind[] = ["office", "phone", "video"];

/** The admin's choice of meeting place; `videoPattern`'s `{random}` becomes a fresh room name per meeting. */
export interface MeetingPlaceSetting {
  kind: MeetingPlaceKind;
  videoPattern: string;
}

/** A Jitsi room with an unguessable name per meeting: free, no account, works in a browser. */
export const DEFAULT_VIDEO_PATTERN = "https://meet.jit.si/bridgewise-{random}";

/** Meetings at the office, unless the admin chooses otherwise (the consultancy's first meetings are in person). */
export const defaultMeetingPlace: MeetingPlaceSetting = { kind: "office", videoPattern: DEFAULT_VIDEO_PATTERN };

const WORKING_DAY = { opens: "09:00", closes: "17:00" } as const;

/** Monday to Friday 09:00–17:00 (the last slot starts at 16:30), closed on public holidays and on 24 and 31 December. */
export const defaultOfficeRules: OfficeRules = {
  timeZone: OFFICE_TIME_ZONE,
  slotMinutes: MEETING_MINUTES,
  horizonDays: 60,
  hours: ([1, 2, 3, 4, 5] as const).map((weekday) => ({ weekday, ...WORKING_DAY })),
  publicHolidays: true,
  closedDates: [],
  closedRanges: [
    { from: "2026-12-24", to: "2026-12-24", yearly: true },
    { from: "2026-12-31", to: "2026-12-31", yearly: true },
  ],
  guardrails: defaultGuardrails,
};

/** Whether a closure covers `date`; a yearly one by month and day (a range over New Year wraps). */
export function rangeCovers(range: ClosedRange, date: string): boolean {
  if (!range.yearly) return range.from <= date && date <= range.to;
  const day = date.slice(5);
  const from = range.from.slice(5);
  const to = range.to.slice(5);
  // One that ends in the next year (24 December to 2 January) wraps over New Year; closures are shorter than a year.
  if (range.from.slice(0, 4) !== range.to.slice(0, 4)) return day >= from || day <= to;
  return from <= day && day <= to;
}

export type ClosedReason = "public-holiday" | "company";

const holidaysByYear = new Map<number, ReadonlySet<string>>();

/** Whether a date is a Dutch public holiday. */
export function isPublicHoliday(date: string): boolean {
  const year = Number(date.slice(0, 4));
  let dates = holidaysByYear.get(year);
  if (!dates) {
    dates = new Set(dutchPublicHolidays(year).map((h) => h.date));
    holidaysByYear.set(year, dates);
  }
  return dates.has(date);
}

/** Why the office is closed all day on `date` whatever its weekday, or null. */
export function closedReason(date: string, rules: OfficeRules): ClosedReason | null {
  if (rules.publicHolidays && isPublicHoliday(date)) return "public-holiday";
  if (rules.closedDates.includes(date) || rules.closedRanges.some((range) => rangeCovers(range, date))) {
    return "company";
  }
  return null;
}

/** The opening periods of a date's weekday, earliest first; none on a closed weekday. */
export function openingHours(date: string, rules: OfficeRules): OpeningHours[] {
  const weekday = isoWeekday(date);
  return rules.hours.filter((h) => h.weekday === weekday).sort((a, b) => toMinutes(a.opens) - toMinutes(b.opens));
}

/** The weekdays with opening hours. */
export function workingWeekdays(rules: OfficeRules): IsoWeekday[] {
  return [...new Set(rules.hours.map((h) => h.weekday))].sort((a, b) => a - b);
}

/**
 * Every slot start of a date by its opening hours (closures aside): a slot starts every
 * `slotMinutes` and must end by closing time, so 09:00–17:00 gives 09:00, 09:30, … 16:30.
 */
export function slotsOn(date: string, rules: OfficeRules): string[] {
  const out: string[] = [];
  for (const period of openingHours(date, rules)) {
    const closes = toMinutes(period.closes);
    for (let m = toMinutes(period.opens); m + rules.slotMinutes <= closes; m += rules.slotMinutes) out.push(toTime(m));
  }
  return out;
}

/** The dates from `from` to `to` (included) that would be working days but are closed: what a calendar greys out. */
export function closedDatesBetween(from: string, to: string, rules: OfficeRules): string[] {
  const out: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    if (openingHours(date, rules).length && closedReason(date, rules)) out.push(date);
  }
  return out;
}
