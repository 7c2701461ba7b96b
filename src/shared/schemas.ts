/**
 * One zod schema per payload, shared by the functions (safeParse → 400) and the forms
 * (zodResolver). Each message names its field, because the client
 * maps server messages containing "email", "phone" or "name" to its own validation texts.
 */
// zod/mini: the same validation as zod's chained API, in functions that tree-shake, so a function
// carries and starts only what its schemas use (about 40 ms less of every cold start than `zod`).
// The forms' zodResolver takes these schemas as they are.
import * as z from "zod/mini";
import { en } from "zod/locales";
import { isCalendarDate } from "./dates.ts";
import { NOTE_MAX_LENGTH } from "./admin-lists.ts";
import { DEFAULT_LANGUAGE, LANGUAGES } from "./languages.ts";
import { ROLES } from "./roles.ts";
import { leadSourceSchema } from "./schemas/sources.ts";
import { breaksSingleLine, hasControlCharacter } from "./text.ts";

// Never compile validators with `new Function`: zod's probe for it alone is reported as a violation
// of the site's strict Content-Security-Policy (no 'unsafe-eval'). Interpreted parsing is fast enough
// for forms this size. Every module that validates imports this one, so the setting is always in force.
// English messages for what a schema below does not word itself (zod/mini loads no locale).
z.config({ jitless: true, ...en() });

export const MESSAGES = {
  email: "Please enter a valid email address",
  firstName: "First name must be at least 2 characters",
  lastName: "Last name must be at least 2 characters",
  message: "Message must be at least 10 characters",
  service: "Please select a service",
  name: "Name must be at least 2 characters",
  phone: "Please enter a valid phone number",
  date: "Please select a date",
  time: "Please select a time",
  username: "Username is required",
  password: "Password is required",
} as const;

/** Upper bounds keep hostile payloads small; each message names its field. */
const LIMITS = {
  name: 100,
  email: 254,
  company: 200,
  service: 50,
  message: 5000,
  phone: 40,
  username: 100,
  password: 200,
} as const;

/** A language the emails can speak; optional where the server can tell it from the page. */
const language = z.enum(LANGUAGES, { error: `Language must be one of ${LANGUAGES.join(", ")}` });

/**
 * Control characters have no place in a form field (src/shared/text.ts says which): a single-line
 * field refuses tab and line breaks too, a multi-line one (a message, a note) keeps them.
 */
const noControl = (field: string, { multiline = false } = {}) =>
  [
    (v: string) => !(multiline ? hasControlCharacter(v) : breaksSingleLine(v)),
    `${field} contains invalid characters`,
  ] as const;

const text = (min: number, max: number, tooShort: string, field: string, options: { multiline?: boolean } = {}) =>
  z
    .string({ error: tooShort })
    .check(
      z.trim(),
      z.minLength(min, tooShort),
      z.maxLength(max, `${field} must be at most ${max} characters`),
      z.refine(...noControl(field, options)),
    );

const email = z.pipe(
  z.string({ error: MESSAGES.email }).check(z.trim(), z.maxLength(LIMITS.email, MESSAGES.email)),
  z.email({ error: MESSAGES.email }),
);

/**
 * An enquiry. `service` is any non-empty text: the form offers the catalogue of
 * src/shared/services.ts, and a value outside it is stored and shown as it is.
 */
export const enquirySchema = z.object({
  firstName: text(2, LIMITS.name, MESSAGES.firstName, "First name"),
  lastName: text(2, LIMITS.name, MESSAGES.lastName, "Last name"),
  email,
  company: z.pipe(
    z.nullable(
      z.optional(
        z
          .string({ error: "Company must be text" })
          .check(
            z.trim(),
            z.maxLength(LIMITS.company, `Company must be at most ${LIMITS.company} characters`),
            z.refine(...noControl("Company")),
          ),
      ),
    ),
    z.transform((v) => (v ? v : null)),
  ),
  service: text(1, LIMITS.service, MESSAGES.service, "Service"),
  message: text(10, LIMITS.message, MESSAGES.message, "Message", { multiline: true }),
  /** The visitor's language, for the emails about this enquiry. Optional: the server then takes the page's. */
  language: z.optional(language),
  /** Where the enquiry came from (src/shared/schemas/sources.ts). */
  source: leadSourceSchema,
});
export type EnquiryInput = z.input<typeof enquirySchema>;
export type EnquiryPayload = z.output<typeof enquirySchema>;

/** A real calendar date as yyyy-MM-dd (not 2026-02-30). */
const calendarDate = () =>
  z.string({ error: MESSAGES.date }).check(z.minLength(1, MESSAGES.date), z.refine(isCalendarDate, MESSAGES.date));
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

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

/** The weekly opening hours and the public-holiday switch (PUT /api/admin/availability). */
export const availabilitySchema = z
  .strictObject({
    hours: z
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
      .check(z.maxLength(50, "hours can have at most 50 periods")),
    publicHolidays: z.boolean({ error: "publicHolidays must be true or false" }),
  })
  .check(
    z.superRefine((value, ctx) => {
      const sorted = [...value.hours].sort((a, b) => a.weekday - b.weekday || (a.opens < b.opens ? -1 : 1));
      for (let i = 1; i < sorted.length; i++) {
        if (sorted[i].weekday === sorted[i - 1].weekday && sorted[i].opens < sorted[i - 1].closes) {
          ctx.addIssue({
            code: "custom",
            input: value,
            path: ["hours"],
            message: "Opening periods of one day must not overlap",
          });
          return;
        }
      }
    }),
  );
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

/** A calendar feed the admin connects: its busy times keep visitors out of those slots. */
export const calendarFeedSchema = z.strictObject({
  name: z
    .string({ error: "name must be text" })
    .check(
      z.trim(),
      z.minLength(1, "name is required"),
      z.maxLength(80, "name must be at most 80 characters"),
      z.refine(...noControl("name")),
    ),
  // Apple's calendars hand out webcal:// addresses: the same address over https.
  url: z.pipe(
    z.string({ error: "url must be an http(s) address" }).check(
      z.trim(),
      z.maxLength(2000, "url must be at most 2000 characters"),
      z.refine(
        (v) => /^(https?|webcal):\/\/[^\s]+$/i.test(v) && !breaksSingleLine(v),
        "url must be an http(s) address",
      ),
    ),
    z.transform((v) => v.replace(/^webcal:/i, "https:")),
  ),
  username: z.optional(
    z
      .string({ error: "username must be text" })
      .check(z.maxLength(200, "username is too long"), z.refine(...noControl("username"))),
  ),
  password: z.optional(
    z
      .string({ error: "password must be text" })
      .check(z.maxLength(500, "password is too long"), z.refine(...noControl("password"))),
  ),
});
export type CalendarFeedPayload = z.output<typeof calendarFeedSchema>;

export const loginSchema = z.object({
  username: z
    .string({ error: MESSAGES.username })
    .check(
      z.trim(),
      z.minLength(1, MESSAGES.username),
      z.maxLength(LIMITS.username, MESSAGES.username),
      z.refine(...noControl("Username")),
    ),
  password: z.string({ error: MESSAGES.password }).check(
    z.minLength(1, MESSAGES.password),
    z.maxLength(LIMITS.password, "Password must be at most 200 characters"),
    // A password may hold a tab (it is compared, never shown); nothing else of the controls.
    z.refine(...noControl("Password", { multiline: true })),
  ),
});

/** POST /api/admin/users: a new account, with the role it gets. */
export const inviteSchema = z.object({
  username: loginSchema.shape.username,
  role: z.enum(ROLES, { error: "Role must be admin or editor" }),
});
export type InvitePayload = z.output<typeof inviteSchema>;

export const newsletterSchema = z.object({
  email,
  language: z._default(language, DEFAULT_LANGUAGE),
  /**
   * The page the form was on (a path), recorded with the consent. A control character is refused
   * like in any field; anything else that is not a path (too long, not text) is dropped.
   */
  page: z.optional(
    z.pipe(
      z
        .unknown()
        .check(z.refine((v) => typeof v !== "string" || !breaksSingleLine(v), "page contains invalid characters")),
      z.transform((v) => (typeof v === "string" && v.length <= 200 && /^\/[^\s]*$/.test(v) ? v : undefined)),
    ),
  ),
});

/** The privacy tools of the admin (export, erase): one email address. */
export const personalDataRequestSchema = z.strictObject({ email });

export const enquiryPatchSchema = z.strictObject({
  isProcessed: z.boolean({ error: "isProcessed must be true or false" }),
});
export const meetingPatchSchema = z.strictObject({
  isConfirmed: z.boolean({ error: "isConfirmed must be true or false" }),
});

/** PUT /api/admin/…/{id}/note: the whole note; an empty one removes it. */
export const noteSchema = z.strictObject({
  note: z
    .string({ error: "note must be text" })
    .check(
      z.trim(),
      z.maxLength(NOTE_MAX_LENGTH, `note must be at most ${NOTE_MAX_LENGTH} characters`),
      z.refine(...noControl("note", { multiline: true })),
    ),
});

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

/** POST /api/admin/meetings/{id}/outcome: how a meeting that has started went; null clears it. */
export const meetingOutcomeSchema = z.strictObject({
  outcome: z.nullable(z.enum(["done", "no-show"], { error: "outcome must be done, no-show or null" })),
});
