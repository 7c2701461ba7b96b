/**
 * A calendar feed's events as busy intervals: iCalendar text in, UTC intervals over a window out.
 * ical.js does the parsing and the recurrence rules (RRULE with COUNT/UNTIL, EXDATE, RDATE, single
 * occurrences moved or changed through RECURRENCE-ID); this module decides what counts as busy and
 * which clock an event's wall time is read on.
 *
 * What does not block: TRANSP:TRANSPARENT (shown as free), STATUS:CANCELLED, and an event every
 * listed attendee declined (a private feed lists its owner, so the owner declined it).
 *
 * Clocks: a TZID that the runtime knows (IANA names such as Asia/Tehran) is read with Intl, which
 * follows the current rules even when a feed's VTIMEZONE is old or missing; another TZID (Outlook's
 * Windows names) uses the feed's own VTIMEZONE; a floating time and an all-day date are the office's.
 */
import ICAL from "ical.js";
import type { BusyInterval } from "#shared/booking.ts";
import { zonedInstant } from "#shared/dates.ts";

export type { BusyInterval };

/** The most occurrences walked for one series (a minutely rule since 1970 must not hang a refresh). */
const MAX_STEPS_PER_SERIES = 200_000;

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

function blocks(vevent: ICAL.Component): boolean {
  if (String(vevent.getFirstPropertyValue("transp") ?? "").toUpperCase() === "TRANSPARENT") return false;
  if (String(vevent.getFirstPropertyValue("status") ?? "").toUpperCase() === "CANCELLED") return false;
  const attendees = vevent.getAllProperties("attendee");
  if (attendees.length && attendees.every((a) => String(a.getParameter("partstat") ?? "").toUpperCase() === "DECLINED"))
    return false;
  return true;
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
 * The busy intervals of `ics` that overlap [from, to), merged where they touch or overlap, sorted.
 * Throws when the text is not iCalendar.
 */
export function busyIntervals(ics: string, from: Date, to: Date, officeZone: string): BusyInterval[] {
  const root = new ICAL.Component(ICAL.parse(ics));
  if (root.name !== "vcalendar") throw new Error("not an iCalendar file");
  for (const zone of root.getAllSubcomponents("vtimezone")) {
    const tzid = zone.getFirstPropertyValue("tzid");
    if (typeof tzid === "string" && !isIanaZone(tzid) && !ICAL.TimezoneService.has(tzid))
      ICAL.TimezoneService.register(zone);
  }
  const lo = from.getTime();
  const hi = to.getTime();
  const out: BusyInterval[] = [];
  const push = (start: number, end: number) => {
    if (end <= start) end = start + 1; // a zero-length event still marks its instant
    if (end > lo && start < hi) out.push({ start, end });
  };

  const masters = new Map<string, ICAL.Component>();
  const exceptions = new Map<string, ICAL.Component[]>();
  const single: ICAL.Component[] = [];
  for (const vevent of root.getAllSubcomponents("vevent")) {
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

  for (const vevent of single) {
    if (farOutside(vevent) || !blocks(vevent)) continue;
    const event = new ICAL.Event(vevent);
    const start = instantOf(event.startDate, tzidOf(vevent, "dtstart"), officeZone);
    push(start, endOf(vevent, event, event.startDate, start, event.endDate));
  }

  // An exception whose series is not in the feed stands on its own.
  for (const [uid, list] of exceptions) {
    if (masters.has(uid)) continue;
    for (const vevent of list) {
      if (farOutside(vevent) || !blocks(vevent)) continue;
      const event = new ICAL.Event(vevent);
      const start = instantOf(event.startDate, tzidOf(vevent, "dtstart"), officeZone);
      push(start, endOf(vevent, event, event.startDate, start, event.endDate));
    }
  }

  for (const [uid, vevent] of masters) {
    const span = roughSpan(vevent);
    if (!span) continue;
    const moved = exceptions.get(uid) ?? [];
    const event = new ICAL.Event(vevent, { strictExceptions: true, exceptions: moved });
    const masterBlocks = blocks(vevent);
    const length = span.end - span.start;
    const iterator = event.iterator();
    for (let n = 0, next = iterator.next(); next && n < MAX_STEPS_PER_SERIES; n++, next = iterator.next()) {
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
      if (!(isException ? blocks(itemComponent) : masterBlocks)) continue;
      push(start, endOf(itemComponent, item, details.startDate, start, details.endDate));
    }
  }

  out.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: BusyInterval[] = [];
  for (const interval of out) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}
