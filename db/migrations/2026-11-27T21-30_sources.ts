import { type Kysely, sql } from "kysely";

// Frozen in time: counted page views and where enquiries and meetings came from.
//
// - page_views: one row per counted view, no identifier of any kind (no IP address, no cookie, no
//   hash of either): the day is its office-time date, the rest are the allowlisted dimensions. The
//   daily rollup folds a finished day into page_view_days and deletes its rows in one transaction.
// - page_view_days: the same dimensions per day with counts; '' stands for "none", so the unique
//   key holds and the rollup can add into it (ON CONFLICT DO UPDATE).
// - enquiries.source, meetings.source: what the visitor's tab knew when they sent the form (the
//   page, the visit's first touch, the "how did you hear" choice), as JSON; null when nothing.

const DIMENSIONS = ["path", "lang", "referrer", "utm_source", "utm_medium", "utm_campaign", "device", "country"];

export async function up(db: Kysely<any>): Promise<void> {
  let views = db.schema
    .createTable("page_views")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("day", "date", (col) => col.notNull())
    .addColumn("entry", "boolean", (col) => col.notNull().defaultTo(false));
  for (const name of DIMENSIONS) views = views.addColumn(name, "text", (col) => col.notNull().defaultTo(""));
  await views.execute();
  await db.schema.createIndex("page_views_day").on("page_views").column("day").execute();

  let days = db.schema.createTable("page_view_days").addColumn("day", "date", (col) => col.notNull());
  for (const name of DIMENSIONS) days = days.addColumn(name, "text", (col) => col.notNull().defaultTo(""));
  await days
    .addColumn("views", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("visits", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  // The rollup adds into a day's row (ON CONFLICT); the charts read a range of days from its front.
  await sql`ALTER TABLE page_view_days ADD CONSTRAINT page_view_days_key UNIQUE (${sql.join(
    ["day", ...DIMENSIONS].map((c) => sql.id(c)),
  )})`.execute(db);

  await db.schema.alterTable("enquiries").addColumn("source", "jsonb").execute();
  await db.schema.alterTable("meetings").addColumn("source", "jsonb").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("meetings").dropColumn("source").execute();
  await db.schema.alterTable("enquiries").dropColumn("source").execute();
  await db.schema.dropTable("page_view_days").execute();
  await db.schema.dropTable("page_views").execute();
}
