/**
 * Accounts for API tests about what happens around a password (throttles, sessions, factors, step-up,
 * roles, the content editor), not about its hash. Their hash is real bcrypt, at cost 4: sign-in and
 * step-up compare at the cost the stored hash names, and at cost 12 each comparison is 0.3–1.3 s of
 * one core in bcryptjs, which made these files the longest of the unit stage (docs/benchmarks.md,
 * "The whole CI run"). Production hashes at 12, and that stays proven where it is the subject:
 * db/admins.integration.test.ts (`hashPassword` gives cost 12 and verifies; DUMMY_HASH is cost 12) and
 * functions/_tests/admin.test.ts (sign-in against ensureAdmin's cost-12 hashes, a wrong password and an
 * unknown username in comparable time). Unknown usernames still cost a cost-12 comparison (DUMMY_HASH).
 */
import bcrypt from "bcryptjs";
import type { Kysely } from "kysely";
import type { Database } from "#db/types.ts";
import { createUser, type User } from "#db/users.repository.ts";

export const FIXTURE_COST = 4;

/** A bcrypt hash of `plain` at FIXTURE_COST. */
export const fixtureHash = (plain: string): Promise<string> => bcrypt.hash(plain, FIXTURE_COST);

/**
 * What `ensureAdmin(db, username, password)` does for a new username (an admin with that password),
 * with a fixture hash. Answers in ensureAdmin's shape.
 */
export async function fixtureAdmin(
  db: Kysely<Database>,
  username: string,
  password: string,
): Promise<{ user: User; action: "created" }> {
  return { user: await createUser(db, username, await fixtureHash(password), "admin"), action: "created" };
}
