/**
 * Refreshing the connected calendars: fetch each feed safely, expand it over the booking horizon,
 * replace its stored busy intervals. A feed that fails keeps its last good intervals, which go on
 * blocking slots: dropping them would offer every slot the copy still knows to be busy. After
 * CALENDAR_STALE_HOURS of failing the copy no longer stands in for the feed and the feed blocks
 * every slot (db/availability.repository.ts): a copy that old can miss whatever was added since,
 * and a double booking with a client costs the consultancy more than a pause in bookings the
 * dashboard shouts about. The admin's pages show the feed failing, since when and why.
 */
import type { Kysely } from "kysely";
import { feedsToRefresh, storeFailure, storeRefresh, syncEnvFeeds } from "#db/busy-calendars.repository.ts";
import type { Database } from "#db/types.ts";
import { calendarLoopbackAllowed, envBusyCalendars } from "#server/config.ts";
import { officeRules } from "#server/office.ts";
import { addDays, officeNow } from "#shared/booking.ts";
import { zonedInstant } from "#shared/dates.ts";
import type { CalendarFetchResult } from "#shared/api/calendars.ts";
import { busyIntervals } from "./expand.ts";
import { FeedError, fetchFeed } from "./fetch.ts";

export type RefreshResult = CalendarFetchResult & { id: number };

/** The events of a feed's text (its VEVENTs, a series counted once). */
const eventCount = (ics: string) => ics.match(/^BEGIN:VEVENT\r?$/gm)?.length ?? 0;

/** Fetches and expands one feed; throws FeedError with the reason the admin reads. */
async function readFeed(
  feed: FeedRequestParts,
  window: ReturnType<typeof refreshWindow>,
  limits: { timeoutMs?: number; maxBytes?: number },
) {
  const text = await fetchFeed({ ...feed, ...limits, allowLoopback: calendarLoopbackAllowed() });
  try {
    return { events: eventCount(text), intervals: busyIntervals(text, window.from, window.to, window.timeZone) };
  } catch {
    throw new FeedError("not a readable iCalendar file");
  }
}
type FeedRequestParts = { url: string; username?: string | null; password?: string | null };

/** What fetching an address finds now, stored nowhere: the add form's "Test" button. */
export async function testFeed(feed: FeedRequestParts, now: Date): Promise<CalendarFetchResult> {
  try {
    const { events, intervals } = await readFeed(feed, refreshWindow(now), {});
    return { ok: true, events, intervals: intervals.length };
  } catch (error) {
    if (!(error instanceof FeedError)) throw error;
    return { ok: false, error: error.message };
  }
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
        if (feed.unreadable)
          throw new FeedError(
            "the stored address cannot be read (JWT_SECRET changed): remove the feed and add it again",
          );
        const { events, intervals } = await readFeed(feed, window, limits);
        await storeRefresh(db, feed.id, intervals, now);
        return { id: feed.id, ok: true, events, intervals: intervals.length };
      } catch (error) {
        if (!(error instanceof FeedError)) throw error;
        await storeFailure(db, feed.id, error.message, now);
        return { id: feed.id, ok: false, error: error.message };
      }
    }),
  );
  return results;
}
