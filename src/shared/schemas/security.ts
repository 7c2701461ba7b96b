/** Payload schemas of the admin's Security page (accounts, sessions, the audit filter). */
import * as z from "zod/mini";
import { loginSchema } from "./people.ts";
import { ROLES } from "../roles.ts";
import { isCalendarDate } from "../dates.ts";
import { PASSWORD_RULE_MESSAGES, passwordRuleProblem } from "../passwords.ts";

export { PASSWORD_MAX_BYTES, PASSWORD_MIN } from "../passwords.ts";

/** POST /api/account/password: the new password follows the one rule (src/shared/passwords.ts). */
export const passwordChangeSchema = z.object({
  currentPassword: loginSchema.shape.password,
  newPassword: z.string({ error: "newPassword must be text" }).check(
    z.superRefine((value, ctx) => {
      const problem = passwordRuleProblem(value);
      if (problem) ctx.issues.push({ code: "custom", input: value, message: PASSWORD_RULE_MESSAGES[problem] });
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
  "lead.owner",
  "lead.follow-up",
  "lost-reason.change",
  "lead.reply",
  "note.add",
  "note.edit",
  "note.delete",
  "meeting.status",
  "text.publish",
  "text.undo",
  "template.change",
  "team.add",
  "settings.change",
  "factor.add",
  "factor.remove",
  "factor.rename",
  "recovery.regenerate",
  "email.change",
  "step-up",
  "invite.accept",
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
