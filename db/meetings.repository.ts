import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { MeetingFilters, MeetingSort } from "../src/shared/admin-lists.ts";
import type { AdminMeeting, Meeting } from "../src/shared/api.ts";
import { officeNow } from "../src/shared/dates.ts";
import { DEFAULT_LANGUAGE, requireLanguage, type Language } from "../src/shared/languages.ts";
import { OFFICE_TIME_ZONE } from "../src/shared/office.ts";
import { toNote } from "./admin-rows.ts";
import { isUniqueViolation } from "./errors.ts";
import { after, DEFAULT_PAGE_SIZE, type KeysetOrder, orderBy, type Page, type PageRequest, toPage } from "./paging.ts";
import { isSerialId, toIso } from "./rows.ts";
import { searchMatches } from "./search.ts";
import type { AdminMeetingRow, Database, MeetingRow } from "./types.ts";

/** A reservation with what only the server needs: the SEQUENCE of its latest calendar invite. */
export type MeetingRecord = Meeting & { inviteSequence: number };

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
};

/** The slot (date and time) already has a booking. */
export class SlotTakenError extends Error {
  readonly date: string;
  readonly time: string;

  constructor(date: string, time: string, options?: ErrorOptions) {
    super(`The slot ${date} ${time} is already booked`, options);
    this.name = "SlotTakenError";
    this.date = date;
    this.time = time;
  }
}

/** A row as the API shows it; a stored language that is no longer one of ours fails here, loudly. */
function toMeeting(row: MeetingRow): Meeting {
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
  };
}

const toMeetingRecord = (row: MeetingRow): MeetingRecord => ({ ...toMeeting(row), inviteSequence: row.inviteSequence });

const toAdminMeeting = (row: AdminMeetingRow): AdminMeeting => ({
  ...toMeeting(row),
  emailStatus: row.emailStatus,
  note: toNote(row),
});

/** Every column an admin answer shows (not the search text, which only the WHERE reads). */
const ADMIN_COLUMNS = [
  "id",
  "name",
  "email",
  "phone",
  "date",
  "time",
  "language",
  "createdAt",
  "isConfirmed",
  "inviteSequence",
  "note",
  "noteBy",
  "noteAt",
  "emailStatus",
] as const;

const byCreated = (direction: "asc" | "desc", name: MeetingSort): KeysetOrder<AdminMeetingRow> => ({
  name,
  columns: ["created_at", "id"],
  direction,
  key: (row) => [toIso(row.createdAt), row.id],
});
const bySlot = (direction: "asc" | "desc", name: MeetingSort): KeysetOrder<AdminMeetingRow> => ({
  name,
  columns: ["date", "time", "id"],
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

/** The WHERE of the filters (src/shared/admin-lists.ts); "upcoming" is a slot that has not started, office time. */
function filtered<O>(query: SelectQueryBuilder<Database, "meetings", O>, filters: MeetingFilters, now: Date) {
  const office = officeNow(now, OFFICE_TIME_ZONE);
  return query
    .$if(Boolean(filters.q), (q) => q.where(searchMatches(filters.q!)))
    .$if(filters.status !== undefined, (q) => q.where("isConfirmed", "=", filters.status === "confirmed"))
    .$if(filters.language !== undefined, (q) => q.where("language", "=", filters.language!))
    .$if(filters.from !== undefined, (q) => q.where("date", ">=", filters.from!))
    .$if(filters.to !== undefined, (q) => q.where("date", "<=", filters.to!))
    .$if(filters.when === "upcoming", (q) => q.where(sql<boolean>`(date, time) >= (${office.date}, ${office.time})`))
    .$if(filters.when === "past", (q) => q.where(sql<boolean>`(date, time) < (${office.date}, ${office.time})`));
}

/**
 * Books a slot. Throws SlotTakenError when it is taken: the unique constraint decides, so two
 * concurrent requests for one slot can never both succeed.
 */
export async function createMeeting(db: Kysely<Database>, input: NewMeetingInput): Promise<Meeting> {
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
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toMeeting(row);
  } catch (error) {
    if (isUniqueViolation(error, "meetings_slot_unique")) {
      throw new SlotTakenError(input.date, input.time, { cause: error });
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
  const rows = await filtered(db.selectFrom("meetings").select(ADMIN_COLUMNS), filters, now)
    .$if(Boolean(cursor), (q) => q.where(after(order, cursor!)))
    .orderBy(orderBy(order))
    .limit(limit + 1)
    .execute();
  return toPage(rows, limit, order, toAdminMeeting);
}

/** One reservation with the state of its emails; undefined when there is no such reservation. */
export async function getMeeting(db: Kysely<Database>, id: number): Promise<AdminMeeting | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db.selectFrom("meetings").select(ADMIN_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row && toAdminMeeting(row);
}

/** Sets (or, with an empty text, removes) the internal note of a meeting; undefined when there is no such meeting. */
export async function setMeetingNote(
  db: Kysely<Database>,
  id: number,
  text: string,
  by: string,
): Promise<AdminMeeting | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .updateTable("meetings")
    .set(text ? { note: text, noteBy: by, noteAt: sql<Date>`now()` } : { note: null, noteBy: null, noteAt: null })
    .where("id", "=", id)
    .returning(ADMIN_COLUMNS)
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
  if (current.isConfirmed === isConfirmed) return { meeting: toMeetingRecord(current), changed: false };
  const row = await db
    .updateTable("meetings")
    .set((eb) => ({ isConfirmed, inviteSequence: eb("inviteSequence", "+", 1) }))
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { meeting: toMeetingRecord(row), changed: true };
}

/** The booked times on a date (yyyy-MM-dd), ascending. Pending reservations hold their slot too. */
export async function takenTimes(db: Kysely<Database>, date: string): Promise<string[]> {
  const rows = await db.selectFrom("meetings").select("time").where("date", "=", date).orderBy("time").execute();
  return rows.map((r) => r.time);
}
