import { createHmac } from "node:crypto";
import type { Kysely } from "kysely";
import { loginTrailKey } from "#server/config.ts";
import type { Database } from "./types.ts";

// Failed sign-ins, one row per failure and key: the trail of attacks on the login, kept for the
// retention policy's days (RETENTION_LOGIN_ATTEMPT_DAYS) and deleted by the daily retention run.
// A key names what failed only as an HMAC under a server key (`user:<hmac of the typed username>`,
// `ip:<hmac of the address>`): rows of one name or address can be counted together, and an erasure
// can find a typed address, but a leaked table names nobody. (The throttle itself counts in
// rate_counters, also under keyed names: functions/_lib/auth/throttle.ts.)

/** The stored key of `user:<name>` or `ip:<address>` (names ignore case and surrounding spaces). */
export function trailKey(key: string): string {
  const colon = key.indexOf(":");
  const kind = key.slice(0, colon);
  const value = key.slice(colon + 1).trim();
  const subject = kind === "user" ? value.toLowerCase() : value;
  return `${kind}:${createHmac("sha256", loginTrailKey()).update(`${kind}\n${subject}`).digest("base64url").slice(0, 32)}`;
}

/** Records one failure for each key (`user:<typed username>`, `ip:<client address>`), keyed as above. */
export async function recordFailure(db: Kysely<Database>, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insertInto("loginAttempts")
    .values(keys.map((key) => ({ key: trailKey(key) })))
    .execute();
}

/** Deletes failures older than `before`; returns how many. */
export async function pruneOlderThan(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom("loginAttempts").where("attemptedAt", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
