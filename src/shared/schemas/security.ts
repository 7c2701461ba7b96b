/** Payload schemas of the admin's Security page (accounts, sessions, the audit filter). */
import * as z from "zod/mini";
import { loginSchema } from "./people.ts";
import { ROLES } from "../roles.ts";
import { isCalendarDate } from "../dates.ts";
import { hasControlCharacter } from "../text.ts";

/** Shortest and longest password an account may set (bcrypt reads 72 bytes; db/admins.ts agrees). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX_BYTES = 72;

/** POST /api/account/password */
export const passwordChangeSchema = z.object({
  currentPassword: loginSchema.shape.password,
  newPassword: z.string({ error: "newPassword must be text" }).check(
    z.minLength(PASSWORD_MIN, `newPassword must be at least ${PASSWORD_MIN} characters`),
    z.refine((value) => new TextEncoder().encode(value).length <= PASSWORD_MAX_BYTES, {
      error: `newPassword must be at most ${PASSWORD_MAX_BYTES} bytes`,
    }),
    z.refine((value) => !hasControlCharacter(value.replaceAll("\t", "")), {
      error: "newPassword contains invalid characters",
    }),
  ),
});
export type PasswordChangePayload = z.output<typeof passwordChangeSchema>;

/** PATCH /api/admin/users/:id */
export const roleChangeSchema = z.object({
  role: z.enum(ROLES, { error: "Role must be admin or editor" }),
});

/** How long the audit record keeps an entry: a year (the privacy page states it; the retention run applies it). */
export const AUDIT_RETENTION_DAYS = 365;

/** Audit actions, by name: what the record's filter accepts. */
export const AUDIT_ACTIONS = [
  "signin.success",
  "signin.failure",
  "session.end",
  "password.change",
  "role.change",
  "account.remove",
  "invite",
  "export",
  "privacy.export",
  "privacy.erase",
  "lead.status",
  "meeting.status",
  "text.publish",
  "text.undo",
  "settings.change",
  "factor.add",
  "factor.remove",
  "factor.rename",
  "recovery.regenerate",
  "email.change",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const day = z.string().check(z.refine(isCalendarDate, "dates are yyyy-mm-dd"));

/** GET /api/admin/audit and its CSV: every field optional; dates are UTC days, both ends included. */
export const auditQuerySchema = z.object({
  actor: z.optional(z.string().check(z.maxLength(100, "actor is too long"))),
  action: z.optional(z.enum(AUDIT_ACTIONS, { error: "unknown action" })),
  from: z.optional(day),
  to: z.optional(day),
  before: z.optional(z.string().check(z.regex(/^\d{1,18}$/, "before must be an entry id"))),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;
