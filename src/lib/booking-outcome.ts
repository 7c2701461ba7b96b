/** What the booking dialog says after Confirm: the booked meeting, or why the booking failed. */
import { GUARD_CODES } from "#shared/form-guard.ts";
import { formatDate, formatTime } from "#shared/format.ts";
import type { Language } from "#shared/languages.ts";
import type { MeetingPlaceKind } from "#shared/office.ts";
import { ApiError, errorTopic } from "./api-client.ts";
import { guardCode, guardMessage, type GuardLabels } from "./form-token.ts";

export interface BookedLabels {
  /** Contains {{date}} and {{time}}. */
  scheduleWhen: string;
  /** Contains {{consultant}} and {{place}}. */
  scheduleWith: string;
  /** Contains {{place}}. */
  scheduleHow: string;
}

/**
 * The confirmation's text: the day and time, then with whom (when the visitor chose someone or the
 * server says whom it assigned) and how: "… at 10:00, Amsterdam time. … With Nasrin Farahani, by video."
 */
export function bookedText(
  lang: Language,
  labels: BookedLabels,
  placeSentence: Record<MeetingPlaceKind, string>,
  booked: { date: string; time: string; place: MeetingPlaceKind; consultant: string | null },
): string {
  const when = labels.scheduleWhen
    .replace("{{date}}", formatDate(lang, booked.date))
    .replace("{{time}}", formatTime(lang, booked.time));
  const place = placeSentence[booked.place];
  const how = booked.consultant
    ? labels.scheduleWith.replace("{{consultant}}", booked.consultant).replace("{{place}}", place)
    : labels.scheduleHow.replace("{{place}}", place);
  return `${when} ${how}`;
}

export interface FailureLabels {
  errorMessage: string;
  slotTaken: string;
  dayFull: string;
  tooManyPending: string;
  validation: { name: string; email: string; phone: string };
  guard: GuardLabels;
}

/** The error toast's text for a refused booking: each server error code in the visitor's words. */
export function bookingFailureText(error: unknown, labels: FailureLabels): string {
  const message = error instanceof ApiError ? error.message : "";
  const data = error instanceof ApiError ? (error.data as { message?: string } | null) : null;
  const topic = errorTopic(message);
  const guarded = guardMessage(error, labels.guard);
  if (guardCode(error) === GUARD_CODES.tooManyPending) return labels.tooManyPending;
  if (guarded) return guarded;
  if (message === "timeSlotOccupied" || data?.message === "timeSlotOccupied") return labels.slotTaken;
  if (message === "dailyLimitReached") return labels.dayFull;
  if (topic === "email") return labels.validation.email;
  if (topic === "phone") return labels.validation.phone;
  if (topic) return labels.validation.name;
  return labels.errorMessage;
}
