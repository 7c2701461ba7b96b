import type { Kysely } from "kysely";
import type { AdminMeeting, EmailStatus, Meeting } from "../src/shared/api.ts";
import { DEFAULT_LANGUAGE, requireLanguage, type Language } from "../src/shared/languages.ts";
import { isUniqueViolation } from "./errors.ts";
import { meetingEmailStatus } from "./outbox.repository.ts";
import { after, decodeCursor, DEFAULT_PAGE_SIZE, type Page, type PageRequest, toPage } from "./paging.ts";
import { isSerialId, toIso } from "./rows.ts";
import type { Database, MeetingRow } from "./types.ts";

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

const toAdminMeeting = (row: MeetingRow & { emailStatus: EmailStatus | null }): AdminMeeting => ({
  ...toMeeting(row),
  emailStatus: row.emailStatus,
});

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

/** Every reservation, newest request first, with the state of its emails. */
export async function listMeetings(
  db: Kysely<Database>,
  { limit = DEFAULT_PAGE_SIZE, cursor }: PageRequest = {},
): Promise<Page<AdminMeeting>> {
  const position = cursor ? decodeCursor(cursor) : null;
  const rows = await db
    .selectFrom("meetings")
    .selectAll()
    .select(meetingEmailStatus())
    .$if(position !== null, (q) => q.where(after(position!)))
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  return toPage(rows, limit, toAdminMeeting);
}

/** One reservation with the state of its emails; undefined when there is no such reservation. */
export async function getMeeting(db: Kysely<Database>, id: number): Promise<AdminMeeting | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .selectFrom("meetings")
    .selectAll()
    .select(meetingEmailStatus())
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
