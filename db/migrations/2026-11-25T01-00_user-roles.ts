import { type Kysely, sql } from "kysely";

// Frozen in time: every account gets a role. An admin runs the whole dashboard; an editor signs in
// the same way (same login, same throttle) and may change the site's texts only. Existing accounts
// were all admins, so they stay admins.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("role", "text", (c) => c.notNull().defaultTo("admin"))
    .execute();
  await sql`ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('admin', 'editor'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("role").execute();
}
