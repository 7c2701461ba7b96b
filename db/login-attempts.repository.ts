import type { Kysely } from "kysely";
import type { Database } from "./types.ts";

// Failed sign-ins, one row per failure and key (`user:<name>`, `ip:<address>`): the audit trail of
// attacks on the login (the throttle itself counts in rate_counters: functions/_lib/auth/throttle.ts).

/** Records one failure for each key. */
export async function recordFailure(db: Kysely<Database>, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insertInto("loginAttempts")
    .values(keys.map((key) => ({ key })))
    .execute();
}

/** Deletes failures older than `before`; returns how many. */
export async function pruneOlderThan(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom("loginAttempts").where("attemptedAt", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
