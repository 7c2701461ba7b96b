import { type Kysely, sql } from "kysely";
import type { Database } from "./types.ts";

/**
 * Subscribes an address. Addresses are unique whatever their case: subscribing again re-activates the
 * existing subscriber, takes the newer language, and answers `created: false` instead of failing.
 */
export async function subscribe(db: Kysely<Database>, email: string, language: string): Promise<{ created: boolean }> {
  // The conflict target is the expression of the unique index newsletter_subscribers_email_unique.
  const inserted = await db
    .insertInto("newsletterSubscribers")
    .values({ email, language })
    .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { created: true };

  await db
    .updateTable("newsletterSubscribers")
    .set({ isActive: true, language })
    .where(sql<string>`lower(email)`, "=", sql<string>`lower(${email})`)
    .execute();
  return { created: false };
}
