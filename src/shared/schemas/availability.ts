/** Payloads of the office's availability: opening hours, closures and the booking rules. */
import * as z from "zod/mini";
import { isCalendarDate } from "../dates.ts";
import { TIME, noControl } from "./fields.ts";

/** Opening and closing times fall on the half hour, so every slot is a whole meeting. */
const halfHour = (field: string) =>
  z.string({ error: `${field} must be a time such as 09:00` }).check(
    z.regex(TIME, `${field} must be a time such as 09:00`),
    z.refine(
      (v) => v.endsWith(":00") || v.endsWith(":30"),
      `${field} must be on the hour or the half hour (30-minute slots)`,
    ),
  );

const WEEKDAY = "weekday must be 1 (Monday) to 7 (Sunday)";

const overlaps = (hours: readonly { weekday: number; opens: string; closes: string }[]) => {
  const sorted = [...hours].sort((a, b) => a.weekday - b.weekday || (a.opens < b.opens ? -1 : 1));
  return sorted.some((h, i) => i > 0 && h.weekday === sorted[i - 1].weekday && h.opens < sorted[i - 1].closes);
};

/**
 * Weekly hours: opening periods on the half hour, each opening before it closes, at most 50, none
 * overlapping another of its day. The office's (below) and a consultant's own (consultants.ts).
 */
export const weeklyHoursSchema = z
  .array(
    z
      .strictObject({
        weekday: z
          .number({ error: WEEKDAY })
          .check(z.refine(Number.isInteger, WEEKDAY), z.gte(1, WEEKDAY), z.lte(7, WEEKDAY)),
        opens: halfHour("Opening time"),
        closes: halfHour("Closing time"),
      })
      .check(z.refine((h) => h.opens < h.closes, "Opening time must be before closing time")),
    { error: "hours must be a list of opening periods" },
  )
  .check(
    z.maxLength(50, "hours can have at most 50 periods"),
    z.refine((hours) => !overlaps(hours), "Opening periods of one day must not overlap"),
  );

/** The weekly opening hours and the public-holiday switch (PUT /api/admin/availability). */
export const availabilitySchema = z.strictObject({
  hours: weeklyHoursSchema,
  publicHolidays: z.boolean({ error: "publicHolidays must be true or false" }),
});
export type AvailabilityPayload = z.output<typeof availabilitySchema>;

const DAY_MS = 86_400_000;
/** A company closure (POST /api/admin/availability/closures): one day (from = to) or a range. */
export const closureSchema = z
  .strictObject({
    from: z
      .string({ error: "from must be a date (yyyy-MM-dd)" })
      .check(z.refine(isCalendarDate, "from must be a date (yyyy-MM-dd)")),
    to: z
      .string({ error: "to must be a date (yyyy-MM-dd)" })
      .check(z.refine(isCalendarDate, "to must be a date (yyyy-MM-dd)")),
    yearly: z._default(z.boolean({ error: "yearly must be true or false" }), false),
    note: z._default(
      z
        .string({ error: "note must be text" })
        .check(z.trim(), z.maxLength(200, "note must be at most 200 characters"), z.refine(...noControl("note"))),
      "",
    ),
  })
  .check(
    z.refine((c) => c.from <= c.to, { message: "to must be on or after from", path: ["to"] }),
    z.refine((c) => Date.parse(c.to) - Date.parse(c.from) < 366 * DAY_MS, {
      message: "A closure must be shorter than a year",
      path: ["to"],
    }),
  );
export type ClosurePayload = z.output<typeof closureSchema>;

/** Whole minutes from 0 to `max`. */
const minutes = (field: string, max: number) => {
  const message = `${field} must be a whole number of minutes from 0 to ${max}`;
  return z
    .number({ error: message })
    .check(z.refine(Number.isInteger, message), z.gte(0, message), z.lte(max, message));
};

/** The marker in a video pattern that becomes a fresh, unguessable room name for each meeting. */
export const VIDEO_ROOM_MARKER = "{random}";
const VIDEO_PATTERN = `videoPattern must be an https:// address containing ${VIDEO_ROOM_MARKER}, such as https://meet.jit.si/bridgewise-${VIDEO_ROOM_MARKER}`;

/**
 * The admin's booking rules (PUT /api/admin/booking-rules): the guardrails of src/shared/office.ts
 * and where meetings happen. Flat, so each field's error names it. Limits: a notice of up to 14
 * days, buffers of up to 4 hours, at most 48 meetings a day, a cut-off of up to 7 days.
 */
export const bookingRulesSchema = z.strictObject({
  noticeMinutes: minutes("noticeMinutes", 14 * 24 * 60),
  bufferBeforeMinutes: minutes("bufferBeforeMinutes", 240),
  bufferAfterMinutes: minutes("bufferAfterMinutes", 240),
  dailyLimit: z.nullable(
    z
      .number({ error: "dailyLimit must be a whole number from 1 to 48, or null for no cap" })
      .check(
        z.refine(Number.isInteger, "dailyLimit must be a whole number from 1 to 48, or null for no cap"),
        z.gte(1, "dailyLimit must be a whole number from 1 to 48, or null for no cap"),
        z.lte(48, "dailyLimit must be a whole number from 1 to 48, or null for no cap"),
      ),
  ),
  changeCutoffMinutes: minutes("changeCutoffMinutes", 7 * 24 * 60),
  meetingPlace: z.enum(["office", "phone", "video"], { error: "meetingPlace must be office, phone or video" }),
  videoPattern: z.string({ error: VIDEO_PATTERN }).check(
    z.trim(),
    z.maxLength(300, "videoPattern must be at most 300 characters"),
    z.refine((v) => {
      if (!v.includes(VIDEO_ROOM_MARKER) || /\s/.test(v)) return false;
      try {
        return new URL(v.replace(VIDEO_ROOM_MARKER, "room")).protocol === "https:";
      } catch {
        return false;
      }
    }, VIDEO_PATTERN),
  ),
});
export type BookingRulesPayload = z.output<typeof bookingRulesSchema>;
