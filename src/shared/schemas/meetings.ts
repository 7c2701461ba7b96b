/** Payloads of meetings: booking, the slots query, the visitor's move, the admin's PATCH and outcome. */
import * as z from "zod/mini";
import { LIMITS, MESSAGES, TIME, calendarDate, email, language, text } from "./fields.ts";
import { leadSourceSchema } from "./sources.ts";

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
});
export type MeetingPayload = z.output<typeof meetingSchema>;

export const slotsQuerySchema = z.object({ date: calendarDate() });

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
