import { type Kysely, sql } from "kysely";

// Frozen in time: the private address of the meetings feed (the team's calendar subscribes to it).
//
// - meetings_feed: one row at most (the primary key can only be true), holding the address's
//   random token sealed (AES-256-GCM with a key derived from JWT_SECRET), so it can be shown to the
//   admin again and compared in constant time. Replacing the row revokes the old address.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("meetings_feed")
    .addColumn("id", "boolean", (col) =>
      col
        .primaryKey()
        .defaultTo(true)
        .check(sql`id`),
    )
    .addColumn("token", "text", (col) => col.notNull())
    .addColumn("created_at", sql`timestamptz(3)`, (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("meetings_feed").execute();
}
