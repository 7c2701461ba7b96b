/** Login throttling: 5 failures for one username or one address within 15 minutes → 429. */
import type { Kysely } from "kysely";
import type { Database } from "../../db/types.ts";
import { clearFailures, recentFailures, recordFailure } from "../../db/login-attempts.repository.ts";
import { HttpError } from "./http.ts";

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;

export const throttleKeys = (username: string, ip: string) => [`user:${username.trim().toLowerCase()}`, `ip:${ip}`];

/** Throws 429 when either key has used up its attempts in the window. */
export async function assertNotThrottled(db: Kysely<Database>, keys: string[]): Promise<void> {
  const failures = await recentFailures(db, keys, new Date(Date.now() - WINDOW_MS));
  if (failures >= MAX_FAILURES) {
    throw new HttpError(
      429,
      "Too many failed login attempts. Please wait 15 minutes and try again.",
      {},
      { "Retry-After": String(WINDOW_MS / 1000) },
    );
  }
}

export const noteFailure = (db: Kysely<Database>, keys: string[]) => recordFailure(db, keys);
export const noteSuccess = (db: Kysely<Database>, keys: string[]) => clearFailures(db, [keys[0]]);
