import { type Kysely, sql } from "kysely";

// Frozen in time: two facts about a connected calendar feed (issue 29).
//
// - owner_email: the account address of the calendar, entered with the feed (optional): an
//   invitation this address declined does not make the office busy. Not sealed: it says whose
//   calendar it is, not how to read it.
// - stale_warned_at: when the admin was emailed that the failing feed is about to count as busy
//   all day; cleared by the next good fetch, so each run of failures warns once.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("busy_calendars")
    .addColumn("owner_email", "text")
    .addColumn("stale_warned_at", sql`timestamptz(3)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("busy_calendars").dropColumn("owner_email").dropColumn("stale_warned_at").execute();
}
