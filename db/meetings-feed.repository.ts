/**
 * The private address of the meetings feed: a 256-bit random token, stored sealed (db/seal.ts) so
 * the admin can see the address again, and compared in constant time. Making a new one replaces
 * the row, which revokes the old address at once.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import { calendarSealKey } from "#server/config.ts";
import { seal, SealBrokenError, unseal } from "./seal.ts";
import type { Database } from "./types.ts";

/** The current token, or null when none was made (or it cannot be opened: JWT_SECRET changed). */
export async function readMeetingsFeedToken(db: Kysely<Database>): Promise<string | null> {
  const row = await db.selectFrom("meetingsFeed").select("token").executeTakeFirst();
  if (!row) return null;
  try {
    return unseal(row.token, calendarSealKey());
  } catch (error) {
    if (error instanceof SealBrokenError) return null;
    throw error;
  }
}

/** A new token (43 url-safe characters), replacing the old one. */
export async function newMeetingsFeedToken(db: Kysely<Database>): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const sealed = seal(token, calendarSealKey());
  await db
    .insertInto("meetingsFeed")
    .values({ id: true, token: sealed })
    .onConflict((oc) => oc.column("id").doUpdateSet({ token: sealed, createdAt: new Date() }))
    .execute();
  return token;
}

/** Whether `candidate` is the current token, compared in constant time. */
export async function isMeetingsFeedToken(db: Kysely<Database>, candidate: string): Promise<boolean> {
  const token = await readMeetingsFeedToken(db);
  if (!token) return false;
  const a = Buffer.from(token);
  const b = Buffer.from(candidate);
  return a.length === b.length && timingSafeEqual(a, b);
}
