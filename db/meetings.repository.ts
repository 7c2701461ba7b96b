import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { ALL_CONSULTANTS, isUnfiltered, type MeetingFilters, type MeetingSort } from "#shared/admin-lists.ts";
import type { AdminMeeting, Meeting, MeetingLocation, MeetingOutcome } from "#shared/api/meetings.ts";
import { officeNow } from "#shared/dates.ts";
import { DEFAULT_LANGUAGE, requireLanguage, type Language } from "#shared/languages.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { newestNote, toNote } from "./admin-rows.ts";
import { isUniqueViolation } from "./errors.ts";
import {
  after,
  DEFAULT_PAGE_SIZE,
  type KeysetOrder,
  orderBy,
  type Page,
  type PageRequest,
  toPage,
  unfilteredPages,
} from "./paging.ts";
import { isSerialId, toIso } from "./rows.ts";
import { searchMatches } from "./search.ts";
import type { AdminMeetingRow, Database, MeetingChangesTable, MeetingRow } from "./types.ts";
import { toLeadSource } from "./sources.repository.ts";
import type { LeadSource } from "#shared/sources.ts";
import type { Assignment } from "#shared/consultants.ts";

/**
 * A reservation with what only the server needs: the SEQUENCE of its latest calendar invite, the
 * version its manage links carry, and who cancelled it.
 */
export type MeetingRecord = Meeting & {
  inviteSequence: number;
  manageVersion: number;
  cancelledBy: "admin" | "visitor" | null;
  /** Where it happens (the emails and the invite say it); null for meetings booked before meeting places. */
  location: MeetingLocation | null;
};

export type NewMeetingInput = {
  name: string;
  email: string;
  phone: string;
  /** yyyy-MM-dd */
  date: string;
  /** HH:mm */
  time: string;
  /** Defaults to DEFAULT_LANGUAGE. */
  language?: Language;
  /** Where it happens, fixed now and kept when the meeting moves. */
  location?: MeetingLocation;
  /** Where the booking came from (functions/_lib/sources.ts); null or missing when nothing is known. */
  source?: LeadSource | null;
  /** Whose meeting it is (consultants.id). */
  consultantId: string;
  /** Why it went to them. */
  assignment: Assignment;
};

/** The consultant already has a booking at the slot (date and time). */
export class SlotTakenError extends Error {
  readonly date: string;
  readonly time: string;
  readonly consultantId: string;

  constructor(date: string, time: string, consultantId: string, options?: ErrorOptions) {
    super(`${consultantId}'s slot ${date} ${time} is already booked`, options);
    this.name = "SlotTakenError";
    this.date = date;
    this.time = time;
    this.consultantId = consultantId;
  }
}

/** The meeting is cancelled: it can no longer be confirmed, moved or cancelled again. */
export class MeetingCancelledError extends Error {
  constructor(id: number) {
    super(`Meeting #${id} is cancelled`);
    this.name = "MeetingCancelledError";
  }
}

/** A row as the API shows it; a stored language that is no longer one of ours fails here, loudly. */
function toMeeting(row: Omit<MeetingRow, "anonymisedAt">): Meeting {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    date: row.date,
    time: row.time,
    language: requireLanguage(row.language, `meetings #${row.id}`),
    createdAt: toIso(row.createdAt),
    isConfirmed: row.isConfirmed,
    cancelledAt: row.cancelledAt ? toIso(row.cancelledAt) : null,
    consultant: row.consultantId,
  };
}

const toLocation = (row: Pick<MeetingRow, "locationKind" | "locationDetail">): MeetingLocation | null =>
  row.locationKind ? { kind: row.locationKind, detail: row.locationDetail } : null;

const toMeetingRecord = (row: MeetingRow): MeetingRecord => ({
  ...toMeeting(row),
  inviteSequence: row.inviteSequence,
  manageVersion: row.manageVersion,
  cancelledBy: row.cancelledBy,
  location: toLocation(row),
});

const toAdminMeeting = (row: AdminMeetingRow): AdminMeeting => ({
  ...toMeeting(row),
  emailStatus: row.emailStatus,
  cancelledBy: row.cancelledBy,
  note: toNote(row),
  location: toLocation(row),
  outcome: row.outcome,
  source: toLeadSource(row.source),
  assignment: row.assignment,
});

const byCreated = (direction: "asc" | "desc", name: MeetingSort): KeysetOrder<AdminMeetingRow> => ({
  name,
  columns: ["created_at", "id"],
  kinds: ["instant", "id"],
  direction,
  key: (row) => [toIso(row.createdAt), row.id],
});
const bySlot = (direction: "asc" | "desc", name: MeetingSort): KeysetOrder<AdminMeetingRow> => ({
  name,
  columns: ["date", "time", "id"],
  kinds: ["date", "time", "id"],
  direction,
  key: (row) => [row.date, row.time, row.id],
});

/** The orders the meetings list offers: by request time, or by the meeting's own date and time. */
export const MEETING_ORDERS: Record<MeetingSort, KeysetOrder<AdminMeetingRow>> = {
  newest: byCreated("desc", "newest"),
  oldest: byCreated("asc", "oldest"),
  soonest: bySlot("asc", "soonest"),
  latest: bySlot("desc", "latest"),
};

/**
 * The meetings the admin's lists show: not an erased person's (db/privacy.repository.ts keeps its
 * row, anonymised, so that the figures over time still add up; there is nothing left to work on).
 */
const listed = <O>(query: SelectQueryBuilder<Database, "meetings", O>) => query.where("anonymisedAt", "is", null);

/** The WHERE of the filters (src/shared/admin-lists.ts); "upcoming" is a slot that has not started, office time. */
function filtered<O>(query: SelectQueryBuilder<Database, "meetings", O>, filters: MeetingFilters, now: Date) {
  const office = officeNow(now, OFFICE_TIME_ZONE);
  return listed(query)
    .$if(Boolean(filters.q), (q) => q.where(searchMatches(filters.q!)))
    .$if(filters.status !== undefined, (q) => q.where("isConfirmed", "=", filters.status === "confirmed"))
    .$if(filters.language !== undefined, (q) => q.where("language", "=", filters.language!))
    .$if(filters.consultant !== undefined && filters.consultant !== ALL_CONSULTANTS, (q) =>
      q.where("consultantId", "=", filters.consultant!),
    )
    .$if(filters.from !== undefined, (q) => q.where("date", ">=", filters.from!))
    .$if(filters.to !== undefined, (q) => q.where("date", "<=", filters.to!))
    .$if(filters.when === "upcoming", (q) => q.where(sql<boolean>`(date, time) >= (${office.date}, ${office.time})`))
    .$if(filters.when === "past", (q) => q.where(sql<boolean>`(date, time) < (${office.date}, ${office.time})`));
}

/** The API record of a reservation, without what only the server needs. */
export function publicMeeting({
  inviteSequence: _sequence,
  manageVersion: _version,
  cancelledBy: _by,
  location: _location,
  ...meeting
}: MeetingRecord): Meeting {
  return meeting;
}

/**
 * Books a consultant's slot. Throws SlotTakenError when they have a meeting then: the unique index
 * (consultant, date, time) decides, so two concurrent requests for one consultant's slot can never
 * both succeed.
 */
export async function createMeeting(db: Kysely<Database>, input: NewMeetingInput): Promise<MeetingRecord> {
  try {
    const row = await db
      .insertInto("meetings")
      .values({
        name: input.name,
        email: input.email,
        phone: input.phone,
        date: input.date,
        time: input.time,
        language: input.language ?? DEFAULT_LANGUAGE,
        locationKind: input.location?.kind ?? null,
        locationDetail: input.location?.detail ?? null,
        source: input.source ? JSON.stringify(input.source) : null,
        consultantId: input.consultantId,
        assignment: JSON.stringify(input.assignment),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toMeetingRecord(row);
  } catch (error) {
    if (isUniqueViolation(error, "meetings_slot_unique")) {
      throw new SlotTakenError(input.date, input.time, input.consultantId, { cause: error });
    }
    throw error;
  }
}

/**
 * The reservations that match `filters`, a page at a time, newest request first unless sorted
 * otherwise, with the state of their emails and their notes.
 */
export async function listMeetings(
  db: Kysely<Database>,
  { limit = DEFAULT_PAGE_SIZE, cursor }: PageRequest = {},
  filters: MeetingFilters = {},
  now = new Date(),
): Promise<Page<AdminMeeting>> {
  const order = MEETING_ORDERS[filters.sort ?? "newest"];
  const rows = isUnfiltered(filters)
    ? await unfilteredMeetings(db, order, { limit, cursor: cursor ?? null })
    : await filtered(db.selectFrom("meetings").selectAll().select(newestNote("meetings")), filters, now)
        .$if(Boolean(cursor), (q) => q.where(after(order, cursor!)))
        .orderBy(orderBy(order))
        .limit(limit + 1)
        .execute();
  return toPage(rows, limit, order, toAdminMeeting);
}

// The reservations as the list opens and pages on, without a filter: compiled once.
const unfilteredMeetings = unfilteredPages(MEETING_ORDERS, (db: Kysely<Database>) =>
  listed(db.selectFrom("meetings").selectAll().select(newestNote("meetings"))),
);

/** One reservation with the state of its emails; undefined when there is no such reservation. */
export async function getMeeting(db: Kysely<Database>, id: number): Promise<AdminMeeting | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .selectFrom("meetings")
    .selectAll()
    .select(newestNote("meetings"))
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toAdminMeeting(row);
}

/**
 * Marks a reservation confirmed or pending; undefined when there is no such reservation. A real
 * change bumps the invite SEQUENCE (the visitor is about to get an updated invite) and says so in
 * `changed`; setting the state it already has changes nothing. Run it in a transaction with the
 * email it triggers: the row stays locked until then, so two admins cannot both send a change.
 */
export async function setConfirmed(
  db: Kysely<Database>,
  id: number,
  isConfirmed: boolean,
): Promise<{ meeting: MeetingRecord; changed: boolean } | undefined> {
  if (!isSerialId(id)) return undefined;
  const current = await db.selectFrom("meetings").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  if (!current) return undefined;
  if (current.cancelledAt) throw new MeetingCancelledError(id);
  if (current.isConfirmed === isConfirmed) return { meeting: toMeetingRecord(current), changed: false };
  const row = await db
    .updateTable("meetings")
    .set((eb) => ({ isConfirmed, inviteSequence: eb("inviteSequence", "+", 1) }))
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { meeting: toMeetingRecord(row), changed: true };
}

/**
 * One reservation, locked until the end of the transaction (FOR UPDATE), so a cancel, a move and
 * a confirmation of one meeting happen one after the other; undefined when there is none.
 */
export async function lockMeeting(db: Kysely<Database>, id: number): Promise<MeetingRecord | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db.selectFrom("meetings").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  return row && toMeetingRecord(row);
}

/**
 * Cancels a meeting (lock it first with lockMeeting): its slot is free at once, the next invite
 * SEQUENCE goes to the cancellation, older manage links stop working, and a reminder not yet sent
 * is dropped. Throws MeetingCancelledError when it already is cancelled.
 */
export async function cancelMeeting(db: Kysely<Database>, id: number, by: "admin" | "visitor"): Promise<MeetingRecord> {
  const row = await db
    .updateTable("meetings")
    .set((eb) => ({
      cancelledAt: sql<Date>`now()`,
      cancelledBy: by,
      inviteSequence: eb("inviteSequence", "+", 1),
      manageVersion: eb("manageVersion", "+", 1),
    }))
    .where("id", "=", id)
    .where("cancelledAt", "is", null)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new MeetingCancelledError(id);
  await dropUnsentReminders(db, id);
  return toMeetingRecord(row);
}

/** Who moves a meeting: the visitor on the manage page, or an admin in the panel. */
export type MeetingMover = { by: "visitor" } | { by: "admin"; userId: number; username: string };

/**
 * Moves a meeting to another slot of consultant `slot.consultantId` (its own, or another's when
 * staff hand it over; lock it first with lockMeeting, in the transaction that calls this). The
 * database's unique index decides a race for the new slot (SlotTakenError), exactly as for a
 * booking. The invite keeps its UID with the next SEQUENCE, older manage links stop working and the
 * reminder is due again. The move, from the slot it `was` (as locked), and who made it are kept in
 * meeting_changes for the person's timeline.
 */
export async function moveMeeting(
  db: Kysely<Database>,
  id: number,
  slot: { date: string; time: string; consultantId: string },
  was: Pick<MeetingRecord, "date" | "time" | "consultant">,
  mover: MeetingMover,
): Promise<MeetingRecord> {
  try {
    const row = await db
      .updateTable("meetings")
      .set((eb) => ({
        date: slot.date,
        time: slot.time,
        consultantId: slot.consultantId,
        inviteSequence: eb("inviteSequence", "+", 1),
        manageVersion: eb("manageVersion", "+", 1),
        reminderQueuedAt: null,
      }))
      .where("id", "=", id)
      .where("cancelledAt", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new MeetingCancelledError(id);
    await db
      .insertInto("meetingChanges")
      .values({
        meetingId: id,
        fromDate: was.date,
        fromTime: was.time,
        fromConsultant: was.consultant,
        toDate: row.date,
        toTime: row.time,
        toConsultant: row.consultantId,
        by: mover.by,
        byUserId: mover.by === "admin" ? mover.userId : null,
        byUsername: mover.by === "admin" ? mover.username : null,
      })
      .execute();
    await dropUnsentReminders(db, id);
    return toMeetingRecord(row);
  } catch (error) {
    if (isUniqueViolation(error, "meetings_slot_unique"))
      throw new SlotTakenError(slot.date, slot.time, slot.consultantId, { cause: error });
    throw error;
  }
}

/** A meeting_changes row as the timeline and the data export show it: the slot before and after, and who moved it. */
export const toMeetingChange = (
  r: Pick<
    MeetingChangesTable,
    "fromDate" | "fromTime" | "fromConsultant" | "toDate" | "toTime" | "toConsultant" | "by" | "byUsername"
  >,
) => ({
  from: { date: r.fromDate, time: r.fromTime, consultant: r.fromConsultant },
  to: { date: r.toDate, time: r.toTime, consultant: r.toConsultant },
  by: r.by,
  staff: r.byUsername,
});

/**
 * Marks a meeting as reminded without a reminder: the email just sent (its confirmation, or the
 * news of its move) already falls within the reminder's 24 hours and names the time.
 */
export async function markReminded(db: Kysely<Database>, id: number): Promise<void> {
  await db
    .updateTable("meetings")
    .set({ reminderQueuedAt: sql<Date>`now()` })
    .where("id", "=", id)
    .execute();
}

/** A reminder still waiting in the outbox would name the old time, or a meeting that is off: it goes. */
async function dropUnsentReminders(db: Kysely<Database>, meetingId: number): Promise<void> {
  await db
    .deleteFrom("emailOutbox")
    .where("meetingId", "=", meetingId)
    .where("kind", "=", "meeting.reminder")
    .where("status", "in", ["pending", "failed"])
    .execute();
}

/**
 * Claims the confirmed meetings whose reminder is due: starting after `from` and no later than
 * `until` (office-local date and time), not cancelled, not reminded. Claimed rows are marked in the
 * same statement (FOR UPDATE SKIP LOCKED), so runs that overlap never claim one meeting twice. Call
 * it in the transaction that queues the reminders: a rollback releases the claim.
 */
export async function claimDueReminders(
  db: Kysely<Database>,
  from: { date: string; time: string },
  until: { date: string; time: string },
  limit = 100,
): Promise<MeetingRecord[]> {
  const { rows } = await sql<MeetingRow>`
    WITH due AS (
      SELECT id FROM meetings
      WHERE is_confirmed AND cancelled_at IS NULL AND reminder_queued_at IS NULL
        AND (date, time) > (${from.date}, ${from.time})
        AND (date, time) <= (${until.date}, ${until.time})
      ORDER BY date, time
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE meetings AS m SET reminder_queued_at = now()
    FROM due WHERE m.id = due.id
    RETURNING m.*`.execute(db);
  return rows.map(toMeetingRecord);
}

/** The meeting has not started yet, or is cancelled: it has no outcome to mark. */
export class OutcomeTooEarlyError extends Error {
  constructor(id: number) {
    super(`Meeting #${id} has not taken place`);
    this.name = "OutcomeTooEarlyError";
  }
}

/**
 * Marks how a meeting went (done or no-show; null clears it), by admin `by`. Only a standing
 * meeting that has started (office time `now`) has an outcome: otherwise OutcomeTooEarlyError, or
 * MeetingCancelledError. Undefined when there is no such meeting.
 */
export async function setMeetingOutcome(
  db: Kysely<Database>,
  id: number,
  outcome: MeetingOutcome | null,
  by: string,
  now: Date,
): Promise<AdminMeeting | undefined> {
  if (!isSerialId(id)) return undefined;
  const office = officeNow(now, OFFICE_TIME_ZONE);
  return db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("meetings").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
    if (!current) return undefined;
    if (current.cancelledAt) throw new MeetingCancelledError(id);
    if (current.date > office.date || (current.date === office.date && current.time > office.time))
      throw new OutcomeTooEarlyError(id);
    const row = await trx
      .updateTable("meetings")
      .set(
        outcome
          ? { outcome, outcomeAt: sql<Date>`now()`, outcomeBy: by }
          : { outcome: null, outcomeAt: null, outcomeBy: null },
      )
      .where("id", "=", id)
      .returningAll()
      .returning(newestNote("meetings"))
      .executeTakeFirstOrThrow();
    return toAdminMeeting(row);
  });
}

/**
 * The meetings of a calendar feed: every meeting from `fromDate` on, the whole office's or
 * consultant `consultantId`'s, cancelled ones too (the feed marks them cancelled), but not those
 * whose personal fields were blanked.
 */
export async function meetingsForFeed(
  db: Kysely<Database>,
  fromDate: string,
  consultantId: string | null = null,
): Promise<MeetingRecord[]> {
  const rows = await db
    .selectFrom("meetings")
    .selectAll()
    .where("date", ">=", fromDate)
    .$if(consultantId !== null, (q) => q.where("consultantId", "=", consultantId!))
    .where("anonymisedAt", "is", null)
    .orderBy("date")
    .orderBy("time")
    .orderBy("id")
    .execute();
  return rows.map(toMeetingRecord);
}

/** Whose meeting `id` is (its consultant's id), or undefined when there is no such meeting. */
export async function meetingConsultant(db: Kysely<Database>, id: number): Promise<string | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db.selectFrom("meetings").select("consultantId").where("id", "=", id).executeTakeFirst();
  return row?.consultantId;
}
