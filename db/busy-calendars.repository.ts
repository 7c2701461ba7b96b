/**
 * The connected calendar feeds and their busy intervals. A feed's address (Google's and Outlook's
 * carry their secret in it) and its basic-auth credentials are sealed at rest (db/seal.ts, key from
 * server/config.ts) and opened only by `feedsToRefresh`, for the server's own fetch; what the admin
 * lists shows the address's host and whether credentials are set, never them.
 */
import { type Kysely, sql } from "kysely";
import { calendarSealKey } from "#server/config.ts";
import type { BusyInterval } from "#shared/booking.ts";
import { isSealed, seal, SealBrokenError, unseal } from "./seal.ts";
import type { Database } from "./types.ts";

export interface FeedToRefresh {
  id: number;
  url: string;
  username: string | null;
  password: string | null;
  /** The calendar's account address entered with it, or null. */
  ownerEmail: string | null;
  /** Set when the stored address or credentials cannot be opened (JWT_SECRET changed): the feed fails. */
  unreadable?: boolean;
}

/** What the admin sees of a feed. */
export interface FeedStatus {
  id: number;
  name: string;
  /** The address shown: scheme and host only (the rest can be the calendar's secret). */
  address: string;
  hasCredentials: boolean;
  fromEnv: boolean;
  lastOkAt: Date | null;
  failingSince: Date | null;
  lastError: string | null;
  eventCount: number;
  /** The calendar's account address entered with it (its declined invitations do not block), or null. */
  ownerEmail: string | null;
  /** Whose time it blocks: a consultant's id, or null for everyone's. */
  consultantId: string | null;
}

/** The part of a feed address that may be shown: `https://calendar.google.com/…`. */
export function maskFeedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return "…";
  }
}

const sealed = (value: string | null | undefined) => (value ? seal(value, calendarSealKey()) : null);
const opened = (value: string | null) => (value === null ? null : unseal(value, calendarSealKey()));

/** Every feed with its address opened; a feed whose address cannot be opened has url null. */
async function openedUrls(db: Kysely<Database>): Promise<{ id: number; url: string | null; fromEnv: boolean }[]> {
  const rows = await db.selectFrom("busyCalendars").select(["id", "url", "fromEnv"]).orderBy("id").execute();
  return rows.map((row) => {
    try {
      return { ...row, url: opened(row.url) };
    } catch (error) {
      if (error instanceof SealBrokenError) return { ...row, url: null };
      throw error;
    }
  });
}

/** Whether a feed with this address is connected already. */
export async function hasFeedUrl(db: Kysely<Database>, url: string): Promise<boolean> {
  return (await openedUrls(db)).some((feed) => feed.url === url);
}

/** Makes sure every address of BUSY_CALENDARS has a row (named after its host), and no other env row stays. */
export async function syncEnvFeeds(db: Kysely<Database>, urls: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // One sync at a time: two instances refreshing at once must not both add an address.
    await sql`SELECT pg_advisory_xact_lock(hashtext('busy_calendars sync'))`.execute(trx);
    const known = await openedUrls(trx);
    for (const url of urls) {
      const found = known.find((feed) => feed.url === url);
      if (found) {
        if (!found.fromEnv)
          await trx.updateTable("busyCalendars").set({ fromEnv: true }).where("id", "=", found.id).execute();
        continue;
      }
      let name = url;
      try {
        name = new URL(url).hostname;
      } catch {
        /* an invalid address keeps its text as its name; the refresh reports it */
      }
      await trx
        .insertInto("busyCalendars")
        .values({ name, url: sealed(url)!, fromEnv: true })
        .execute();
    }
    const gone = known.filter((feed) => feed.fromEnv && (feed.url === null || !urls.includes(feed.url)));
    if (gone.length)
      await trx
        .deleteFrom("busyCalendars")
        .where(
          "id",
          "in",
          gone.map((feed) => feed.id),
        )
        .execute();
  });
}

/**
 * The feeds to fetch, their address and credentials opened. A row stored before sealing is sealed
 * here on its way out.
 */
export async function feedsToRefresh(db: Kysely<Database>, id?: number): Promise<FeedToRefresh[]> {
  let query = db.selectFrom("busyCalendars").select(["id", "url", "username", "password", "ownerEmail"]).orderBy("id");
  if (id !== undefined) query = query.where("id", "=", id);
  const rows = await query.execute();
  const feeds: FeedToRefresh[] = [];
  for (const row of rows) {
    try {
      const feed = {
        id: row.id,
        url: opened(row.url)!,
        username: opened(row.username),
        password: opened(row.password),
        ownerEmail: row.ownerEmail,
      };
      if (![row.url, row.username, row.password].every((v) => v === null || isSealed(v)))
        await db
          .updateTable("busyCalendars")
          .set({ url: sealed(feed.url)!, username: sealed(feed.username), password: sealed(feed.password) })
          .where("id", "=", row.id)
          .execute();
      feeds.push(feed);
    } catch (error) {
      if (!(error instanceof SealBrokenError)) throw error;
      feeds.push({ id: row.id, url: "", username: null, password: null, ownerEmail: null, unreadable: true });
    }
  }
  return feeds;
}

export async function listFeeds(db: Kysely<Database>): Promise<FeedStatus[]> {
  const rows = await db
    .selectFrom("busyCalendars")
    .select([
      "id",
      "name",
      "url",
      sql<boolean>`username IS NOT NULL OR password IS NOT NULL`.as("hasCredentials"),
      "fromEnv",
      "lastOkAt",
      "failingSince",
      "lastError",
      "eventCount",
      "ownerEmail",
      "consultantId",
    ])
    .orderBy("id")
    .execute();
  return rows.map(({ url, ...row }) => {
    let address = "…";
    try {
      address = maskFeedUrl(opened(url)!);
    } catch (error) {
      if (!(error instanceof SealBrokenError)) throw error;
    }
    return { ...row, address };
  });
}

/** The failing feeds, for the dashboard's notice: name, since when and why. */
export async function failingFeeds(
  db: Kysely<Database>,
): Promise<{ id: number; name: string; failingSince: Date; lastError: string | null }[]> {
  const rows = await db
    .selectFrom("busyCalendars")
    .select(["id", "name", "failingSince", "lastError"])
    .where("failingSince", "is not", null)
    .orderBy("failingSince")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...row, failingSince: row.failingSince! }));
}

/** Connects a feed: it blocks consultant `consultantId`'s time, or everyone's when null or missing. */
export async function addFeed(
  db: Kysely<Database>,
  feed: {
    name: string;
    url: string;
    username?: string | null;
    password?: string | null;
    ownerEmail?: string | null;
    consultantId?: string | null;
  },
): Promise<number> {
  const row = await db
    .insertInto("busyCalendars")
    .values({
      name: feed.name,
      url: sealed(feed.url)!,
      username: sealed(feed.username),
      password: sealed(feed.password),
      ownerEmail: feed.ownerEmail || null,
      consultantId: feed.consultantId ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes an admin-added feed and its busy times; false when there is none (a BUSY_CALENDARS feed stays). */
export async function removeFeed(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom("busyCalendars")
    .where("id", "=", id)
    .where("fromEnv", "=", false)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A successful refresh: the feed's intervals replaced whole, in one transaction. */
export async function storeRefresh(
  db: Kysely<Database>,
  id: number,
  intervals: readonly BusyInterval[],
  at: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("busyCalendars")
      .set({ lastOkAt: at, failingSince: null, lastError: null, staleWarnedAt: null, eventCount: intervals.length })
      .where("id", "=", id)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return; // removed while it was being fetched
    await trx.deleteFrom("busyIntervals").where("calendarId", "=", id).execute();
    for (let i = 0; i < intervals.length; i += 5_000) {
      const part = intervals.slice(i, i + 5_000);
      await sql`
        INSERT INTO busy_intervals (calendar_id, starts_at, ends_at)
        SELECT ${id}, to_timestamp(s / 1000.0), to_timestamp(e / 1000.0)
        FROM unnest(${part.map((p) => p.start)}::bigint[], ${part.map((p) => p.end)}::bigint[]) AS t (s, e)`.execute(
        trx,
      );
    }
  });
}

/** A failed refresh: the last good intervals stay; the feed says since when and why it fails. */
export async function storeFailure(db: Kysely<Database>, id: number, reason: string, at: Date): Promise<void> {
  await db
    .updateTable("busyCalendars")
    .set({ failingSince: sql<Date>`coalesce(failing_since, ${at})`, lastError: reason.slice(0, 200) })
    .where("id", "=", id)
    .execute();
}

/**
 * Marks a feed failing since `failingBefore` or earlier as warned, once per run of failures: the
 * feed's name, since when and why, or null when it is not due or was warned already (another
 * instance's run, or an earlier one).
 */
export async function claimStaleWarning(
  db: Kysely<Database>,
  id: number,
  failingBefore: Date,
  at: Date,
): Promise<{ name: string; failingSince: Date; lastError: string | null } | null> {
  const row = await db
    .updateTable("busyCalendars")
    .set({ staleWarnedAt: at })
    .where("id", "=", id)
    .where("failingSince", "<=", failingBefore)
    .where("staleWarnedAt", "is", null)
    .returning(["name", "failingSince", "lastError"])
    .executeTakeFirst();
  return row ? { ...row, failingSince: row.failingSince! } : null;
}
