import { type Kysely, sql } from "kysely";

// Frozen in time: the notifications schema as it was on this date. Names are the SQL (snake_case) names.
//
// Every email the site sends is first a row of email_outbox, written in the same transaction as the
// enquiry or meeting it is about, so a mail server that is down never costs a lead: the row waits and
// is retried. Enquiries and meetings remember the visitor's language so later emails speak it too.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("contact_submissions")
    .addColumn("language", "text", (col) => col.notNull().defaultTo("en"))
    .execute();
  await db.schema
    .alterTable("meetings")
    .addColumn("language", "text", (col) => col.notNull().defaultTo("en"))
    // SEQUENCE of the meeting's calendar invite (RFC 5545): bumped on every change sent to the visitor.
    .addColumn("invite_sequence", "integer", (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("email_outbox")
    .addColumn("id", "bigserial", (col) => col.primaryKey())
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("submission_id", "integer", (col) => col.references("contact_submissions.id").onDelete("cascade"))
    .addColumn("meeting_id", "integer", (col) => col.references("meetings.id").onDelete("cascade"))
    .addColumn("to_address", "text", (col) => col.notNull())
    .addColumn("reply_to", "text")
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("text_body", "text", (col) => col.notNull())
    .addColumn("html_body", "text", (col) => col.notNull())
    .addColumn("ics", "text")
    .addColumn("status", "text", (col) =>
      col
        .notNull()
        .defaultTo("pending")
        .check(sql`status IN ('pending', 'sending', 'sent', 'failed', 'dead')`),
    )
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("next_attempt_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("locked_until", "timestamptz")
    .addColumn("sent_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // The retry run looks for due rows by status and time; the admin lists look rows up by their record.
  await db.schema
    .createIndex("email_outbox_status_next_attempt_at_idx")
    .on("email_outbox")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema.createIndex("email_outbox_submission_id_idx").on("email_outbox").column("submission_id").execute();
  await db.schema.createIndex("email_outbox_meeting_id_idx").on("email_outbox").column("meeting_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("email_outbox").execute();
  await db.schema.alterTable("meetings").dropColumn("invite_sequence").dropColumn("language").execute();
  await db.schema.alterTable("contact_submissions").dropColumn("language").execute();
}
