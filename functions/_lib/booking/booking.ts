/**
 * The booking checks shared by a new booking, the slots answer and a visitor's move: which
 * consultants a request means, each one's rules and free slots, and whether their day leaves room.
 */
import type { Kysely } from "kysely";
import { lockDayBookings } from "#db/booking-rules.repository.ts";
import { bookingDay, type ConsultantDay } from "#db/consultants.repository.ts";
import type { MeetingPlace } from "#db/availability.repository.ts";
import type { Database } from "#db/types.ts";
import { calendarStaleBefore } from "#server/config.ts";
import { now, officeRules } from "#server/office.ts";
import { availableSlots, dayConflict, officeDaySpan } from "#shared/booking.ts";
import {
  ANY_CONSULTANT,
  consultantRules,
  takesMeeting,
  type ConsultantProfile,
  type PublicConsultant,
} from "#shared/consultants.ts";
import { isLanguage, type Language } from "#shared/languages.ts";
import type { MeetingPlaceKind, OfficeRules } from "#shared/office.ts";
import { BOOKABLE_SERVICES, type ServiceId } from "#shared/services.ts";
import type { MeetingLocation } from "#shared/api/meetings.ts";
import { VIDEO_ROOM_MARKER } from "#shared/schemas/availability.ts";
import { officeAddressLine } from "#config/site.ts";
import { HttpError } from "../http/http.ts";
import { fromTeam } from "./team.ts";

/** The team members' languages and services by id: what a consultant of that id speaks and takes. */
const profiles = fromTeam(
  (team): ReadonlyMap<string, ConsultantProfile> =>
    new Map(
      team.map((member) => [
        member.id,
        {
          languages: member.languages.filter(isLanguage),
          services: member.services.filter((s): s is ServiceId => (BOOKABLE_SERVICES as string[]).includes(s)),
        },
      ]),
    ),
);

/** A consultant's profile (undefined when their team member is gone: src/shared/consultants.ts takesMeeting). */
export const profileOf = (id: string): ConsultantProfile | undefined => profiles().get(id);

/** A consultant as the public API lists them. */
export function publicConsultant(id: string): PublicConsultant {
  const profile = profiles().get(id);
  return {
    id,
    languages: [...(profile?.languages ?? [])],
    services: [...(profile?.services ?? [])],
  };
}

/** What a visitor asks for: a consultant ("any" or an id) and, for "any", the language and service to match. */
export interface Wanted {
  consultant?: string;
  language?: Language;
  service?: ServiceId;
}

/** 404 `consultantNotFound`: no such consultant takes bookings (unknown, or no longer active). */
export const consultantNotFound = () =>
  new HttpError(404, "consultantNotFound", { errors: { consultant: ["This consultant cannot be booked"] } });

/**
 * The consultants a request means among `all` (one day's or one range's): the named one (404 when
 * there is none active; 400 when they do not take the service), or for "any" every active one who
 * speaks the language and takes the service asked for.
 */
export function chosenConsultants<C extends { id: string; active: boolean }>(all: readonly C[], wanted: Wanted): C[] {
  const choice = wanted.consultant ?? ANY_CONSULTANT;
  if (choice === ANY_CONSULTANT) return all.filter((c) => c.active && takesMeeting(profileOf(c.id), wanted));
  const named = all.find((c) => c.id === choice && c.active);
  if (!named) throw consultantNotFound();
  if (!takesMeeting(profileOf(named.id), { service: wanted.service }))
    throw new HttpError(400, "This consultant does not take meetings about this service.", {
      errors: { consultant: ["This consultant does not take this service"] },
    });
  return [named];
}

/** A consultant's rules: the office's, with their own hours and closures. */
export const rulesOf = (office: OfficeRules, c: Pick<ConsultantDay, "hours" | "closures">) =>
  consultantRules(office, c);

/** A consultant's free slots on `date`: their rules, notice, their meetings and buffers, their busy calendars. */
export const freeSlots = (date: string, office: OfficeRules, c: ConsultantDay): string[] =>
  availableSlots(date, now(), c.taken, rulesOf(office, c), c.busy);

/** Whether consultant `c` can take a meeting at `time` on `date` (their meetings included). */
export const isFree = (date: string, time: string, office: OfficeRules, c: ConsultantDay): boolean =>
  freeSlots(date, office, c).includes(time);

/**
 * The day of `date` as a booking sees it (db/consultants.repository.ts bookingDay): the office's
 * rules, where meetings happen, and each active consultant's (and `include`'s) own rules and time.
 */
export async function readBookingDay(
  db: Kysely<Database>,
  date: string,
  options: { except?: number; include?: string } = {},
): Promise<{ rules: OfficeRules; place: MeetingPlace; consultants: ConsultantDay[] }> {
  const span = { ...officeDaySpan(date, officeRules()), staleBefore: calendarStaleBefore(now()) };
  const day = await bookingDay(db, date, span, options);
  return { rules: officeRules(day.stored), place: day.place, consultants: day.consultants };
}

/** 400: the time is not one the visitor could have been offered. */
export const notAvailable = () =>
  new HttpError(400, "The selected time is not available. Please select a time from the list.", {
    errors: { time: ["This time cannot be booked"] },
  });

/**
 * Why consultant `consultantId`'s other meetings that day stop one at `time` (their daily cap, or
 * the slot or its buffers taken), or null. Takes their day's lock (db/booking-rules.repository.ts),
 * so run it in the transaction that books or moves; `except` is the meeting being moved. Without a
 * cap or buffers only the slot itself can be taken, which the unique index decides: then it costs
 * no round trip unless `always`.
 */
export async function roomOnDay(
  db: Kysely<Database>,
  rules: OfficeRules,
  slot: { date: string; time: string },
  consultantId: string,
  { except, always = false }: { except?: number; always?: boolean } = {},
): Promise<"daily-limit" | "taken" | null> {
  const { dailyLimit, bufferBeforeMinutes, bufferAfterMinutes } = rules.guardrails;
  if (!always && dailyLimit === null && !bufferBeforeMinutes && !bufferAfterMinutes) return null;
  return dayConflict(slot.time, await lockDayBookings(db, slot.date, consultantId, except), rules);
}

/** roomOnDay as an answer: 409 `dailyLimitReached` or `timeSlotOccupied` (a taken slot itself is the unique index's). */
export async function requireRoomOnDay(
  db: Kysely<Database>,
  rules: OfficeRules,
  slot: { date: string; time: string },
  consultantId: string,
  except?: number,
): Promise<void> {
  const conflict = await roomOnDay(db, rules, slot, consultantId, { except });
  if (conflict === "daily-limit") throw new HttpError(409, "dailyLimitReached");
  if (conflict === "taken") throw new HttpError(409, "timeSlotOccupied");
}

const ROOM_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";

/** A room name nobody can guess: 14 characters of 32 (70 bits) from the platform's CSPRNG. */
function roomName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(14));
  return Array.from(bytes, (b) => ROOM_ALPHABET[b % ROOM_ALPHABET.length]).join("");
}

/**
 * Where a meeting booked now happens: `kind` as the visitor chose it, or the admin's meeting place.
 * The office (its address), a phone call (we call the number the visitor gave), or a video room of
 * its own from the admin's pattern.
 */
export function newMeetingLocation(place: MeetingPlace, kind: MeetingPlaceKind = place.meetingPlace): MeetingLocation {
  if (kind === "video") return { kind: "video", detail: place.videoPattern.replace(VIDEO_ROOM_MARKER, roomName()) };
  if (kind === "phone") return { kind: "phone", detail: null };
  return { kind: "office", detail: officeAddressLine };
}
