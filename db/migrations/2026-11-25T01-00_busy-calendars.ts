import { type Kysely, sql } from "kysely";

// Frozen in time: the consultants' own calendars as busy times.
//
// - busy_calendars: one ICS feed the admin connected (or the deploy named in BUSY_CALENDARS, then
//   `from_env` is true and the admin cannot remove it). The basic-auth password is stored for the
//   server's fetch only and never read into an answer to the browser. last_ok_at is the last
//   successful refresh; failing_since and last_error say since when and why a feed fails.
// - busy_intervals: the feed's events expanded (recurrences, exceptions, time zones) into plain
//   UTC intervals over the booking horizon at refresh time, so the slots answer reads a few rows
//   by range instead of parsing iCalendar per request, and every function instance agrees.
//   A refresh replaces a feed's intervals whole; a failed refresh leaves the last good ones.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("busy_calendars")
    .addColumn("id", "serial", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("url", "text", (col) => col.notNull().unique())
    .addColumn("username", "text")
    .addColumn("password", "text")
    .addColumn("from_env", "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("last_ok_at", sql`timestamptz(3)`)
    .addColumn("failing_since", sql`timestamptz(3)`)
    .addColumn("last_error", "text")
    .addColumn("event_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("busy_intervals")
    .addColumn("calendar_id", "integer", (col) => col.notNull().references("busy_calendars.id").onDelete("cascade"))
    .addColumn("starts_at", sql`timestamptz(3)`, (col) => col.notNull())
    .addColumn("ends_at", sql`timestamptz(3)`, (col) => col.notNull())
    .addCheckConstraint("busy_intervals_order", sql`ends_at > starts_at`)
    .execute();
  await sql`CREATE INDEX busy_intervals_range ON busy_intervals (starts_at, ends_at)`.execute(db);
  await sql`CREATE INDEX busy_intervals_calendar ON busy_intervals (calendar_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("busy_intervals").execute();
  await db.schema.dropTable("busy_calendars").execute();
}
