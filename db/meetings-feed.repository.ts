/**
 * The private addresses of the meetings feeds: one for the whole office's meetings and one per
 * consultant for theirs. Each is a 256-bit random token, stored sealed (db/seal.ts) so the admin can
 * see the address again, and compared in constant time. Making a new one replaces the feed's row,
 * which revokes its old address at once.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { ExpressionBuilder, Kysely } from "kysely";
import { calendarSealKey } from "#server/config.ts";
import { seal, SealBrokenError, unseal } from "./seal.ts";
import type { Database } from "./types.ts";

/** Whose feed: a consultant's id, or null for the whole office. */
type Owner = string | null;

const ownerIs = (owner: Owner) => (eb: ExpressionBuilder<Database, "meetingsFeed">) =>
  owner === null ? eb("consultantId", "is", null) : eb("consultantId", "=", owner);

/** The current token of `owner`'s feed, or null when none was made (or it cannot be opened: JWT_SECRET changed). */
export async function readMeetingsFeedToken(db: Kysely<Database>, owner: Owner = null): Promise<string | null> {
  const row = await db.selectFrom("meetingsFeed").select("token").where(ownerIs(owner)).executeTakeFirst();
  if (!row) return null;
  try {
    return unseal(row.token, calendarSealKey());
  } catch (error) {
    if (error instanceof SealBrokenError) return null;
    throw error;
  }
}

/** A new token (43 url-safe characters) for `owner`'s feed, replacing the old one. */
export async function newMeetingsFeedToken(db: Kysely<Database>, owner: Owner = null): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const sealed = seal(token, calendarSealKey());
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("meetingsFeed").where(ownerIs(owner)).execute();
    await trx.insertInto("meetingsFeed").values({ consultantId: owner, token: sealed }).execute();
  });
  return token;
}

/**
 * Whose feed `candidate` opens: `{ owner }` (null: the whole office's) or undefined when it is no
 * feed's token. Every token is compared, each in constant time.
 */
export async function meetingsFeedOwner(
  db: Kysely<Database>,
  candidate: string,
): Promise<{ owner: Owner } | undefined> {
  const rows = await db.selectFrom("meetingsFeed").select(["consultantId", "token"]).execute();
  const b = Buffer.from(candidate);
  let found: { owner: Owner } | undefined;
  for (const row of rows) {
    let token: string;
    try {
      token = unseal(row.token, calendarSealKey());
    } catch (error) {
      if (error instanceof SealBrokenError) continue;
      throw error;
    }
    const a = Buffer.from(token);
    if (a.length === b.length && timingSafeEqual(a, b)) found = { owner: row.consultantId };
  }
  return found;
}
