import { type Kysely, sql } from "kysely";

// Frozen in time: two rules of the admin's door.
// - Usernames are unique whatever their case ("DOOR-x" beside "door-x" let the audit filter, which
//   ignores case, mix two accounts): a unique index on lower(username). Accounts whose names differ
//   only in case are not renamed here (a rename would change how a person signs in and whom the
//   audit record names): the migration refuses, naming them, and changes nothing until one of each
//   pair is removed or renamed by the operator.
// - login_attempts names the username and address only by a keyed hash from now on
//   (db/login-attempts.repository.ts). The key lives outside the database, so rows written in clear
//   cannot be converted here: they are deleted (a trail of failed sign-ins, read by nothing but the
//   privacy export; the throttle counts in rate_counters).
export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ names: string[] }>`
    SELECT array_agg(username ORDER BY id) AS names FROM users
    GROUP BY lower(username) HAVING count(*) > 1 ORDER BY min(id)`.execute(db);
  if (rows.length > 0) {
    const pairs = rows.map((r) => r.names.map((n) => `"${n}"`).join(" and ")).join("; ");
    throw new Error(
      `Usernames must be unique whatever their case, and these differ only in case: ${pairs}. ` +
        "Remove one of each (Security → Accounts in the panel), or rename it " +
        "(UPDATE users SET username = 'new-name' WHERE username = 'old-name'), then migrate again.",
    );
  }
  await sql`CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username))`.execute(db);
  await sql`DELETE FROM login_attempts`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX users_username_lower_key`.execute(db);
}
