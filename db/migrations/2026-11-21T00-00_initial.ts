import { type Kysely, sql } from "kysely";

// Frozen in time: this file describes the schema as it was on this date. Change the schema with a new
// migration, never by editing this one. Names are the SQL (snake_case) names.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "serial", (col) => col.primaryKey())
    .addColumn("username", "text", (col) => col.notNull().unique())
    .addColumn("password", "text", (col) => col.notNull())
    .addColumn("session_version", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("contact_submissions")
    .addColumn("id", "serial", (col) => col.primaryKey())
    .addColumn("first_name", "text", (col) => col.notNull())
    .addColumn("last_name", "text", (col) => col.notNull())
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("company", "text")
    .addColumn("service", "text", (col) => col.notNull())
    .addColumn("message", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("is_processed", "boolean", (col) => col.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex("contact_submissions_created_at_idx")
    .on("contact_submissions")
    .column("created_at")
    .execute();

  await db.schema
    .createTable("newsletter_subscribers")
    .addColumn("id", "serial", (col) => col.primaryKey())
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("language", "text", (col) => col.notNull().defaultTo("en"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("is_active", "boolean", (col) => col.notNull().defaultTo(true))
    .execute();
  // Addresses are unique whatever their case; subscribe() names this index in ON CONFLICT.
  await db.schema
    .createIndex("newsletter_subscribers_email_unique")
    .on("newsletter_subscribers")
    .unique()
    .expression(sql`lower(email)`)
    .execute();

  await db.schema
    .createTable("meetings")
    .addColumn("id", "serial", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("date", "text", (col) => col.notNull())
    .addColumn("time", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("is_confirmed", "boolean", (col) => col.notNull().defaultTo(false))
    // One booking per slot, guaranteed by the database even under concurrent requests.
    .addUniqueConstraint("meetings_slot_unique", ["date", "time"])
    .execute();
  await db.schema.createIndex("meetings_created_at_idx").on("meetings").column("created_at").execute();

  await db.schema
    .createTable("login_attempts")
    .addColumn("id", "bigserial", (col) => col.primaryKey())
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("attempted_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("login_attempts_key_attempted_at_idx")
    .on("login_attempts")
    .columns(["key", "attempted_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Dropping a table drops its indexes and constraints with it.
  for (const table of ["login_attempts", "meetings", "newsletter_subscribers", "contact_submissions", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
