import type { Kysely } from "kysely";
import { isUniqueViolation } from "./client.ts";
import { isSerialId, toIso } from "./rows.ts";
import type { Database, MeetingRow } from "./types.ts";

/** A meeting reservation as the admin API returns it. */
export type Meeting = {
  id: number;
  name: string;
  email: string;
  phone: string;
  date: string;
  time: string;
  createdAt: string;
  isConfirmed: boolean;
};

export type NewMeetingInput = {
  name: string;
  email: string;
  phone: string;
  /** yyyy-MM-dd */
  date: string;
  /** HH:mm */
  time: string;
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

function toMeeting(row: MeetingRow): Meeting {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    date: row.date,
    time: row.time,
    createdAt: toIso(row.createdAt),
    isConfirmed: row.isConfirmed,
  };
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

/** Every reservation, newest request first. */
export async function listMeetings(db: Kysely<Database>): Promise<Meeting[]> {
  const rows = await db
    .selectFrom("meetings")
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toMeeting);
}

/** Marks a reservation confirmed or pending; undefined when there is no such reservation. */
export async function setConfirmed(
  db: Kysely<Database>,
  id: number,
  isConfirmed: boolean,
): Promise<Meeting | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .updateTable("meetings")
    .set({ isConfirmed })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row && toMeeting(row);
}

/** The booked times on a date (yyyy-MM-dd), ascending. Pending reservations hold their slot too. */
export async function takenTimes(db: Kysely<Database>, date: string): Promise<string[]> {
  const rows = await db
    .selectFrom("meetings")
    .select("time")
    .where("date", "=", date)
    .orderBy("time")
    .execute();
  return rows.map((r) => r.time);
}
