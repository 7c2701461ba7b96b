/**
 * A calendar feed's events as busy intervals: iCalendar text in, UTC intervals over a window out.
 * ical.js does the parsing and the recurrence rules (RRULE with COUNT/UNTIL, EXDATE, RDATE, single
 * occurrences moved or changed through RECURRENCE-ID); this module decides what counts as busy and
 * which clock an event's wall time is read on.
 *
 * What does not block: TRANSP:TRANSPARENT (shown as free), STATUS:CANCELLED, and an invitation the
 * feed's owner declined (`ownersOf`: the account address entered with the feed, or X-WR-CALNAME when
 * it is an address, as Google writes it). When the owner is not among the attendees, the event is
 * declined only when every attendee declined it; the owner's own event (ORGANIZER) always blocks.
 *
 * Hostile feeds: the text is read tolerantly (`readCalendar`), and the work is bounded per feed, not
 * per series: MAX_STEPS_PER_FEED recurrence steps in all, MAX_INTERVALS_PER_FEED busy times. Past
 * either, ExpandError says why and the feed fails (its last good copy stays). One ical.js step can
 * itself never end (a DAILY rule with BYMONTH=2;BYMONTHDAY=30 matches no day, and ical.js 2.2.1
 * breaks such loops only for MONTHLY and YEARLY rules), so the server never runs this on its own
 * thread: functions/_lib/calendars/sandbox.ts runs it in a worker with a time limit.
 *
 * Clocks: a TZID that the runtime knows (IANA names such as Asia/Tehran) is read with Intl, which
 * follows the current rules even when a feed's VTIMEZONE is old or missing; another TZID (Outlook's
 * Windows names) uses the feed's own VTIMEZONE; a floating time and an all-day date are the office's.
 */
import ICAL from "ical.js";
import type { BusyInterval } from "#shared/booking.ts";
import { zonedInstant } from "#shared/dates.ts";
import { MEETING_MINUTES } from "#shared/office.ts";

export type { BusyInterval };

/** The most recurrence steps (and events) walked for one feed, all series together. */
export const MAX_STEPS_PER_FEED = 200_000;
/** The most busy intervals one feed may hold over the booking horizon, after merging. */
export const MAX_INTERVALS_PER_FEED = 5_000;
/**
 * Busy intervals closer together than this are stored as one: no meeting fits between them, so the
 * slots answer is the same, and a rule repeating every other second makes one interval, not 200,000.
 */
export const MERGE_GAP_MS = MEETING_MINUTES * 60_000;

/** Why a feed's expansion was cut off: its message is what the admin reads. */
export class ExpandError extends Error {}

export interface ExpandOptions {
  /** The owner's account address, entered with the feed: an invitation it declined does not block. */
  owner?: string | null;
  maxSteps?: number;
  maxIntervals?: number;
  /** Called as each series starts being walked, with its SUMMARY (the sandbox names a series that hangs). */
  onSeries?: (summary: string) => void;
}

export interface Expansion {
  /** The feed's events (VEVENTs; a series with its moved occurrences counts each component). */
  events: number;
  intervals: BusyInterval[];
  /** The addresses taken as the feed's owner (lowercase), or none. */
  owners: string[];
}

const knownZones = new Map<string, boolean>();
function isIanaZone(tzid: string): boolean {
  let known = knownZones.get(tzid);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tzid });
      known = true;
    } catch {
      known = false;
    }
    knownZones.set(tzid, known);
  }
  return known;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The instant an ical.js time stands for, read on the clock described above. */
function instantOf(time: ICAL.Time, tzid: string | null, officeZone: string): number {
  const date = `${time.year}-${pad(time.month)}-${pad(time.day)}`;
  if (time.isDate) return zonedInstant(date, "00:00", officeZone).getTime();
  const zone = time.zone?.tzid;
  if (zone === "UTC" || zone === "Z") return time.toJSDate().getTime();
  const wall = `${pad(time.hour)}:${pad(time.minute)}`;
  const seconds = time.second * 1000;
  if (tzid && isIanaZone(tzid)) return zonedInstant(date, wall, tzid).getTime() + seconds;
  if (tzid && zone && zone !== "floating") return time.toJSDate().getTime();
  return zonedInstant(date, wall, officeZone).getTime() + seconds;
}

/** An address as compared: `mailto:` dropped, lowercase, trimmed. */
const address = (value: unknown) =>
  String(value ?? "")
    .replace(/^mailto:/i, "")
    .trim()
    .toLowerCase();
const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

/** The feed's owner: the address entered with it, and X-WR-CALNAME when that is an address (Google's export). */
export function ownersOf(root: ICAL.Component, entered?: string | null): string[] {
  const owners = new Set<string>();
  if (entered && EMAIL.test(address(entered))) owners.add(address(entered));
  const name = address(root.getFirstPropertyValue("x-wr-calname"));
  if (EMAIL.test(name)) owners.add(name);
  return [...owners];
}

const declined = (attendee: ICAL.Property) =>
  String(attendee.getParameter("partstat") ?? "").toUpperCase() === "DECLINED";

function blocks(vevent: ICAL.Component, owners: readonly string[]): boolean {
  if (String(vevent.getFirstPropertyValue("transp") ?? "").toUpperCase() === "TRANSPARENT") return false;
  if (String(vevent.getFirstPropertyValue("status") ?? "").toUpperCase() === "CANCELLED") return false;
  const attendees = vevent.getAllProperties("attendee");
  if (!attendees.length) return true;
  const own = attendees.filter((a) => owners.includes(address(a.getFirstValue())));
  // The owner's answer decides, whatever the others answered.
  if (own.length) return !own.every(declined);
  // The owner organised it and is not listed as a guest: theirs, it blocks.
  if (owners.includes(address(vevent.getFirstPropertyValue("organizer")))) return true;
  // Owner unknown or not listed: declined only when every attendee declined (a feed that lists its owner alone).
  return !attendees.every(declined);
}

/**
 * A time's wall clock read as if it were UTC: within 14 hours of the instant it stands for in any
 * zone, which is all a quick "far outside the window?" check needs before the exact reading.
 */
const roughMs = (time: ICAL.Time) => Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute);
const SLACK_MS = 2 * 86_400_000;
const DAY_MS = 86_400_000;

/** The rough start and end of a component (an event without an end lasts its duration, or a day at most). */
function roughSpan(vevent: ICAL.Component): { start: number; end: number } | null {
  const start = vevent.getFirstPropertyValue("dtstart");
  if (!(start instanceof ICAL.Time)) return null;
  const from = roughMs(start);
  const end = vevent.getFirstPropertyValue("dtend");
  if (end instanceof ICAL.Time) return { start: from, end: Math.max(from, roughMs(end)) };
  const duration = vevent.getFirstPropertyValue("duration");
  return {
    start: from,
    end: from + (duration instanceof ICAL.Duration ? Math.abs(duration.toSeconds()) * 1000 : DAY_MS),
  };
}

const tzidOf = (vevent: ICAL.Component, name: "dtstart" | "dtend") => {
  const value = vevent.getFirstProperty(name)?.getParameter("tzid");
  return typeof value === "string" ? value : null;
};

/**
 * The VCALENDARs of a feed's text, read as tolerantly as exporters need: a byte order mark, bare CR
 * line ends (old Mac exports), spaces after BEGIN:/END: lines, blank lines and lines that are not
 * iCalendar at all (a stray HTML line) are passed over; names in any case (ical.js lowercases them);
 * a missing VERSION is no matter; several VCALENDARs one after the other are read as one.
 * Throws when there is no VCALENDAR to read.
 */
export function readCalendar(ics: string): ICAL.Component[] {
  // Whole-text replacements: a 2 MB feed's lines one by one cost twice as long.
  const text = ics
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .replace(/^(begin|end)[ \t]*:[ \t]*(\S*)[ \t]*$/gim, "$1:$2")
    // A line that is neither a continuation nor has a name before ":" or ";" cannot be read.
    .replace(/^(?![ \t])(?![A-Za-z0-9-]+[:;]).*\n?/gm, "");
  const parsed: unknown = ICAL.parse(text);
  // One component parses as [name, props, subs]; several as a list of those.
  const list = (Array.isArray(parsed) && typeof parsed[0] === "string" ? [parsed] : parsed) as unknown[];
  const roots = list.map((jcal) => new ICAL.Component(jcal as unknown[])).filter((c) => c.name === "vcalendar");
  if (!roots.length) throw new ExpandError("not a readable iCalendar file");
  for (const root of roots) rememberZoneLookups(root);
  return roots;
}

/**
 * Makes a calendar remember which zone each TZID names in it, including "none". Every time with a
 * TZID asks its calendar for that zone's VTIMEZONE. ical.js keeps the zones it finds, but not the
 * misses: a TZID the feed does not define (TZID=Europe/Amsterdam without a VTIMEZONE, as many
 * exporters write it) scanned every component of the calendar again, for each DTSTART and DTEND
 * (16,000 events: 5.1 s, past the worker's time limit). The calendar's VTIMEZONEs are read once
 * here, so the answer cannot change afterwards.
 */
function rememberZoneLookups(root: ICAL.Component): void {
  const lookUp = root.getTimeZoneByID.bind(root);
  // ical.js answers null for a miss, though its types say otherwise: `has`, not the value, tells.
  const zones = new Map<string, ICAL.Timezone>();
  root.getTimeZoneByID = (tzid: string) => {
    if (!zones.has(tzid)) zones.set(tzid, lookUp(tzid));
    return zones.get(tzid)!;
  };
}

/**
 * The busy intervals of `ics` that overlap [from, to), merged where fewer than MERGE_GAP_MS apart,
 * sorted, with the feed's event count. Throws ExpandError when the text is not iCalendar or a
 * limit is passed.
 */
export function expandCalendar(
  ics: string,
  from: Date,
  to: Date,
  officeZone: string,
  options: ExpandOptions = {},
): Expansion {
  const maxSteps = options.maxSteps ?? MAX_STEPS_PER_FEED;
  const maxIntervals = options.maxIntervals ?? MAX_INTERVALS_PER_FEED;
  const roots = readCalendar(ics);
  const owners = [...new Set(roots.flatMap((root) => ownersOf(root, options.owner)))];
  const vevents: ICAL.Component[] = [];
  for (const root of roots) {
    for (const zone of root.getAllSubcomponents("vtimezone")) {
      const tzid = zone.getFirstPropertyValue("tzid");
      if (typeof tzid === "string" && !isIanaZone(tzid) && !ICAL.TimezoneService.has(tzid))
        ICAL.TimezoneService.register(zone);
    }
    vevents.push(...root.getAllSubcomponents("vevent"));
  }
  const lo = from.getTime();
  const hi = to.getTime();
  let steps = 0;
  const step = () => {
    if (++steps > maxSteps)
      throw new ExpandError(
        `its repeating events take more than ${maxSteps.toLocaleString("en")} steps to expand (a rule repeating every second or minute?)`,
      );
  };
  let out: BusyInterval[] = [];
  const push = (start: number, end: number) => {
    if (end <= start) end = start + 1; // a zero-length event still marks its instant
    if (!(end > lo && start < hi)) return;
    out.push({ start, end });
    // Merged as they come, so a series of tiny events cannot fill memory before the end.
    if (out.length >= 4 * maxIntervals) {
      out = merge(out);
      if (out.length > maxIntervals) throw tooMany(maxIntervals);
    }
  };

  // Each VEVENT is looked at once, and the moved occurrences of a series are found by UID: an
  // ical.js Event built without its exceptions would search the whole calendar for them, for
  // every event (16,000 events took 30 s).
  const masters = new Map<string, ICAL.Component>();
  const exceptions = new Map<string, ICAL.Component[]>();
  const single: ICAL.Component[] = [];
  for (const vevent of vevents) {
    step();
    const uid = String(vevent.getFirstPropertyValue("uid") ?? "");
    if (vevent.hasProperty("recurrence-id")) {
      const list = exceptions.get(uid) ?? [];
      list.push(vevent);
      exceptions.set(uid, list);
    } else if (vevent.hasProperty("rrule") || vevent.hasProperty("rdate")) masters.set(uid, vevent);
    else single.push(vevent);
  }

  const endOf = (vevent: ICAL.Component, event: ICAL.Event, start: ICAL.Time, startMs: number, end: ICAL.Time) => {
    if (start.isDate) return instantOf(end, null, officeZone);
    if (vevent.hasProperty("dtend"))
      return instantOf(end, tzidOf(vevent, "dtend") ?? tzidOf(vevent, "dtstart"), officeZone);
    return startMs + event.duration.toSeconds() * 1000;
  };

  // Most of a calendar's events lie years before the window: a rough look at their wall clock
  // leaves them out before ical.js builds an Event for them (the cost of a refresh).
  const farOutside = (vevent: ICAL.Component) => {
    const span = roughSpan(vevent);
    return !span || span.start > hi + SLACK_MS || span.end < lo - SLACK_MS;
  };
  const standAlone = (vevent: ICAL.Component) => {
    if (farOutside(vevent) || !blocks(vevent, owners)) return;
    // `exceptions: []`: a lone event has none, and must not look for them in the whole feed.
    const event = new ICAL.Event(vevent, { exceptions: [] });
    const start = instantOf(event.startDate, tzidOf(vevent, "dtstart"), officeZone);
    push(start, endOf(vevent, event, event.startDate, start, event.endDate));
  };

  for (const vevent of single) standAlone(vevent);
  // An exception whose series is not in the feed stands on its own.
  for (const [uid, list] of exceptions) if (!masters.has(uid)) for (const vevent of list) standAlone(vevent);

  for (const [uid, vevent] of masters) {
    const span = roughSpan(vevent);
    if (!span) continue;
    options.onSeries?.(String(vevent.getFirstPropertyValue("summary") ?? uid));
    const moved = exceptions.get(uid) ?? [];
    const event = new ICAL.Event(vevent, { strictExceptions: true, exceptions: moved });
    const masterBlocks = blocks(vevent, owners);
    const length = span.end - span.start;
    const iterator = event.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      step();
      // An occurrence that ends far before the window is passed over without its details, unless an
      // exception could have moved it anywhere.
      if (!moved.length && roughMs(next) + length < lo - SLACK_MS) continue;
      const details = event.getOccurrenceDetails(next);
      const item = details.item;
      const itemComponent = item.component;
      const isException = item !== event;
      const tzid = tzidOf(itemComponent, "dtstart");
      const start = instantOf(details.startDate, tzid, officeZone);
      // The series' own start time bounds the walk; a moved occurrence may land anywhere, so compare
      // the recurrence's own time too.
      const seriesStart = instantOf(details.recurrenceId, tzidOf(vevent, "dtstart"), officeZone);
      if (Math.min(start, seriesStart) >= hi + 366 * 86_400_000) break;
      if (!(isException ? blocks(itemComponent, owners) : masterBlocks)) continue;
      push(start, endOf(itemComponent, item, details.startDate, start, details.endDate));
    }
  }

  const intervals = merge(out);
  if (intervals.length > maxIntervals) throw tooMany(maxIntervals);
  return { events: vevents.length, intervals, owners };
}

const tooMany = (max: number) =>
  new ExpandError(`more than ${max.toLocaleString("en")} separate busy times in the booking horizon`);

/** Sorted, and merged where they overlap or lie fewer than MERGE_GAP_MS apart. */
function merge(list: BusyInterval[]): BusyInterval[] {
  list.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: BusyInterval[] = [];
  for (const interval of list) {
    const last = merged.at(-1);
    if (last && interval.start < last.end + MERGE_GAP_MS) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

/** The busy intervals alone (expandCalendar). */
export function busyIntervals(
  ics: string,
  from: Date,
  to: Date,
  officeZone: string,
  options?: ExpandOptions,
): BusyInterval[] {
  return expandCalendar(ics, from, to, officeZone, options).intervals;
}
