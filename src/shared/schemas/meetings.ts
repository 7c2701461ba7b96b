/** Payloads of meetings: booking, the slots query, the visitor's move, the admin's PATCH and outcome. */
import * as z from "zod/mini";
import { LIMITS, MESSAGES, TIME, calendarDate, email, language, text } from "./fields.ts";
import { leadSourceSchema } from "./sources.ts";
import { ANY_CONSULTANT, CONSULTANT_ID, CONSULTANT_ID_MAX } from "../consultants.ts";
import { MEETING_PLACE_KINDS, type MeetingPlaceKind } from "../office.ts";
import { BOOKABLE_SERVICES } from "../services.ts";

const CONSULTANT_MESSAGE = `consultant must be "${ANY_CONSULTANT}" or a consultant's id`;

/** Whom the visitor books: "any" (whoever is free, by the fair rule) or one consultant by id. */
export const consultantChoice = z.string({ error: CONSULTANT_MESSAGE }).check(
  z.maxLength(CONSULTANT_ID_MAX, CONSULTANT_MESSAGE),
  z.refine((v) => v === ANY_CONSULTANT || CONSULTANT_ID.test(v), CONSULTANT_MESSAGE),
);

/** A service a consultant takes. */
export const bookableService = z.enum(BOOKABLE_SERVICES, {
  error: `service must be one of ${BOOKABLE_SERVICES.join(", ")}`,
});

/** How the visitor meets: at the office, by video or by phone. */
export const meetingPlace = z.enum(MEETING_PLACE_KINDS as [MeetingPlaceKind, ...MeetingPlaceKind[]], {
  error: `place must be one of ${MEETING_PLACE_KINDS.join(", ")}`,
});

export const meetingSchema = z.object({
  name: text(2, LIMITS.name, MESSAGES.name, "Name"),
  email,
  phone: z.string({ error: MESSAGES.phone }).check(
    z.trim(),
    z.minLength(6, MESSAGES.phone),
    z.maxLength(LIMITS.phone, MESSAGES.phone),
    z.refine((v) => /^[+\d\s().\-/]+$/.test(v) && v.replace(/\D/g, "").length >= 6, MESSAGES.phone),
  ),
  date: calendarDate(),
  time: z.string({ error: MESSAGES.time }).check(z.minLength(1, MESSAGES.time), z.regex(TIME, MESSAGES.time)),
  /** The visitor's language, for the emails about this meeting. Optional: the server then takes the page's. */
  language: z.optional(language),
  /** Where the booking came from (src/shared/schemas/sources.ts). */
  source: leadSourceSchema,
  /** Whom: "any" (the default) or a consultant's id. */
  consultant: z.optional(consultantChoice),
  /** What about, when the visitor said: only consultants who take it are booked. */
  service: z.optional(bookableService),
  /** How to meet; the default is the admin's meeting place. */
  place: z.optional(meetingPlace),
});
export type MeetingPayload = z.output<typeof meetingSchema>;

/** Whose time the date picker shows: whoever is free (who speaks `language`, takes `service`) or one consultant. */
export const calendarQuerySchema = z.object({
  consultant: z.optional(consultantChoice),
  language: z.optional(language),
  service: z.optional(bookableService),
});

export const slotsQuerySchema = z.object({
  date: calendarDate(),
  consultant: z.optional(consultantChoice),
  language: z.optional(language),
  service: z.optional(bookableService),
});

/** A visitor moving their meeting (POST /api/meetings/manage/move). */
export const meetingMoveSchema = z.strictObject({
  date: calendarDate(),
  time: z.string({ error: MESSAGES.time }).check(z.minLength(1, MESSAGES.time), z.regex(TIME, MESSAGES.time)),
});
export const meetingPatchSchema = z.strictObject({
  isConfirmed: z.boolean({ error: "isConfirmed must be true or false" }),
});

/** POST /api/admin/meetings/{id}/outcome: how a meeting that has started went; null clears it. */
export const meetingOutcomeSchema = z.strictObject({
  outcome: z.nullable(z.enum(["done", "no-show"], { error: "outcome must be done, no-show or null" })),
});
