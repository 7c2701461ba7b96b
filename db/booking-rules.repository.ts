/**
 * The admin's booking rules (the guardrails and the meeting place, one row of office_settings) and
 * what applying them needs from the meetings: a consultant's day under a per-day lock (the days that
 * are full are db/consultants.repository.ts's). src/shared/booking.ts holds the rules' meaning.
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
 * Consultant `consultantId`'s start times booked on `date` (cancelled meetings hold none), leaving
 * out meeting `except` (the one being moved), after taking that consultant's lock of the day: until
 * the transaction ends, no other booking or move onto their date can read the same list, so their
 * daily cap and buffers hold under concurrent requests (the unique index only guards one slot).
 * Call it in a transaction.
 */
export async function lockDayBookings(
  db: Kysely<Database>,
  date: string,
  consultantId: string,
  except?: number,
): Promise<string[]> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${"meetings-day " + consultantId}), hashtext(${date}))`.execute(db);
  const rows = await db
    .selectFrom("meetings")
    .select("time")
    .where("date", "=", date)
    .where("consultantId", "=", consultantId)
    .where("cancelledAt", "is", null)
    .$if(except !== undefined, (q) => q.where("id", "!=", except!))
    .orderBy("time")
    .execute();
  return rows.map((r) => r.time);
}
