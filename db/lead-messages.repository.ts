import { type Kysely, sql } from "kysely";
import type { LeadMessage } from "#shared/api/replies.ts";
import { enqueue, type OutboxMessage } from "./outbox.repository.ts";
import type { Database } from "./types.ts";

export type { LeadMessage };

/**
 * The lead desk's conversation with a lead (table lead_messages): the replies staff send from the
 * panel (each written in one transaction with its outbox row) and the lead's answers that come back
 * through the inbound route (functions/inbound-mailgun.ts). Text only.
 */

/** What a reply needs of its lead: the person, and the Message-ID of their acknowledgement (its outbox row). */
export interface ReplyLead {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  service: string;
  language: string;
  anonymisedAt: Date | null;
  /** The outbox row of the acknowledgement the visitor got (null when it was skipped or erased). */
  acknowledgementId: string | null;
}

export async function findReplyLead(db: Kysely<Database>, enquiryId: number): Promise<ReplyLead | undefined> {
  return db
    .selectFrom("enquiries as e")
    .select(["e.id", "e.firstName", "e.lastName", "e.email", "e.service", "e.language", "e.anonymisedAt"])
    .select((eb) =>
      eb
        .selectFrom("emailOutbox as o")
        .select("o.id")
        .whereRef("o.enquiryId", "=", "e.id")
        .where("o.kind", "=", "enquiry.visitor")
        .orderBy("o.id")
        .limit(1)
        .as("acknowledgementId"),
    )
    .where("e.id", "=", enquiryId)
    .executeTakeFirst();
}

const toMessage = (row: {
  id: string;
  enquiryId: number;
  direction: "out" | "in";
  fromAddress: string;
  toAddress: string;
  subject: string;
  textBody: string;
  messageId: string | null;
  inReplyTo: string | null;
  sentBy: string | null;
  createdAt: Date;
}): LeadMessage => ({
  id: String(row.id),
  enquiryId: row.enquiryId,
  direction: row.direction,
  from: row.fromAddress,
  to: row.toAddress,
  subject: row.subject,
  text: row.textBody,
  messageId: row.messageId,
  inReplyTo: row.inReplyTo,
  sentBy: row.sentBy,
  createdAt: new Date(row.createdAt).toISOString(),
});

const COLUMNS = [
  "id",
  "enquiryId",
  "direction",
  "fromAddress",
  "toAddress",
  "subject",
  "textBody",
  "messageId",
  "inReplyTo",
  "sentBy",
  "createdAt",
] as const;

/** A lead's messages, oldest first (at most `limit`, the newest of them). */
export async function listLeadMessages(db: Kysely<Database>, enquiryId: number, limit = 200): Promise<LeadMessage[]> {
  const rows = await db
    .selectFrom("leadMessages")
    .select(COLUMNS)
    .where("enquiryId", "=", enquiryId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.reverse().map(toMessage);
}

export interface OutgoingReply {
  enquiryId: number;
  from: string;
  sentBy: string;
  /** Its email: To the lead, Reply-To the owner and the lead's reply address, In-Reply-To set. */
  email: OutboxMessage & { inReplyTo: string | null };
}

/**
 * Writes a reply to the outbox and to the lead's messages in one transaction; `messageIdOf` names
 * the Message-ID the outbox row will be sent with. `after` runs in the same transaction (the lead's
 * stage). Answers the outbox row's id and the stored message.
 */
export async function storeOutgoingReply(
  db: Kysely<Database>,
  reply: OutgoingReply,
  messageIdOf: (outboxId: string) => string,
  after?: (trx: Kysely<Database>) => Promise<unknown>,
): Promise<{ outboxId: string; message: LeadMessage }> {
  return db.transaction().execute(async (trx) => {
    const [outboxId] = await enqueue(trx, [reply.email]);
    const row = await trx
      .insertInto("leadMessages")
      .values({
        enquiryId: reply.enquiryId,
        direction: "out",
        fromAddress: reply.from,
        toAddress: reply.email.to,
        subject: reply.email.subject,
        textBody: reply.email.text,
        messageId: messageIdOf(outboxId),
        inReplyTo: reply.email.inReplyTo,
        sentBy: reply.sentBy,
        outboxId,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    await after?.(trx);
    return { outboxId, message: toMessage(row) };
  });
}

/**
 * The enquiry a message answers, by its In-Reply-To and References: a Message-ID of a message on
 * lead_messages, or of one of our outbox rows (`outboxIds`, parsed from <outbox-N@host>). Newest wins.
 */
export async function enquiryByMessageIds(
  db: Kysely<Database>,
  messageIds: readonly string[],
  outboxIds: readonly string[],
): Promise<number | null> {
  if (messageIds.length) {
    const hit = await db
      .selectFrom("leadMessages")
      .select("enquiryId")
      .where("messageId", "in", messageIds)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (hit) return hit.enquiryId;
  }
  if (outboxIds.length) {
    const hit = await db
      .selectFrom("emailOutbox")
      .select("enquiryId")
      .where("id", "in", outboxIds)
      .where("enquiryId", "is not", null)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (hit?.enquiryId != null) return hit.enquiryId;
  }
  return null;
}

/** Whether an enquiry exists and still holds its person (not anonymised). */
export async function enquiryStanding(
  db: Kysely<Database>,
  enquiryId: number,
): Promise<"open" | "anonymised" | "missing"> {
  const row = await db.selectFrom("enquiries").select("anonymisedAt").where("id", "=", enquiryId).executeTakeFirst();
  return !row ? "missing" : row.anonymisedAt ? "anonymised" : "open";
}

/**
 * Takes an inbound post's signature token: true the first time, false for a token already taken
 * (a replay). Tokens older than a day are forgotten (a post is only accepted within minutes of its
 * timestamp, so an old token can never verify again).
 */
export async function takeInboundToken(db: Kysely<Database>, token: string): Promise<boolean> {
  await db
    .deleteFrom("inboundTokens")
    .where("seenAt", "<", sql<Date>`now() - interval '1 day'`)
    .execute();
  const taken = await db
    .insertInto("inboundTokens")
    .values({ token })
    .onConflict((oc) => oc.column("token").doNothing())
    .returning("token")
    .executeTakeFirst();
  return Boolean(taken);
}

export interface IncomingMessage {
  enquiryId: number;
  from: string;
  to: string;
  subject: string;
  text: string;
  messageId: string | null;
  inReplyTo: string | null;
}

/**
 * Stores a lead's answer, once per Message-ID (a second post of the same message stores nothing),
 * unless the enquiry was anonymised meanwhile. Answers the stored message, or null.
 */
export async function storeIncoming(db: Kysely<Database>, message: IncomingMessage): Promise<LeadMessage | null> {
  const { rows } = await sql<Parameters<typeof toMessage>[0]>`
    INSERT INTO lead_messages (enquiry_id, direction, from_address, to_address, subject, text_body, message_id, in_reply_to)
    SELECT id, 'in', ${message.from}, ${message.to}, ${message.subject}, ${message.text}, ${message.messageId}, ${message.inReplyTo}
    FROM enquiries WHERE id = ${message.enquiryId} AND anonymised_at IS NULL
    ON CONFLICT (enquiry_id, message_id) WHERE direction = 'in' AND message_id IS NOT NULL DO NOTHING
    RETURNING id, enquiry_id, direction, from_address, to_address, subject, text_body, message_id, in_reply_to, sent_by, created_at`.execute(
    db,
  );
  return rows[0] ? toMessage(rows[0]) : null;
}
