import { type Kysely, sql } from "kysely";

// Frozen in time: the admin's guardrails on bookings, where meetings happen, and how they went.
//
// - office_settings gains the guardrails (minutes of notice, buffers before and after each meeting,
//   an optional cap of meetings per day, the visitor's change cut-off) and the meeting place (the
//   office, a phone call, or a video room made per meeting from a pattern with `{random}`). The
//   defaults keep booking as it was: no notice, no buffer, no cap, changes until the start.
// - meetings gain the place each meeting got when it was booked (kept when it moves; null for
//   meetings booked before), and its outcome once it has taken place: done or no-show, by whom and when.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("office_settings")
    .addColumn("notice_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("buffer_before_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("buffer_after_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("daily_limit", "integer")
    .addColumn("change_cutoff_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("meeting_place", "text", (c) => c.notNull().defaultTo("office"))
    .addColumn("video_pattern", "text", (c) => c.notNull().defaultTo("https://meet.jit.si/bridgewise-{random}"))
    .execute();
  await sql`ALTER TABLE office_settings
    ADD CONSTRAINT office_settings_guardrails_check CHECK (
      notice_minutes >= 0 AND buffer_before_minutes >= 0 AND buffer_after_minutes >= 0
      AND (daily_limit IS NULL OR daily_limit >= 1) AND change_cutoff_minutes >= 0),
    ADD CONSTRAINT office_settings_meeting_place_check CHECK (meeting_place IN ('office', 'phone', 'video'))`.execute(
    db,
  );
  await db.schema
    .alterTable("meetings")
    .addColumn("location_kind", "text")
    .addColumn("location_detail", "text")
    .addColumn("outcome", "text")
    .addColumn("outcome_at", sql`timestamptz(3)`)
    .addColumn("outcome_by", "text")
    .execute();
  await sql`ALTER TABLE meetings
    ADD CONSTRAINT meetings_location_kind_check CHECK (location_kind IN ('office', 'phone', 'video')),
    ADD CONSTRAINT meetings_outcome_check CHECK (outcome IN ('done', 'no-show'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("meetings")
    .dropColumn("location_kind")
    .dropColumn("location_detail")
    .dropColumn("outcome")
    .dropColumn("outcome_at")
    .dropColumn("outcome_by")
    .execute();
  await db.schema
    .alterTable("office_settings")
    .dropColumn("notice_minutes")
    .dropColumn("buffer_before_minutes")
    .dropColumn("buffer_after_minutes")
    .dropColumn("daily_limit")
    .dropColumn("change_cutoff_minutes")
    .dropColumn("meeting_place")
    .dropColumn("video_pattern")
    .execute();
}
