import { type Kysely, sql } from "kysely";

// Frozen in time: privacy by default, as it was on this date. Names are the SQL (snake_case) names.
//
// - Enquiries remember when they were processed, and enquiries and meetings when they were
//   anonymised: retention anonymises them a set time after processing or the meeting's day, and an
//   erasure anonymises them at once; the row stays, so counts still add up.
// - The newsletter is double opt-in: a sign-up is pending (is_active false) until its address is
//   confirmed, and the consent is recorded (when, in which language, on which page). Addresses signed
//   up before this date have no record of consent, so they become pending: they count again once
//   they sign up and confirm.
// - An email may carry a one-click unsubscribe URL (RFC 8058), sent as List-Unsubscribe.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("enquiries")
    .addColumn("processed_at", "timestamptz")
    .addColumn("anonymised_at", "timestamptz")
    .execute();
  await sql`UPDATE enquiries SET processed_at = created_at WHERE is_processed`.execute(db);
  await db.schema.alterTable("meetings").addColumn("anonymised_at", "timestamptz").execute();

  await db.schema
    .alterTable("newsletter_subscribers")
    .addColumn("consented_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("consent_page", "text")
    .addColumn("confirmation_sent_at", "timestamptz")
    .addColumn("confirmed_at", "timestamptz")
    .addColumn("unsubscribed_at", "timestamptz")
    .execute();
  await sql`UPDATE newsletter_subscribers SET consented_at = created_at, is_active = false`.execute(db);
  await sql`ALTER TABLE newsletter_subscribers ALTER COLUMN is_active SET DEFAULT false`.execute(db);

  await db.schema.alterTable("email_outbox").addColumn("list_unsubscribe", "text").execute();
  // Retention finds sent emails by when they were sent.
  await db.schema.createIndex("email_outbox_sent_at_idx").on("email_outbox").column("sent_at").execute();
  await db.schema.createIndex("login_attempts_attempted_at_idx").on("login_attempts").column("attempted_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("login_attempts_attempted_at_idx").execute();
  await db.schema.dropIndex("email_outbox_sent_at_idx").execute();
  await db.schema.alterTable("email_outbox").dropColumn("list_unsubscribe").execute();
  await sql`ALTER TABLE newsletter_subscribers ALTER COLUMN is_active SET DEFAULT true`.execute(db);
  await sql`UPDATE newsletter_subscribers SET is_active = true WHERE unsubscribed_at IS NULL`.execute(db);
  await db.schema
    .alterTable("newsletter_subscribers")
    .dropColumn("unsubscribed_at")
    .dropColumn("confirmed_at")
    .dropColumn("confirmation_sent_at")
    .dropColumn("consent_page")
    .dropColumn("consented_at")
    .execute();
  await db.schema.alterTable("meetings").dropColumn("anonymised_at").execute();
  await db.schema.alterTable("enquiries").dropColumn("anonymised_at").dropColumn("processed_at").execute();
}
