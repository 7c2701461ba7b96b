import { type Kysely, sql } from "kysely";
import { TIMELINE_LIMIT, type PersonTimelineAnswer, type TimelineItem } from "#shared/api/timeline.ts";
import { enquiryReference, meetingReference } from "#shared/leads.ts";
import { toMeetingChange } from "./meetings.repository.ts";
import { personNotes, recordEmail, type NoteRecord } from "./notes.repository.ts";
import { toIso } from "./rows.ts";
import type { Database } from "./types.ts";

/**
 * One person's timeline (GET /api/admin/people/{ref}): everything about the address of one record,
 * matched whole and in any case as an erasure matches it (lower(email) = lower(address)), newest
 * first, a page at a time: each source is read newest first (older than `before`, when given) up to
 * TIMELINE_LIMIT, then merged and cut at the limit, and `next` is the cursor of the older page.
 * A meeting shows where it stands now; each move or hand-over (meeting_changes) is an item of its
 * own, from the earlier slot to the later one, by the visitor or by whom of the staff.
 */

const sameAddress = (column: string, email: string) => sql<boolean>`lower(${sql.ref(column)}) = ${email}`;
const refOf = (r: { enquiryId: number | null; meetingId: number | null }) =>
  r.enquiryId !== null ? enquiryReference(r.enquiryId) : r.meetingId !== null ? meetingReference(r.meetingId) : null;

const after = (at: string) => new Date(Date.parse(at) + 1).toISOString();

/**
 * The page of `items` (newest first) that fits `limit`, and the cursor of the older page: an
 * exclusive instant just after the first item left out (items are kept in microseconds, answered in
 * ms). `horizon` is the newest of the oldest rows read by a source that filled its limit: older
 * items of other sources may sit between that source's unread rows, so the page stops above it. A
 * page ends at a millisecond's boundary, so that no item is split from another of the same instant.
 */
export function timelinePage<T extends { at: string }>(
  items: T[],
  limit: number,
  horizon: string | null = null,
): { page: T[]; next: string | null } {
  const known = horizon === null ? items : items.filter((item) => item.at > horizon);
  // A source with a whole page in one millisecond (never in practice): page on from it regardless.
  const visible = known.length ? known : items;
  const rest = visible === known && horizon !== null ? after(horizon) : null;
  if (visible.length <= limit) return { page: visible, next: rest };
  const boundary = visible[limit].at;
  let cut = limit;
  while (cut > 0 && visible[cut - 1].at === boundary) cut--;
  if (cut === 0) return { page: visible.slice(0, limit), next: boundary };
  return { page: visible.slice(0, cut), next: after(boundary) };
}

/** The oldest instant a source read when it filled its limit (it may hold older rows), else null. */
const oldestIfFull = (rows: readonly { at: Date }[], limit: number): string | null =>
  rows.length >= limit ? toIso(rows[rows.length - 1].at) : null;

/**
 * A person's meetings on the timeline: each booking (where it stands now, and whether it moved), its
 * cancellation and outcome, and every move or hand-over of any of their meetings (a move is newer
 * than its booking, so it may sit on a page above it). `oldest` is what each source's read says of
 * the page's horizon (oldestIfFull).
 */
async function meetingItems(db: Kysely<Database>, email: string, limit: number, before: Date | undefined) {
  const meetings = await db
    .selectFrom("meetings")
    .select(["id", "name", "date", "time", "isConfirmed", "cancelledAt", "cancelledBy", "outcome", "outcomeAt"])
    .select(["outcomeBy", "createdAt"])
    .select((eb) =>
      eb
        .exists(eb.selectFrom("meetingChanges").select("id").whereRef("meetingId", "=", "meetings.id"))
        .$castTo<boolean>()
        .as("moved"),
    )
    .where(sameAddress("email", email))
    .$if(before !== undefined, (q) => q.where("createdAt", "<", before!))
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const changes = await db
    .selectFrom("meetingChanges as c")
    .innerJoin("meetings as m", "m.id", "c.meetingId")
    .select(["c.meetingId", "c.at", "c.fromDate", "c.fromTime", "c.fromConsultant", "c.toDate", "c.toTime"])
    .select(["c.toConsultant", "c.by", "c.byUsername"])
    // Every meeting of the address, not only those of the page: a move is newer than its booking.
    .where(sameAddress("m.email", email))
    .$if(before !== undefined, (q) => q.where("c.at", "<", before!))
    .orderBy("c.at", "desc")
    .orderBy("c.id", "desc")
    .limit(limit)
    .execute();
  const items: TimelineItem[] = [
    ...meetings.flatMap((r): TimelineItem[] => {
      const ref = meetingReference(r.id);
      return [
        {
          kind: "meeting",
          at: toIso(r.createdAt),
          reference: ref,
          date: r.date,
          time: r.time,
          moved: r.moved,
          confirmed: r.isConfirmed,
          cancelledAt: r.cancelledAt && toIso(r.cancelledAt),
          cancelledBy: r.cancelledBy,
          outcome: r.outcome,
        },
        ...(r.cancelledAt
          ? [{ kind: "meeting-cancelled", at: toIso(r.cancelledAt), reference: ref, by: r.cancelledBy } as const]
          : []),
        ...(r.outcome && r.outcomeAt
          ? [
              {
                kind: "meeting-outcome",
                at: toIso(r.outcomeAt),
                reference: ref,
                outcome: r.outcome,
                by: r.outcomeBy,
              } as const,
            ]
          : []),
      ];
    }),
    ...changes.map((r): TimelineItem => ({
      kind: "meeting-moved",
      at: toIso(r.at),
      reference: meetingReference(r.meetingId),
      ...toMeetingChange(r),
    })),
  ];
  return {
    items,
    name: meetings[0]?.name ?? "",
    oldest: [
      oldestIfFull(
        meetings.map((r) => ({ at: r.createdAt })),
        limit,
      ),
      oldestIfFull(
        changes.map((r) => ({ at: r.at })),
        limit,
      ),
    ],
  };
}

export async function personTimeline(
  db: Kysely<Database>,
  record: NoteRecord,
  viewerId: number,
  { limit = TIMELINE_LIMIT, before }: { limit?: number; before?: Date } = {},
): Promise<PersonTimelineAnswer | undefined> {
  const raw = await recordEmail(db, record);
  if (raw === undefined) return undefined;
  const reference = record.kind === "enquiry" ? enquiryReference(record.id) : meetingReference(record.id);
  if (!raw) {
    return {
      person: { name: "", email: "", reference, erased: true },
      newsletter: { status: "none", since: null },
      items: [],
      truncated: false,
      next: null,
    };
  }
  const email = raw.toLowerCase();
  const enquiries = await db
    .selectFrom("enquiries as e")
    .leftJoin("users as u", "u.id", "e.ownerId")
    .select(["e.id", "e.firstName", "e.lastName", "e.service", "e.stage", "e.message", "e.createdAt", "u.username"])
    .where(sameAddress("e.email", email))
    .$if(before !== undefined, (q) => q.where("e.createdAt", "<", before!))
    .orderBy("e.createdAt", "desc")
    .orderBy("e.id", "desc")
    .limit(limit)
    .execute();
  const meetings = await meetingItems(db, email, limit, before);
  const enquiryIds = enquiries.map((r) => r.id);
  const emails = await db
    .selectFrom("emailOutbox")
    .select(["kind", "subject", "status", "createdAt", "sentAt", "enquiryId", "meetingId"])
    // What was sent to them (the staff's notices about them go to the office, not to them).
    .where(sameAddress("toAddress", email))
    // A lead reply is shown as the message itself.
    .where("kind", "<>", "lead.reply")
    .$if(before !== undefined, (q) => q.where("createdAt", "<", before!))
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const messages = enquiryIds.length
    ? await db
        .selectFrom("leadMessages")
        .select(["enquiryId", "direction", "subject", "textBody", "sentBy", "createdAt"])
        .where("enquiryId", "in", enquiryIds)
        .$if(before !== undefined, (q) => q.where("createdAt", "<", before!))
        .orderBy("createdAt", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute()
    : [];
  const events = enquiryIds.length
    ? await db
        .selectFrom("leadEvents as ev")
        .leftJoin("users as f", (j) => j.on(sql<boolean>`ev.kind = 'owner' AND f.id::text = ev.from_value`))
        .leftJoin("users as t", (j) => j.on(sql<boolean>`ev.kind = 'owner' AND t.id::text = ev.to_value`))
        .select(["ev.enquiryId", "ev.kind", "ev.fromValue", "ev.toValue", "ev.actorUsername", "ev.at"])
        .select(["f.username as fromName", "t.username as toName"])
        .where("ev.enquiryId", "in", enquiryIds)
        .$if(before !== undefined, (q) => q.where("ev.at", "<", before!))
        .orderBy("ev.at", "desc")
        .orderBy("ev.id", "desc")
        .limit(limit)
        .execute()
    : [];
  const notes = await personNotes(db, email, viewerId, limit, before);
  const subscriber = await db
    .selectFrom("newsletterSubscribers")
    .select(["isActive", "confirmedAt", "unsubscribedAt", "consentedAt"])
    .where(sameAddress("email", email))
    .executeTakeFirst();

  const items: TimelineItem[] = [
    ...enquiries.map((r): TimelineItem => ({
      kind: "enquiry",
      at: toIso(r.createdAt),
      reference: enquiryReference(r.id),
      service: r.service,
      stage: r.stage,
      owner: r.username,
      excerpt: r.message.split("\n", 1)[0].slice(0, 200),
    })),
    ...meetings.items,
    ...emails.map((r): TimelineItem => ({
      kind: "email",
      at: toIso(r.createdAt),
      reference: refOf(r),
      type: r.kind,
      subject: r.subject,
      status: r.status,
      sentAt: r.sentAt && toIso(r.sentAt),
    })),
    ...messages.map((r): TimelineItem => ({
      kind: "message",
      at: toIso(r.createdAt),
      reference: enquiryReference(r.enquiryId),
      direction: r.direction,
      subject: r.subject,
      text: r.textBody.slice(0, 2000),
      by: r.sentBy,
    })),
    ...notes.map((note): TimelineItem => ({ kind: "note", at: note.createdAt, note })),
    ...events.map((r): TimelineItem => ({
      kind: "change",
      at: toIso(r.at),
      reference: enquiryReference(r.enquiryId),
      change: r.kind,
      from: r.kind === "owner" ? (r.fromName ?? null) : r.fromValue,
      to: r.kind === "owner" ? (r.toName ?? null) : r.toValue,
      by: r.actorUsername,
    })),
  ]
    // A meeting's cancellation or outcome after `before` was on a newer page.
    .filter((item) => !before || Date.parse(item.at) < before.getTime())
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));

  const name = enquiries.length ? `${enquiries[0].firstName} ${enquiries[0].lastName}`.trim() : meetings.name;
  const newsletter: PersonTimelineAnswer["newsletter"] = !subscriber
    ? { status: "none", since: null }
    : subscriber.unsubscribedAt
      ? { status: "unsubscribed", since: toIso(subscriber.unsubscribedAt) }
      : subscriber.isActive && subscriber.confirmedAt
        ? { status: "active", since: toIso(subscriber.confirmedAt) }
        : { status: "pending", since: toIso(subscriber.consentedAt) };
  const horizon =
    [
      oldestIfFull(
        enquiries.map((r) => ({ at: r.createdAt })),
        limit,
      ),
      ...meetings.oldest,
      oldestIfFull(
        emails.map((r) => ({ at: r.createdAt })),
        limit,
      ),
      oldestIfFull(
        messages.map((r) => ({ at: r.createdAt })),
        limit,
      ),
      oldestIfFull(
        events.map((r) => ({ at: r.at })),
        limit,
      ),
      oldestIfFull(
        notes.map((n) => ({ at: new Date(n.createdAt) })),
        limit,
      ),
    ]
      .filter((at): at is string => at !== null)
      .sort()
      .at(-1) ?? null;
  const { page, next } = timelinePage(items, limit, horizon);
  return { person: { name, email, reference, erased: false }, newsletter, items: page, truncated: next !== null, next };
}
