/**
 * The connected calendar feeds and their busy intervals. The password is read only by
 * `feedsToRefresh` (for the server's own fetch); nothing here returns it towards the browser.
 */
import { type Kysely, sql } from "kysely";
import type { BusyInterval } from "#shared/booking.ts";
import type { Database } from "./types.ts";

export interface FeedToRefresh {
  id: number;
  url: string;
  username: string | null;
  password: string | null;
}

/** What the admin sees of a feed. */
export interface FeedStatus {
  id: number;
  name: string;
  url: string;
  username: string | null;
  hasPassword: boolean;
  fromEnv: boolean;
  lastOkAt: Date | null;
  failingSince: Date | null;
  lastError: string | null;
  eventCount: number;
}

/** Makes sure every address of BUSY_CALENDARS has a row (named after its host), and no other env row stays. */
export async function syncEnvFeeds(db: Kysely<Database>, urls: readonly string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const url of urls) {
      let name = url;
      try {
        name = new URL(url).hostname;
      } catch {
        /* an invalid address keeps its text as its name; the refresh reports it */
      }
      await trx
        .insertInto("busyCalendars")
        .values({ name, url, fromEnv: true })
        .onConflict((oc) => oc.column("url").doUpdateSet({ fromEnv: true }))
        .execute();
    }
    let gone = trx.deleteFrom("busyCalendars").where("fromEnv", "=", true);
    if (urls.length) gone = gone.where("url", "not in", [...urls]);
    await gone.execute();
  });
}

export async function feedsToRefresh(db: Kysely<Database>, id?: number): Promise<FeedToRefresh[]> {
  let query = db.selectFrom("busyCalendars").select(["id", "url", "username", "password"]).orderBy("id");
  if (id !== undefined) query = query.where("id", "=", id);
  return query.execute();
}

export async function listFeeds(db: Kysely<Database>): Promise<FeedStatus[]> {
  return db
    .selectFrom("busyCalendars")
    .select([
      "id",
      "name",
      "url",
      "username",
      sql<boolean>`password IS NOT NULL`.as("hasPassword"),
      "fromEnv",
      "lastOkAt",
      "failingSince",
      "lastError",
      "eventCount",
    ])
    .orderBy("id")
    .execute();
}

export async function addFeed(
  db: Kysely<Database>,
  feed: { name: string; url: string; username?: string | null; password?: string | null },
): Promise<number> {
  const row = await db
    .insertInto("busyCalendars")
    .values({ name: feed.name, url: feed.url, username: feed.username || null, password: feed.password || null })
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
      .set({ lastOkAt: at, failingSince: null, lastError: null, eventCount: intervals.length })
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
