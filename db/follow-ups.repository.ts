/**
 * Follow-ups that never slip: the leads due for the office (src/shared/follow-ups.ts) and the
 * owners' morning digest, claimed once per owner and office day with its outbox row.
 */
import { type Kysely, sql } from "kysely";
import { addDays, officeNow } from "#shared/dates.ts";
import { waitingSince, type DueLead, type DueReason } from "#shared/follow-ups.ts";
import { enquiryReference, OPEN_STAGES } from "#shared/leads.ts";
import type { OfficeRules } from "#shared/office.ts";
import { answerDeadlineDate, isAnswerOverdue, isFollowUpDue, lastOverdueArrivalDate } from "#shared/working-days.ts";
import { officeDayStart } from "./admin-rows.ts";
import { enqueue, type OutboxMessage } from "./outbox.repository.ts";
import type { Database } from "./types.ts";
import { unansweredSince, waitingOnUs, waitingSinceColumn } from "./waiting.ts";

/**
 * The leads due at `now`, longest due first (at most `limit`), for one owner or all: an open lead whose
 * follow-up date has come, or a lead waiting on us (waitingSince) past its answer time. The WHERE
 * narrows by the same rule (waiting since before the day after lastOverdueArrivalDate, db/waiting.ts);
 * each lead's reasons are then read with waitingSince, isAnswerOverdue and isFollowUpDue, the
 * rule's one definition.
 */
export async function dueLeads(
  db: Kysely<Database>,
  now: Date,
  rules: OfficeRules,
  { ownerId, limit }: { ownerId?: number; limit: number },
): Promise<DueLead[]> {
  const today = officeNow(now, rules.timeZone).date;
  const late = officeDayStart(lastOverdueArrivalDate(today, rules), 1);
  const rows = await db
    .selectFrom("enquiries as e")
    .leftJoin("users as u", "u.id", "e.ownerId")
    .select([
      "e.id",
      "e.firstName",
      "e.lastName",
      "e.createdAt",
      "e.stage",
      "e.followUpOn",
      "e.ownerId",
      "u.username as ownerName",
      unansweredSince("e").as("unansweredSince"),
    ])
    .where("e.anonymisedAt", "is", null)
    .where((eb) =>
      eb.or([waitingOnUs("e", late), eb.and([eb("e.followUpOn", "<=", today), eb("e.stage", "in", OPEN_STAGES)])]),
    )
    .$if(ownerId !== undefined, (q) => q.where("e.ownerId", "=", ownerId!))
    // The day it fell due, roughly: its follow-up date, or the day it began to wait if earlier.
    .orderBy(
      sql`least(e.follow_up_on, to_char(${waitingSinceColumn("e")} AT TIME ZONE ${rules.timeZone}::text, 'YYYY-MM-DD'))`,
    )
    .orderBy("e.id")
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const since = waitingSince({ ...r, unansweredSince: r.unansweredSince && new Date(r.unansweredSince) });
    const overdue = since !== null && isAnswerOverdue(since, now, rules);
    const followUp = r.followUpOn !== null && OPEN_STAGES.includes(r.stage) && isFollowUpDue(r.followUpOn, now, rules);
    const reasons: DueReason[] = [
      ...(followUp ? (["followUp"] as const) : []),
      ...(overdue ? (["overdue"] as const) : []),
    ];
    return {
      id: r.id,
      reference: enquiryReference(r.id),
      name: `${r.firstName} ${r.lastName}`.trim(),
      reasons,
      followUpOn: r.followUpOn,
      receivedAt: r.createdAt.toISOString(),
      answerDueBy: overdue ? answerDeadlineDate(officeNow(since, rules.timeZone).date, rules) : null,
      ownerId: r.ownerId,
      ownerName: r.ownerName ?? null,
    };
  });
}

/** The owners with an email address and their panel language: whom a digest can go to. */
export async function digestRecipients(
  db: Kysely<Database>,
  ownerIds: readonly number[],
): Promise<{ id: number; username: string; email: string; panelLanguage: string | null }[]> {
  if (!ownerIds.length) return [];
  const rows = await db
    .selectFrom("users")
    .select(["id", "username", "email", "panelLanguage"])
    .where("id", "in", [...ownerIds])
    .where("email", "is not", null)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ ...r, email: r.email! }));
}

/**
 * Claims the owner's digest of `officeDate` and queues its email in one transaction: the first
 * caller inserts the (owner, day) row and the outbox row and answers the outbox id; any other (a
 * second instance, a retried run) finds the row taken and answers null, queuing nothing.
 */
export async function claimDigest(
  db: Kysely<Database>,
  ownerId: number,
  officeDate: string,
  leads: number,
  message: OutboxMessage,
): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto("leadDigests")
      .values({ ownerId, officeDate, leads })
      .onConflict((oc) => oc.columns(["ownerId", "officeDate"]).doNothing())
      .returning("ownerId")
      .executeTakeFirst();
    if (!claimed) return null;
    const [id] = await enqueue(trx, [message]);
    await trx
      .updateTable("leadDigests")
      .set({ outboxId: id })
      .where("ownerId", "=", ownerId)
      .where("officeDate", "=", officeDate)
      .execute();
    return id;
  });
}

/** Deletes the digest claims older than `days` before `officeDate`; they only guard their own day. */
export async function pruneDigests(db: Kysely<Database>, officeDate: string, days = 30): Promise<number> {
  const result = await db
    .deleteFrom("leadDigests")
    .where("officeDate", "<", addDays(officeDate, -days))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
