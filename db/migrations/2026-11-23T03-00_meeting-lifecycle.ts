import { type Kysely, sql } from "kysely";

// Frozen in time: meetings that can be cancelled and moved, and the office's availability in the
// database (edited in the admin) instead of in code. Names are the SQL (snake_case) names.
//
// - A cancelled meeting keeps its row (the admin and the emails still refer to it) but no longer
//   holds its slot: the one-booking-per-slot rule becomes a partial unique index over the meetings
//   that are not cancelled, under the same name, so re-booking a freed slot stays race-safe.
// - manage_version: the visitor's manage links carry it; a change the visitor makes bumps it, so
//   links from older emails stop working.
// - reminder_queued_at: set, in the transaction that queues it, when the 24-hour reminder is
//   written to the outbox; cleared when the meeting moves. Scheduled runs claim due meetings with
//   FOR UPDATE SKIP LOCKED and this column, so a reminder is queued once however many runs overlap.
// - office_hours, office_closures, office_settings: the editable office rules, seeded with the
//   rules the code held until now (Monday to Friday 09:00–17:00; 24 and 31 December closed every
//   year; closed on the Dutch public holidays).

const DATE = sql`'^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`;
const TIME = sql`'^([01][0-9]|2[0-3]):[0-5][0-9]$'`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("meetings")
    .addColumn("cancelled_at", sql`timestamptz(3)`)
    .addColumn("cancelled_by", "text", (col) => col.check(sql`cancelled_by IN ('admin', 'visitor')`))
    .addColumn("manage_version", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("reminder_queued_at", sql`timestamptz(3)`)
    .execute();
  await sql`ALTER TABLE meetings DROP CONSTRAINT meetings_slot_unique`.execute(db);
  await sql`CREATE UNIQUE INDEX meetings_slot_unique ON meetings (date, time) WHERE cancelled_at IS NULL`.execute(db);
  // The reminder run's question: confirmed, not cancelled, not reminded, starting soon.
  await sql`CREATE INDEX meetings_reminder_due_idx ON meetings (date, time)
    WHERE is_confirmed AND cancelled_at IS NULL AND reminder_queued_at IS NULL`.execute(db);

  await db.schema
    .createTable("office_hours")
    .addColumn("weekday", "smallint", (col) => col.notNull().check(sql`weekday BETWEEN 1 AND 7`))
    .addColumn("opens", "text", (col) => col.notNull().check(sql`opens ~ ${TIME}`))
    .addColumn("closes", "text", (col) => col.notNull().check(sql`closes ~ ${TIME}`))
    .addPrimaryKeyConstraint("office_hours_pkey", ["weekday", "opens"])
    .addCheckConstraint("office_hours_order", sql`opens < closes`)
    .execute();
  await db.schema
    .createTable("office_closures")
    .addColumn("id", "serial", (col) => col.primaryKey())
    .addColumn("starts_on", "text", (col) => col.notNull().check(sql`starts_on ~ ${DATE}`))
    .addColumn("ends_on", "text", (col) => col.notNull().check(sql`ends_on ~ ${DATE}`))
    // Every year on the same days (month and day of starts_on to ends_on).
    .addColumn("yearly", "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("note", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("created_at", sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("office_closures_order", sql`starts_on <= ends_on`)
    .execute();
  await db.schema
    .createTable("office_settings")
    // One row: the primary key can only be true.
    .addColumn("id", "boolean", (col) =>
      col
        .primaryKey()
        .defaultTo(true)
        .check(sql`id`),
    )
    .addColumn("public_holidays", "boolean", (col) => col.notNull().defaultTo(true))
    .addColumn("updated_at", sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db
    .insertInto("office_hours")
    .values([1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: "09:00", closes: "17:00" })))
    .execute();
  await db
    .insertInto("office_closures")
    .values([
      { starts_on: "2026-12-24", ends_on: "2026-12-24", yearly: true, note: "Christmas Eve" },
      { starts_on: "2026-12-31", ends_on: "2026-12-31", yearly: true, note: "New Year's Eve" },
    ])
    .execute();
  await db.insertInto("office_settings").values({ id: true, public_holidays: true }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["office_settings", "office_closures", "office_hours"])
    await db.schema.dropTable(table).execute();
  await db.schema.dropIndex("meetings_reminder_due_idx").execute();
  // Cancelled meetings would break the old constraint if they share a slot: their rows go with it.
  await sql`DELETE FROM meetings WHERE cancelled_at IS NOT NULL`.execute(db);
  await db.schema.dropIndex("meetings_slot_unique").execute();
  await sql`ALTER TABLE meetings ADD CONSTRAINT meetings_slot_unique UNIQUE (date, time)`.execute(db);
  await db.schema
    .alterTable("meetings")
    .dropColumn("reminder_queued_at")
    .dropColumn("manage_version")
    .dropColumn("cancelled_by")
    .dropColumn("cancelled_at")
    .execute();
}
