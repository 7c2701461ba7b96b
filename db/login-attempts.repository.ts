import type { Kysely } from "kysely";
import type { Database } from "./types.ts";

// Failed sign-ins, one row per failure and key (`user:<name>`, `ip:<address>`), for throttling.

/** The highest number of failures any of `keys` has had since `since`. */
export async function recentFailures(db: Kysely<Database>, keys: string[], since: Date): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await db
    .selectFrom("loginAttempts")
    .select((eb) => ["key", eb.fn.countAll().as("failures")])
    .where("key", "in", keys)
    .where("attemptedAt", ">=", since)
    .groupBy("key")
    .execute();
  return Math.max(0, ...rows.map((r) => Number(r.failures)));
}

/** Records one failure for each key. */
export async function recordFailure(db: Kysely<Database>, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insertInto("loginAttempts")
    .values(keys.map((key) => ({ key })))
    .execute();
}

/** Forgets the failures of these keys (after a successful sign-in). */
export async function clearFailures(db: Kysely<Database>, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom("loginAttempts").where("key", "in", keys).execute();
}

/** Deletes failures older than `before`; returns how many. */
export async function pruneOlderThan(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom("loginAttempts").where("attemptedAt", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
