/**
 * "Waiting on us" in SQL: waitingSince of src/shared/follow-ups.ts (the rule's one definition) as
 * the lists' WHERE and the Due panel's and digest's columns read it. A lead waits from its enquiry
 * until a reply (stage new), and again, while open, from the lead's oldest answer (lead_messages
 * 'in') that no reply of ours ('out', at the same time or later) followed.
 */
import { type RawBuilder, sql } from "kysely";
import { OPEN_STAGES } from "#shared/leads.ts";

/** How a query names the enquiries table: the lists read it bare, the Due panel as `e`. */
type EnquiriesName = "enquiries" | "e";

/** The open stages after new, where only an unanswered answer of the lead makes it wait. */
const ANSWERED_OPEN = OPEN_STAGES.filter((stage) => stage !== "new");

/** The answers of a lead no reply of ours followed (`m`), optionally only those before `before`. */
const unanswered = (before?: Date) => sql`
  FROM lead_messages AS m
  WHERE m.direction = 'in'${before ? sql` AND m.created_at < ${before}` : sql``}
    AND NOT EXISTS (
      SELECT 1 FROM lead_messages AS o
      WHERE o.enquiry_id = m.enquiry_id AND o.direction = 'out' AND o.created_at >= m.created_at)`;

/**
 * WHERE the lead waits on us; with `before`, only when it has waited since before that instant
 * (the overdue filter's line). The answers are read as one hashed set, not a probe per lead.
 */
export function waitingOnUs(table: EnquiriesName, before?: Date): RawBuilder<boolean> {
  const t = sql.raw(table);
  return sql<boolean>`((${t}.stage = 'new'${before ? sql` AND ${t}.created_at < ${before}` : sql``})
    OR (${t}.stage IN (${sql.join(ANSWERED_OPEN)}) AND ${t}.id IN (SELECT m.enquiry_id ${unanswered(before)})))`;
}

/** The time of the lead's oldest answer that no reply of ours followed, or null: waitingSince's `unansweredSince`. */
export const unansweredSince = (table: EnquiriesName): RawBuilder<Date | null> =>
  sql<Date | null>`(SELECT min(m.created_at) ${unanswered()} AND m.enquiry_id = ${sql.raw(table)}.id)`;

/** waitingSince as a column (null when the lead does not wait), for ordering by how long a lead has waited. */
export const waitingSinceColumn = (table: EnquiriesName): RawBuilder<Date | null> => {
  const t = sql.raw(table);
  return sql<Date | null>`CASE WHEN ${t}.stage = 'new' THEN ${t}.created_at
    WHEN ${t}.stage IN (${sql.join(ANSWERED_OPEN)}) THEN ${unansweredSince(table)} END`;
};
