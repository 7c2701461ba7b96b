import { type Kysely, sql } from "kysely";

// Frozen in time: the second factor.
// - users gain an optional email (security notices only), and TOTP: the sealed secret while it is
//   being set up (pending) and once confirmed, and the last time step a code was accepted at, which
//   the sign-in raises in one UPDATE so a code is accepted once.
// - recovery_codes: SHA-256 of each one-time code; used_at is set in one UPDATE when it is spent.
// - passkeys: WebAuthn credentials (id, COSE public key, signature counter, transports, a name).
// - auth_challenges: short-lived, single-use challenges (the login's second step, a passkey's
//   registration or sign-in); taking one deletes it.
// - admin_sessions.limited: a session that may only set up a second factor (office_settings says
//   every account must have one, and this one had none when it signed in).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("email", "text")
    .addColumn("totp_secret", "text")
    .addColumn("totp_pending_secret", "text")
    .addColumn("totp_enabled_at", "timestamptz")
    .addColumn("totp_last_step", "bigint")
    .execute();

  await db.schema
    .createTable("recovery_codes")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("recovery_codes_user_hash_key", ["user_id", "code_hash"])
    .execute();

  await db.schema
    .createTable("passkeys")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    .addColumn("public_key", "bytea", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("transports", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("passkeys_user_idx").on("passkeys").column("user_id").execute();

  await db.schema
    .createTable("auth_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) =>
      c.notNull().check(sql`purpose IN ('second-step', 'passkey-register', 'passkey-signin')`),
    )
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("challenge", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("auth_challenges_expires_idx").on("auth_challenges").column("expires_at").execute();
  await db.schema.createIndex("auth_challenges_challenge_idx").on("auth_challenges").column("challenge").execute();

  await db.schema
    .alterTable("admin_sessions")
    .addColumn("limited", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable("office_settings")
    .addColumn("require_second_factor", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("office_settings").dropColumn("require_second_factor").execute();
  await db.schema.alterTable("admin_sessions").dropColumn("limited").execute();
  await db.schema.dropTable("auth_challenges").execute();
  await db.schema.dropTable("passkeys").execute();
  await db.schema.dropTable("recovery_codes").execute();
  await db.schema
    .alterTable("users")
    .dropColumn("email")
    .dropColumn("totp_secret")
    .dropColumn("totp_pending_secret")
    .dropColumn("totp_enabled_at")
    .dropColumn("totp_last_step")
    .execute();
}
