/** Connected calendars: the consultants' busy-time feeds and the meetings feed. */

/** A connected calendar feed as the admin sees it: never its full address or its credentials. */
export interface CalendarFeed {
  id: number;
  name: string;
  /** Scheme and host only, e.g. `https://calendar.google.com/…`. */
  address: string;
  hasCredentials: boolean;
  /** Set by BUSY_CALENDARS: the admin cannot remove it. */
  fromEnv: boolean;
  /** ISO 8601, UTC, or null. */
  lastOkAt: string | null;
  failingSince: string | null;
  lastError: string | null;
  /** Busy times the last good copy holds over the booking horizon. */
  eventCount: number;
  /** The calendar's account address entered with it (its declined invitations do not block), or null. */
  ownerEmail: string | null;
  /** Failing for longer than `staleAfterHours`: the feed now blocks every slot. */
  stale: boolean;
  /** Whose time it blocks: a consultant's id, or null for everyone's. */
  consultantId: string | null;
}
/** GET /api/admin/availability/calendars */
export interface CalendarFeedsAnswer {
  success: true;
  data: { feeds: CalendarFeed[]; staleAfterHours: number };
}
/** What fetching a feed found: its events and the busy times they make over the booking horizon, or why it failed. */
export interface CalendarFetchResult {
  id?: number;
  ok: boolean;
  events?: number;
  intervals?: number;
  error?: string;
}
/** POST /api/admin/availability/calendars (201), …/calendars/test, …/calendars/{id}/refresh */
export interface CalendarFetchAnswer {
  success: true;
  data: CalendarFetchResult;
}
/** GET and POST /api/admin/availability/meetings-feed: the private address of the meetings feed, or null before one is made. */
export interface MeetingsFeedAnswer {
  success: true;
  data: { url: string | null };
}
/** The failing calendar feeds, for the dashboard's notice (GET /api/admin/alerts). */
export interface FailingCalendar {
  name: string;
  /** ISO 8601, UTC. */
  failingSince: string;
  /** Why it fails, in plain words (as the availability page says it). */
  reason: string | null;
  stale: boolean;
}
