/**
 * The admin's booking rules (the guardrails and the meeting place, one row of office_settings) and
 * what applying them needs from the meetings: the day's bookings under a per-day lock, and the days
 * that are full. src/shared/booking.ts holds the rules' meaning.
 */
import { type Kysely, sql } from "kysely";
import type { BookingRules } from "#shared/api/availability.ts";
import { defaultGuardrails, defaultMeetingPlace } from "#shared/office.ts";
import type { BookingRulesPayload } from "#shared/schemas/availability.ts";
import type { Database } from "./types.ts";

/** The stored booking rules (the defaults of src/shared/office.ts if the settings row is missing). */
export async function readBookingRules(db: Kysely<Database>): Promise<BookingRules> {
  const row = await db
    .selectFrom("officeSettings")
    .select([
      "noticeMinutes",
      "bufferBeforeMinutes",
      "bufferAfterMinutes",
      "dailyLimit",
      "changeCutoffMinutes",
      "meetingPlace",
      "videoPattern",
    ])
    .executeTakeFirst();
  return (
    row ?? {
      ...defaultGuardrails,
      meetingPlace: defaultMeetingPlace.kind,
      videoPattern: defaultMeetingPlace.videoPattern,
    }
  );
}

/** Replaces the booking rules whole. */
export async function saveBookingRules(db: Kysely<Database>, rules: BookingRulesPayload): Promise<BookingRules> {
  await db
    .updateTable("officeSettings")
    .set({ ...rules, updatedAt: sql<Date>`now()` })
    .execute();
  return readBookingRules(db);
}

/**
 * The start times booked on `date` (cancelled meetings hold none), leaving out meeting `except`
 * (the one being moved), after taking the day's lock: until the transaction ends, no other booking
 * or move onto this date can read the same list, so the daily cap and the buffers hold under
 * concurrent requests (the unique index only guards one slot). Call it in a transaction.
 */
export async function lockDayBookings(db: Kysely<Database>, date: string, except?: number): Promise<string[]> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('meetings-day'), hashtext(${date}))`.execute(db);
  const rows = await db
    .selectFrom("meetings")
    .select("time")
    .where("date", "=", date)
    .where("cancelledAt", "is", null)
    .$if(except !== undefined, (q) => q.where("id", "!=", except!))
    .orderBy("time")
    .execute();
  return rows.map((r) => r.time);
}

/** The dates from `from` to `to` with at least `limit` standing meetings: full by the daily cap. */
export async function fullDates(db: Kysely<Database>, from: string, to: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("meetings")
    .select("date")
    .where("date", ">=", from)
    .where("date", "<=", to)
    .where("cancelledAt", "is", null)
    .groupBy("date")
    .having(sql<number>`count(*)`, ">=", limit)
    .orderBy("date")
    .execute();
  return rows.map((r) => r.date);
}
