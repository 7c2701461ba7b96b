import { type Kysely, sql } from "kysely";
import type { Database } from "./types.ts";

/**
 * The newsletter, double opt-in: a sign-up is pending until its address confirms it; only confirmed
 * addresses that have not unsubscribed are active (counted, exported, mailed). Addresses are unique
 * whatever their case.
 */

/** The fewest minutes between two confirmation emails to one address. */
export const CONFIRMATION_RESEND_MINUTES = 60;

export interface SignUp {
  email: string;
  language: string;
  /** The page the form was on (path), for the consent record. */
  page: string | null;
}

export interface Subscriber {
  id: number;
  email: string;
  language: string;
}

/**
 * Records a sign-up: a new or unsubscribed address becomes pending with this consent (time, language,
 * page); a pending one takes the newer consent; an active one is left as it is. `confirm` is the
 * subscriber to send a confirmation email to, or null when none is due (already active, one was
 * sent less than CONFIRMATION_RESEND_MINUTES ago, or the caller's `mayConfirm` is false): the caller
 * answers the same either way.
 */
export async function signUp(
  db: Kysely<Database>,
  input: SignUp,
  /** False when no confirmation may go to this mailbox now (its limit): the consent is still recorded. */
  { mayConfirm = true }: { mayConfirm?: boolean } = {},
): Promise<{ confirm: Subscriber | null }> {
  // The row is locked while it is read and changed: inside the caller's transaction, or one of its own.
  const inTransaction = <T>(work: (trx: Kysely<Database>) => Promise<T>) =>
    db.isTransaction ? work(db) : db.transaction().execute(work);
  return inTransaction(async (trx) => {
    // The conflict target is the expression of the unique index newsletter_subscribers_email_unique.
    await trx
      .insertInto("newsletterSubscribers")
      .values({ email: input.email, language: input.language, consentPage: input.page, isActive: false })
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .execute();
    const row = await trx
      .selectFrom("newsletterSubscribers")
      .selectAll()
      .where(sql<string>`lower(email)`, "=", sql<string>`lower(${input.email})`)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.isActive) return { confirm: null };
    const due =
      mayConfirm &&
      (row.confirmationSentAt === null ||
        new Date(row.confirmationSentAt).getTime() < Date.now() - CONFIRMATION_RESEND_MINUTES * 60_000 ||
        row.unsubscribedAt !== null);
    const updated = await trx
      .updateTable("newsletterSubscribers")
      .set({
        email: input.email,
        language: input.language,
        consentPage: input.page,
        consentedAt: sql<Date>`now()`,
        confirmedAt: null,
        unsubscribedAt: null,
        ...(due && { confirmationSentAt: sql<Date>`now()` }),
      })
      .where("id", "=", row.id)
      .returning(["id", "email", "language"])
      .executeTakeFirstOrThrow();
    return { confirm: due ? updated : null };
  });
}

/**
 * Confirms a pending sign-up. `confirmed` when it was pending, `already` when it was active,
 * null when the subscriber is gone or has unsubscribed since (the link is no longer good).
 */
export async function confirmSubscription(
  db: Kysely<Database>,
  id: number,
): Promise<{ subscriber: Subscriber; outcome: "confirmed" | "already" } | null> {
  const confirmed = await db
    .updateTable("newsletterSubscribers")
    .set({ isActive: true, confirmedAt: sql<Date>`now()` })
    .where("id", "=", id)
    .where("confirmedAt", "is", null)
    .where("unsubscribedAt", "is", null)
    .returning(["id", "email", "language"])
    .executeTakeFirst();
  if (confirmed) return { subscriber: confirmed, outcome: "confirmed" };
  const active = await db
    .selectFrom("newsletterSubscribers")
    .select(["id", "email", "language"])
    .where("id", "=", id)
    .where("isActive", "=", true)
    .executeTakeFirst();
  return active ? { subscriber: active, outcome: "already" } : null;
}

/** Unsubscribes (also a pending sign-up); the language of the subscriber, or null when there is none. */
export async function unsubscribe(db: Kysely<Database>, id: number): Promise<{ language: string } | null> {
  const row = await db
    .updateTable("newsletterSubscribers")
    .set({ isActive: false, unsubscribedAt: sql<Date>`coalesce(unsubscribed_at, now())` })
    .where("id", "=", id)
    .returning("language")
    .executeTakeFirst();
  return row ?? null;
}

/** Confirmed, active subscribers, oldest first, for the admin's export. */
export async function confirmedSubscribers(db: Kysely<Database>) {
  return db
    .selectFrom("newsletterSubscribers")
    .select(["email", "language", "confirmedAt", "consentedAt", "consentPage"])
    .where("isActive", "=", true)
    .orderBy("confirmedAt")
    .orderBy("id")
    .execute();
}

/** How many addresses are confirmed (the ones that count) and how many are waiting for confirmation. */
export async function subscriberCounts(db: Kysely<Database>): Promise<{ confirmed: number; pending: number }> {
  const row = await db
    .selectFrom("newsletterSubscribers")
    .select([
      sql<string>`count(*) FILTER (WHERE is_active)`.as("confirmed"),
      sql<string>`count(*) FILTER (WHERE NOT is_active AND confirmed_at IS NULL AND unsubscribed_at IS NULL)`.as(
        "pending",
      ),
    ])
    .executeTakeFirstOrThrow();
  return { confirmed: Number(row.confirmed), pending: Number(row.pending) };
}
