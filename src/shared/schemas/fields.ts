/**
 * The building blocks every payload schema is made of, and zod's settings: every schema module
 * imports this one, so validation is jitless (no `new Function`) wherever a schema runs.
 */
import * as z from "zod/mini";
import { en } from "zod/locales";
import { isCalendarDate } from "../dates.ts";
import { LANGUAGES } from "../languages.ts";
import { breaksSingleLine, hasControlCharacter } from "../text.ts";

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
export const LIMITS = {
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
export const language = z.enum(LANGUAGES, { error: `Language must be one of ${LANGUAGES.join(", ")}` });

/**
 * Control characters have no place in a form field (src/shared/text.ts says which): a single-line
 * field refuses tab and line breaks too, a multi-line one (a message, a note) keeps them.
 */
export const noControl = (field: string, { multiline = false } = {}) =>
  [
    (v: string) => !(multiline ? hasControlCharacter(v) : breaksSingleLine(v)),
    `${field} contains invalid characters`,
  ] as const;

export const text = (
  min: number,
  max: number,
  tooShort: string,
  field: string,
  options: { multiline?: boolean } = {},
) =>
  z
    .string({ error: tooShort })
    .check(
      z.trim(),
      z.minLength(min, tooShort),
      z.maxLength(max, `${field} must be at most ${max} characters`),
      z.refine(...noControl(field, options)),
    );

export const email = z.pipe(
  z.string({ error: MESSAGES.email }).check(z.trim(), z.maxLength(LIMITS.email, MESSAGES.email)),
  z.email({ error: MESSAGES.email }),
);

/** A real calendar date as yyyy-MM-dd (not 2026-02-30). */
export const calendarDate = () =>
  z.string({ error: MESSAGES.date }).check(z.minLength(1, MESSAGES.date), z.refine(isCalendarDate, MESSAGES.date));
export const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
