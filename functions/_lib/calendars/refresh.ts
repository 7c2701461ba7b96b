/**
 * Refreshing the connected calendars: fetch each feed safely, expand it over the booking horizon,
 * replace its stored busy intervals. A feed that fails keeps its last good intervals, which go on
 * blocking slots: dropping them would offer every slot the copy still knows to be busy. After
 * CALENDAR_STALE_HOURS of failing the copy no longer stands in for the feed and the feed blocks
 * every slot (db/availability.repository.ts): a copy that old can miss whatever was added since,
 * and a double booking with a client costs the consultancy more than a pause in bookings the
 * dashboard shouts about. The admin's pages show the feed failing, since when and why, from its
 * first failure; at half of CALENDAR_STALE_HOURS the admin is emailed once, before bookings stop.
 *
 * A feed's text is expanded in a worker (sandbox.ts) under a time limit, so no feed can hold the
 * server; a cut-off is the feed's failure like any other.
 */
import type { Kysely } from "kysely";
import {
  claimStaleWarning,
  feedsToRefresh,
  storeFailure,
  storeRefresh,
  syncEnvFeeds,
} from "#db/busy-calendars.repository.ts";
import { enqueue } from "#db/outbox.repository.ts";
import type { Database } from "#db/types.ts";
import { calendarLoopbackAllowed, envBusyCalendars, mailConfig, serverEnv } from "#server/config.ts";
import { officeRules } from "#server/office.ts";
import { addDays, officeNow } from "#shared/booking.ts";
import { zonedInstant } from "#shared/dates.ts";
import type { CalendarFetchResult } from "#shared/api/calendars.ts";
import { FeedError, fetchFeed } from "./fetch.ts";
import { expandInWorker } from "./sandbox.ts";

export type RefreshResult = CalendarFetchResult & { id: number };

/** Fetches and expands one feed; throws FeedError with the reason the admin reads. */
async function readFeed(
  feed: FeedRequestParts,
  window: ReturnType<typeof refreshWindow>,
  limits: { timeoutMs?: number; maxBytes?: number; expandTimeoutMs?: number },
) {
  const text = await fetchFeed({ ...feed, ...limits, allowLoopback: calendarLoopbackAllowed() });
  return expandInWorker(
    {
      ics: text,
      from: window.from.getTime(),
      to: window.to.getTime(),
      timeZone: window.timeZone,
      owner: feed.ownerEmail,
    },
    limits.expandTimeoutMs,
  );
}
type FeedRequestParts = { url: string; username?: string | null; password?: string | null; ownerEmail?: string | null };

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

/**
 * Emails the admin once per run of failures when a feed has failed for half of CALENDAR_STALE_HOURS:
 * at the full time it counts as busy all day and every booking stops.
 */
async function warnBeforeStale(db: Kysely<Database>, id: number, now: Date): Promise<void> {
  const staleMs = serverEnv().CALENDAR_STALE_HOURS * 3_600_000;
  await db.transaction().execute(async (trx) => {
    const feed = await claimStaleWarning(trx, id, new Date(now.getTime() - staleMs / 2), now);
    if (!feed) return;
    // The templates (and the texts they read) load only when a warning is due.
    const { companyCalendarWarningEmail } = await import("../mail/templates.ts");
    const staleAt = new Date(feed.failingSince.getTime() + staleMs);
    await enqueue(trx, [
      { kind: "calendar.failing", to: mailConfig().notifyTo, ...companyCalendarWarningEmail({ ...feed, staleAt }) },
    ]);
  });
}

/** Refreshes every feed (or the one `id`); never throws for a feed's failure. */
export async function refreshCalendars(
  db: Kysely<Database>,
  now: Date,
  id?: number,
  limits: { timeoutMs?: number; maxBytes?: number; expandTimeoutMs?: number } = {},
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
        await warnBeforeStale(db, feed.id, now);
        return { id: feed.id, ok: false, error: error.message };
      }
    }),
  );
  return results;
}
