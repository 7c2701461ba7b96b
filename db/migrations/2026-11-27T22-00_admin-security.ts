import { type Kysely, sql } from "kysely";

// Frozen in time: the admin's door.
// - admin_sessions: one row per sign-in. The session cookie's token names its row; a row ended
//   (by its owner, an admin, a password or role change) refuses the token on its next request.
//   The place is an address prefix (/24 or /48) or a country, never the full address.
// - audit_log: who did what, appended only. A trigger refuses UPDATE and DELETE unless the
//   transaction said it is the erasure scrub (app.audit_scrub) or the retention purge
//   (app.audit_purge); no code path of the panel says either.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("admin_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("ended_at", "timestamptz")
    .addColumn("device", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("browser", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("place", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.createIndex("admin_sessions_user_idx").on("admin_sessions").column("user_id").execute();
  await db.schema.createIndex("admin_sessions_expires_idx").on("admin_sessions").column("expires_at").execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // No foreign key: the record outlives the account (the name is kept as it was).
    .addColumn("actor_id", "integer")
    .addColumn("actor", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("place", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull().defaultTo(""))
    // The visitor (or typed username) the entry is about, lower case; an erasure blanks it.
    .addColumn("subject", "text")
    .addColumn("detail", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema.createIndex("audit_log_at_idx").on("audit_log").column("at").execute();
  await db.schema.createIndex("audit_log_subject_idx").on("audit_log").column("subject").execute();
  await sql`
    CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND current_setting('app.audit_scrub', true) = 'on'
         AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.action = OLD.action THEN
        RETURN NEW;
      END IF;
      IF TG_OP = 'DELETE' AND current_setting('app.audit_purge', true) = 'on' THEN
        RETURN OLD;
      END IF;
      RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
    END $$`.execute(db);
  await sql`CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
  await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
  await sql`DROP FUNCTION audit_log_append_only()`.execute(db);
  await db.schema.dropTable("admin_sessions").execute();
}
