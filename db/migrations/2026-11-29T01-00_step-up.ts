import { type Kysely, sql } from "kysely";

// Frozen in time: proof made again, and invitations by link.
// - admin_sessions.stepped_up_at: when the session's person last proved again who they are (the
//   password, a TOTP code or a passkey); what protects an account changes only within minutes of it.
// - auth_challenges may hold a passkey step-up's challenge.
// - invitations: a single-use link's SHA-256 (never the token), for an account created without a
//   password anyone knows; taken once, when the invitee sets their own.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("admin_sessions").addColumn("stepped_up_at", "timestamptz").execute();
  await sql`ALTER TABLE auth_challenges DROP CONSTRAINT auth_challenges_purpose_check`.execute(db);
  await sql`ALTER TABLE auth_challenges ADD CONSTRAINT auth_challenges_purpose_check
    CHECK (purpose IN ('second-step', 'passkey-register', 'passkey-signin', 'passkey-step-up'))`.execute(db);
  await db.schema
    .createTable("invitations")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("language", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("invitations_user_idx").on("invitations").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("invitations").execute();
  await sql`DELETE FROM auth_challenges WHERE purpose = 'passkey-step-up'`.execute(db);
  await sql`ALTER TABLE auth_challenges DROP CONSTRAINT auth_challenges_purpose_check`.execute(db);
  await sql`ALTER TABLE auth_challenges ADD CONSTRAINT auth_challenges_purpose_check
    CHECK (purpose IN ('second-step', 'passkey-register', 'passkey-signin'))`.execute(db);
  await db.schema.alterTable("admin_sessions").dropColumn("stepped_up_at").execute();
}
