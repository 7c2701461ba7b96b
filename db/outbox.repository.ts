import { type Kysely, sql } from "kysely";
import type { Database, OutboxRow } from "./types.ts";

/**
 * The email outbox: every message the site sends is a row here first, written atomically with the
 * enquiry or meeting it is about (the same statement for an enquiry, the same transaction for a
 * meeting). Senders claim due rows atomically, so two
 * overlapping runs never send one message twice, and a failed send waits and is tried again.
 */

/** Minutes to wait after the 1st, 2nd, … failed attempt; every hour after the last of these. */
export const RETRY_DELAYS_MINUTES = [1, 2, 5, 10, 30, 60] as const;
/** After this many failed attempts (about a day of retrying) a message is given up ("dead"). */
export const MAX_ATTEMPTS = 30;
/** How long a claimed row is held; a sender that dies mid-send releases it when this runs out. */
export const LOCK_MINUTES = 2;

export type OutboxMessage = {
  kind: string;
  enquiryId?: number | null;
  meetingId?: number | null;
  to: string;
  replyTo?: string | null;
  subject: string;
  text: string;
  html: string;
  ics?: string | null;
  /** One-click unsubscribe URL of a newsletter email (RFC 8058). */
  listUnsubscribe?: string | null;
  /** The Message-ID this message answers: sent as In-Reply-To and References (a reply to a lead). */
  inReplyTo?: string | null;
};

/** The outbox rows of messages (for an INSERT that also stores their record, such as storeEnquiry's). */
export const outboxValues = (messages: OutboxMessage[]) =>
  messages.map((m) => ({
    kind: m.kind,
    enquiryId: m.enquiryId ?? null,
    meetingId: m.meetingId ?? null,
    toAddress: m.to,
    replyTo: m.replyTo ?? null,
    subject: m.subject,
    textBody: m.text,
    htmlBody: m.html,
    ics: m.ics ?? null,
    listUnsubscribe: m.listUnsubscribe ?? null,
    inReplyTo: m.inReplyTo ?? null,
  }));

/** Adds messages to the outbox (call it inside the transaction that stores their record); returns their ids. An enquiry's go in with it: storeEnquiry. */
export async function enqueue(db: Kysely<Database>, messages: OutboxMessage[]): Promise<string[]> {
  if (!messages.length) return [];
  const rows = await db.insertInto("emailOutbox").values(outboxValues(messages)).returning("id").execute();
  return rows.map((r) => String(r.id));
}

/**
 * Claims up to `limit` due messages for sending, in one statement: each claimed row is marked
 * `sending`, locked for LOCK_MINUTES and has its attempt counted. Rows another sender holds are
 * skipped (FOR UPDATE SKIP LOCKED, and the lock time), so concurrent runs get disjoint rows. A row
 * left in `sending` by a sender that died is claimable again once its lock has run out.
 * With `ids`, only those rows are considered (the just-written messages of one request).
 */
export async function claimDue(db: Kysely<Database>, limit: number, ids?: readonly string[]): Promise<OutboxRow[]> {
  if (limit < 1 || (ids && !ids.length)) return [];
  const onlyIds = ids ? sql`AND id = ANY(${ids.map(String)}::bigint[])` : sql``;
  const { rows } = await sql<OutboxRow>`
    WITH due AS (
      SELECT id FROM email_outbox
      WHERE status IN ('pending', 'failed', 'sending')
        AND next_attempt_at <= now()
        AND (locked_until IS NULL OR locked_until < now())
        ${onlyIds}
      ORDER BY id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE email_outbox AS o
    SET status = 'sending',
        locked_until = now() + make_interval(mins => ${LOCK_MINUTES}),
        attempts = o.attempts + 1
    FROM due
    WHERE o.id = due.id
    RETURNING o.*`.execute(db);
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Records a successful send. Only the holder of the claim can do so (status still `sending`). */
export async function markSent(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await db
    .updateTable("emailOutbox")
    .set({ status: "sent", sentAt: sql<Date>`now()`, lockedUntil: null, lastError: null })
    .where("id", "in", ids)
    .where("status", "=", "sending")
    .execute();
}

/** Minutes until the next try after `attempts` failed attempts. */
export function retryDelayMinutes(attempts: number): number {
  return RETRY_DELAYS_MINUTES[attempts - 1] ?? 60;
}

/** Records a failed send: retried after the backoff delay, or `dead` once MAX_ATTEMPTS is reached. */
export async function markFailed(
  db: Kysely<Database>,
  row: Pick<OutboxRow, "id" | "attempts">,
  error: string,
): Promise<void> {
  const dead = row.attempts >= MAX_ATTEMPTS;
  await db
    .updateTable("emailOutbox")
    .set({
      status: dead ? "dead" : "failed",
      lastError: error.slice(0, 1000),
      lockedUntil: null,
      nextAttemptAt: sql<Date>`now() + make_interval(mins => ${retryDelayMinutes(row.attempts)})`,
    })
    .where("id", "=", row.id)
    .where("status", "=", "sending")
    .execute();
}

// What the admin lists show of a record's emails (its email_status column: "failing" when one has
// failed, else "sent" when all went out, else "pending"; null without emails) is kept by a trigger on
// this table, once per statement (migration 2026-11-23T04-00_admin-pipeline): a list page reads a
// column instead of aggregating the outbox for each of its rows.
