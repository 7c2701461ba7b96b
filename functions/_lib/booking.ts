/** The booking check shared by a new booking and a visitor's move: the same rules, the same answer. */
import type { Kysely } from "kysely";
import { bookingContext } from "#db/availability.repository.ts";
import type { Database } from "#db/types.ts";
import { calendarStaleBefore, now, officeRules } from "#server/config.ts";
import { isBookable, officeDaySpan } from "#shared/booking.ts";
import { HttpError } from "./http.ts";

/** 400 unless the slot can be booked by the office rules (whether someone holds it is the database's call). */
export async function requireBookable(db: Kysely<Database>, date: string, time: string): Promise<void> {
  const span = { ...officeDaySpan(date, officeRules()), staleBefore: calendarStaleBefore(now()) };
  const { stored, busy } = await bookingContext(db, date, span);
  if (!isBookable(date, time, now(), officeRules(stored), busy)) {
    throw new HttpError(400, "The selected time is not available. Please select a time from the list.", {
      errors: { time: ["This time cannot be booked"] },
    });
  }
}
