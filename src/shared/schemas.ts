/**
 * One zod schema per payload, shared by the functions (safeParse → 400) and the forms
 * (zodResolver). Messages are the spec's (section 5); each names its field, because the client
 * maps server messages containing "email", "phone" or "name" to its own validation texts.
 */
import { z } from "zod";
import { isCalendarDate } from "./dates.ts";
import { NOTE_MAX_LENGTH } from "./admin-lists.ts";
import { DEFAULT_LANGUAGE, LANGUAGES } from "./languages.ts";

// Never compile validators with `new Function`: zod's probe for it alone is reported as a violation
// of the site's strict Content-Security-Policy (no 'unsafe-eval'). Interpreted parsing is fast enough
// for forms this size. Every module that validates imports this one, so the setting is always in force.
z.config({ jitless: true });

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

/** Control characters other than line breaks and tabs have no place in a form field (and PostgreSQL refuses NUL). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const noControl = (field: string) => [(v: string) => !CONTROL.test(v), `${field} contains invalid characters`] as const;

const text = (min: number, max: number, tooShort: string, field: string) =>
  z
    .string({ error: tooShort })
    .trim()
    .min(min, tooShort)
    .max(max, `${field} must be at most ${max} characters`)
    .refine(...noControl(field));

const email = z
  .string({ error: MESSAGES.email })
  .trim()
  .max(LIMITS.email, MESSAGES.email)
  .pipe(z.email({ error: MESSAGES.email }));

/**
 * An enquiry. `service` is any non-empty text (spec section 5): the form offers the catalogue of
 * src/shared/services.ts, and a value outside it is stored and shown as it is.
 */
export const enquirySchema = z.object({
  firstName: text(2, LIMITS.name, MESSAGES.firstName, "First name"),
  lastName: text(2, LIMITS.name, MESSAGES.lastName, "Last name"),
  email,
  company: z
    .string({ error: "Company must be text" })
    .trim()
    .max(LIMITS.company, `Company must be at most ${LIMITS.company} characters`)
    .refine(...noControl("Company"))
    .optional()
    .nullable()
    .transform((v) => (v ? v : null)),
  service: text(1, LIMITS.service, MESSAGES.service, "Service"),
  message: text(10, LIMITS.message, MESSAGES.message, "Message"),
  /** The visitor's language, for the emails about this enquiry. Optional: the server then takes the page's. */
  language: language.optional(),
});
export type EnquiryInput = z.input<typeof enquirySchema>;
export type EnquiryPayload = z.output<typeof enquirySchema>;

/** A real calendar date as yyyy-MM-dd (not 2026-02-30). */
const calendarDate = () =>
  z.string({ error: MESSAGES.date }).min(1, MESSAGES.date).refine(isCalendarDate, MESSAGES.date);
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export const meetingSchema = z.object({
  name: text(2, LIMITS.name, MESSAGES.name, "Name"),
  email,
  phone: z
    .string({ error: MESSAGES.phone })
    .trim()
    .min(6, MESSAGES.phone)
    .max(LIMITS.phone, MESSAGES.phone)
    .refine((v) => /^[+\d\s().\-/]+$/.test(v) && v.replace(/\D/g, "").length >= 6, MESSAGES.phone),
  date: calendarDate(),
  time: z.string({ error: MESSAGES.time }).min(1, MESSAGES.time).regex(TIME, MESSAGES.time),
  /** The visitor's language, for the emails about this meeting. Optional: the server then takes the page's. */
  language: language.optional(),
});
export type MeetingPayload = z.output<typeof meetingSchema>;

export const slotsQuerySchema = z.object({ date: calendarDate() });

export const loginSchema = z.object({
  username: z
    .string({ error: MESSAGES.username })
    .trim()
    .min(1, MESSAGES.username)
    .max(LIMITS.username, MESSAGES.username)
    .refine(...noControl("Username")),
  password: z
    .string({ error: MESSAGES.password })
    .min(1, MESSAGES.password)
    .max(LIMITS.password, "Password must be at most 200 characters")
    .refine(...noControl("Password")),
});

export const newsletterSchema = z.object({
  email,
  language: language.default(DEFAULT_LANGUAGE),
});

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
    .trim()
    .max(NOTE_MAX_LENGTH, `note must be at most ${NOTE_MAX_LENGTH} characters`),
});
