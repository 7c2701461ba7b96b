/**
 * Refreshing the connected calendars: fetch each feed safely, expand it over the booking horizon,
 * replace its stored busy intervals. A feed that fails keeps its last good intervals, which go on
 * blocking slots however long it fails: a stale copy can miss an event added since, but dropping
 * it would offer every slot the copy still knows to be busy, so keeping it is the choice that
 * double-books least. The admin's availability page shows the feed failing, since when and why.
 */
import type { Kysely } from "kysely";
import { feedsToRefresh, storeFailure, storeRefresh, syncEnvFeeds } from "#db/busy-calendars.repository.ts";
import type { Database } from "#db/types.ts";
import { calendarLoopbackAllowed, envBusyCalendars, officeRules } from "#server/config.ts";
import { addDays, officeNow } from "#shared/booking.ts";
import { zonedInstant } from "#shared/dates.ts";
import { busyIntervals } from "./expand.ts";
import { FeedError, fetchFeed } from "./fetch.ts";

export interface RefreshResult {
  id: number;
  ok: boolean;
  intervals?: number;
  error?: string;
}

/** The window a refresh expands: from the start of today to the end of the booking horizon, office time. */
export function refreshWindow(now: Date): { from: Date; to: Date; timeZone: string } {
  const rules = officeRules();
  const today = officeNow(now, rules.timeZone).date;
  return {
    from: zonedInstant(today, "00:00", rules.timeZone),
    to: zonedInstant(addDays(today, rules.horizonDays + 1), "00:00", rules.timeZone),
    timeZone: rules.timeZone,
  };
}

/** Refreshes every feed (or the one `id`); never throws for a feed's failure. */
export async function refreshCalendars(
  db: Kysely<Database>,
  now: Date,
  id?: number,
  limits: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<RefreshResult[]> {
  if (id === undefined) await syncEnvFeeds(db, envBusyCalendars());
  const window = refreshWindow(now);
  // Side by side: a run costs the slowest feed's time (at most the fetch timeout), not their sum.
  const feeds = await feedsToRefresh(db, id);
  const results = await Promise.all(
    feeds.map(async (feed): Promise<RefreshResult> => {
      try {
        const text = await fetchFeed({ ...feed, ...limits, allowLoopback: calendarLoopbackAllowed() });
        let intervals;
        try {
          intervals = busyIntervals(text, window.from, window.to, window.timeZone);
        } catch {
          throw new FeedError("not a readable iCalendar file");
        }
        await storeRefresh(db, feed.id, intervals, now);
        return { id: feed.id, ok: true, intervals: intervals.length };
      } catch (error) {
        if (!(error instanceof FeedError)) throw error;
        await storeFailure(db, feed.id, error.message, now);
        return { id: feed.id, ok: false, error: error.message };
      }
    }),
  );
  return results;
}
