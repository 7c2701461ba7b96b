/** The booking check shared by a new booking and a visitor's move: the same rules, the same answer. */
import type { Kysely } from "kysely";
import { bookingContext, type MeetingPlace } from "#db/availability.repository.ts";
import { lockDayBookings } from "#db/booking-rules.repository.ts";
import type { Database } from "#db/types.ts";
import { calendarStaleBefore } from "#server/config.ts";
import { now, officeRules } from "#server/office.ts";
import { dayConflict, isBookable, officeDaySpan } from "#shared/booking.ts";
import type { OfficeRules } from "#shared/office.ts";
import type { BookingRules } from "#shared/api/availability.ts";
import type { MeetingLocation } from "#shared/api/meetings.ts";
import { VIDEO_ROOM_MARKER } from "#shared/schemas/availability.ts";
import { officeAddressLine } from "#config/site.ts";
import { HttpError } from "../http/http.ts";

/**
 * 400 unless the slot can be booked by the office rules: hours, closures, the notice and the
 * connected calendars with the buffers (whether other meetings leave room is requireRoomOnDay's
 * call). Answers the rules it read, for that second check, and the meeting place, in one statement.
 */
export async function requireBookable(
  db: Kysely<Database>,
  date: string,
  time: string,
): Promise<{ rules: OfficeRules; place: MeetingPlace }> {
  const { stored, busy, place } = await bookingContext(db, date, {
    ...officeDaySpan(date, officeRules()),
    staleBefore: calendarStaleBefore(now()),
  });
  const rules = officeRules(stored);
  if (!isBookable(date, time, now(), rules, busy)) {
    throw new HttpError(400, "The selected time is not available. Please select a time from the list.", {
      errors: { time: ["This time cannot be booked"] },
    });
  }
  return { rules, place };
}

/**
 * 409 unless the day's other meetings leave room for one at `time`: `dailyLimitReached` when the
 * day has its cap of meetings, `timeSlotOccupied` when the slot or its buffers are taken. Takes the
 * day's lock (db/booking-rules.repository.ts), so run it in the transaction that books or moves;
 * `except` is the meeting being moved. Without a cap or buffers the day's other meetings cannot
 * stand in the way (the unique index guards the slot itself): then it costs no round trip.
 */
export async function requireRoomOnDay(
  db: Kysely<Database>,
  rules: OfficeRules,
  slot: { date: string; time: string },
  except?: number,
): Promise<void> {
  const { dailyLimit, bufferBeforeMinutes, bufferAfterMinutes } = rules.guardrails;
  if (dailyLimit === null && !bufferBeforeMinutes && !bufferAfterMinutes) return;
  const taken = await lockDayBookings(db, slot.date, except);
  const conflict = dayConflict(slot.time, taken, rules);
  if (conflict === "daily-limit") throw new HttpError(409, "dailyLimitReached");
  // A taken slot itself is left to the unique index, which also decides a race for it.
  if (conflict === "taken" && !taken.includes(slot.time)) throw new HttpError(409, "timeSlotOccupied");
}

const ROOM_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** A room name nobody can guess: 14 characters of 32 (70 bits) from the platform's CSPRNG. */
function roomName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(14));
  return Array.from(bytes, (b) => ROOM_ALPHABET[b % ROOM_ALPHABET.length]).join("");
}

/**
 * Where a meeting booked now happens, by the admin's choice: the office (its address), a phone
 * call (we call the number the visitor gave), or a video room of its own from the admin's pattern.
 */
export function newMeetingLocation(rules: Pick<BookingRules, "meetingPlace" | "videoPattern">): MeetingLocation {
  if (rules.meetingPlace === "video")
    return { kind: "video", detail: rules.videoPattern.replace(VIDEO_ROOM_MARKER, roomName()) };
  if (rules.meetingPlace === "phone") return { kind: "phone", detail: null };
  return { kind: "office", detail: officeAddressLine };
}
