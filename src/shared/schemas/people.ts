/** Payloads of accounts: signing in and inviting a person. */
import * as z from "zod/mini";
import { ROLES } from "../roles.ts";
import { LANGUAGES } from "../languages.ts";
import { email, LIMITS, MESSAGES, noControl } from "./fields.ts";

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

/**
 * POST /api/admin/users: a new account, with the role it gets, the address its invitation link goes
 * to (and its notices after; needed where mail is configured) and the language of both.
 */
export const inviteSchema = z.object({
  username: loginSchema.shape.username,
  role: z.enum(ROLES, { error: "Role must be admin or editor" }),
  email: z.optional(z.union([z.literal(""), email])),
  language: z.optional(z.enum(LANGUAGES, { error: "language must be en, nl or fa" })),
});
export type InvitePayload = z.output<typeof inviteSchema>;
