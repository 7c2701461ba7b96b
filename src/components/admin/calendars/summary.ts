import type { CalendarFetchResult } from "#shared/api/calendars.ts";
import type { AdminText } from "../copy";

/** What a fetch found, in plain words, in the panel's language. */
export function fetchSummary({ copy, f, p }: AdminText, result: CalendarFetchResult): string {
  const c = copy.calendarFeeds;
  if (!result.ok) return f(c.readFailed, { reason: result.error ?? c.unknownReason });
  return f(c.readOk, { events: p(c.events, result.events ?? 0), busy: p(c.busyTimes, result.intervals ?? 0) });
}
