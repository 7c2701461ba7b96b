import { type Kysely, sql } from "kysely";

// Counters of the abuse limits (db/rate-limits.repository.ts): one row per key and fixed window,
// bumped in one INSERT … ON CONFLICT DO UPDATE so parallel requests on any instance count exactly.
// Keys are HMACs, never an address or a username in clear. A row is useless once the window after
// its own has passed (`expires_at`), and the scheduled outbox run deletes it then.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("rate_counters")
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("window_start", "timestamptz", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_counters_pkey", ["key", "window_start"])
    .execute();
  await db.schema.createIndex("rate_counters_expires_at_idx").on("rate_counters").column("expires_at").execute();
  // The pending meetings of one email address (lower case, +tag removed), counted before each booking.
  await sql`CREATE INDEX meetings_pending_email_idx ON meetings (lower(regexp_replace(email, '\\+[^@]*@', '@'))) WHERE NOT is_confirmed`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("meetings_pending_email_idx").execute();
  await db.schema.dropTable("rate_counters").execute();
}
