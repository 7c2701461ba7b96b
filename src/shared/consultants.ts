/**
 * Consultants: the people a visitor books. A consultant's id is their team member's id
 * (src/data/team.json: name, photo, bio, the languages they speak and the services they take); the
 * database holds who is active, their own weekly hours, closures, calendars and meetings. Here: the
 * id's shape, what a visitor may ask for, and the fair rule that picks "whoever is free". Pure: no
 * clock and no database.
 */
import { addDays, toMinutes } from "./dates.ts";
import type { Language } from "./languages.ts";
import {
  closedReason,
  openingHours,
  workingWeekdays,
  type ClosedRange,
  type IsoWeekday,
  type OfficeRules,
  type OpeningHours,
} from "./office.ts";
import type { ServiceId } from "./services.ts";

/** A consultant's id: a team member's id (lower-case letters, digits and dashes). */
export const CONSULTANT_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const CONSULTANT_ID_MAX = 64;

/**
 * The consultant an install's first admin account becomes: the first member of src/data/team.json
 * as shipped (a test keeps the two equal; the consultants migration uses the same id).
 */
export const FIRST_CONSULTANT_ID = "nasrin-farahani";

/** What a visitor asks for: whoever is free, or one consultant by id. */
export const ANY_CONSULTANT = "any";
export type ConsultantChoice = typeof ANY_CONSULTANT | (string & {});

/** A bookable consultant as the public API lists them (their profile texts are the team section's). */
export interface PublicConsultant {
  id: string;
  languages: Language[];
  services: ServiceId[];
}

/** What the fair rule compares of one consultant who is free at the slot. */
export interface ConsultantLoad {
  id: string;
  /** Their standing meetings from 30 days before today on, those booked ahead included. */
  recent: number;
  /** When their latest meeting was booked (ISO 8601), or null when they have none. */
  lastBookedAt: string | null;
}

/** How many days back the fair rule counts a consultant's meetings. */
export const FAIR_WINDOW_DAYS = 30;

/**
 * Why a meeting went to its consultant, kept with it so an admin can see it: the visitor chose
 * them, they were the only one free, or the fair rule picked them among `compared` (the loads it
 * read, in the order it ranked them).
 */
export type Assignment = { rule: "chosen" } | { rule: "only" } | { rule: "fair"; compared: ConsultantLoad[] };

/**
 * Ranks consultants by the fair rule: fewest recent meetings first, then the longest since their
 * latest booking (none at all is longest), then by id, so the answer never depends on the order
 * given. The first is the one "whoever is free" gets.
 */
export function rankFairly(loads: readonly ConsultantLoad[]): ConsultantLoad[] {
  return [...loads].sort(
    (a, b) =>
      a.recent - b.recent || compareLast(a.lastBookedAt, b.lastBookedAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

const compareLast = (a: string | null, b: string | null): number => {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return Date.parse(a) - Date.parse(b);
};

/** The consultant the fair rule picks among `loads` (all free at the slot) and the reason to keep; null when none. */
export function pickFairly(loads: readonly ConsultantLoad[]): { id: string; assignment: Assignment } | null {
  const ranked = rankFairly(loads);
  if (!ranked.length) return null;
  return { id: ranked[0]!.id, assignment: { rule: "fair", compared: ranked } };
}

/** A consultant's profile as the booking reads it: the languages they speak and the services they take. */
export interface ConsultantProfile {
  languages: readonly Language[];
  services: readonly ServiceId[];
}

/**
 * Whether a consultant with `profile` can take a meeting in `language` about `service` (either
 * may be left open). A consultant without a profile (their team member was renamed or removed)
 * takes any meeting, so an install never loses its only consultant to a content edit.
 */
export function takesMeeting(
  profile: ConsultantProfile | undefined,
  wanted: { language?: Language; service?: ServiceId },
): boolean {
  if (!profile) return true;
  if (wanted.language && !profile.languages.includes(wanted.language)) return false;
  if (wanted.service && !profile.services.includes(wanted.service)) return false;
  return true;
}

/** What a consultant has of their own besides the office's rules. */
export interface OwnRules {
  /** Their weekly hours; null: the office's. */
  hours: readonly OpeningHours[] | null;
  /** Their own closures; the office's apply to them too. */
  closures: readonly ClosedRange[];
}

/** The rules a consultant's slots follow: the office's, with their own hours and their closures added. */
export function consultantRules(office: OfficeRules, own: OwnRules): OfficeRules {
  return {
    ...office,
    hours: own.hours ?? office.hours,
    closedRanges: own.closures.length
      ? [...office.closedRanges, ...own.closures.map(({ from, to, yearly }) => ({ from, to, yearly }))]
      : office.closedRanges,
  };
}

/** The slots of several consultants as one list: each time once, ascending. */
export function unionOfSlots(lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())].sort();
}

/** Whether `date` takes meetings by `rules` (a working weekday that is not closed), notice and bookings aside. */
const openOn = (date: string, rules: OfficeRules) => openingHours(date, rules).length > 0 && !closedReason(date, rules);

/**
 * The date picker's marks for a choice of consultants, each with their own rules and the dates their
 * daily cap is reached: a weekday and hours are offered when any of them works then; a working
 * day is closed, or full, when none of them is open, or none open has room, that day.
 */
export function calendarForChoice(
  from: string,
  to: string,
  choice: readonly { rules: OfficeRules; fullDates: readonly string[] }[],
): { weekdays: IsoWeekday[]; hours: OpeningHours[]; closedDates: string[]; fullDates: string[] } {
  const hours = new Map<string, OpeningHours>();
  for (const { rules } of choice)
    for (const h of rules.hours) hours.set(`${h.weekday} ${h.opens} ${h.closes}`, { ...h });
  const closedDates: string[] = [];
  const fullDates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const working = choice.filter(({ rules }) => openingHours(date, rules).length > 0);
    if (!working.length) continue;
    const open = working.filter(({ rules }) => openOn(date, rules));
    if (!open.length) closedDates.push(date);
    else if (open.every((c) => c.fullDates.includes(date))) fullDates.push(date);
  }
  return {
    weekdays: [...new Set(choice.flatMap(({ rules }) => workingWeekdays(rules)))].sort((a, b) => a - b),
    hours: [...hours.values()].sort((a, b) => a.weekday - b.weekday || toMinutes(a.opens) - toMinutes(b.opens)),
    closedDates,
    fullDates,
  };
}
