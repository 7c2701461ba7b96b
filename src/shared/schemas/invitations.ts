/** Payloads of the invitation page (functions/invitation.ts): the link's token, and the invitee's password. */
import * as z from "zod/mini";
import { passwordChangeSchema } from "./security.ts";

/** An invitation token: 32 random bytes, base64url (43 characters). */
export const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const token = z
  .string({ error: "token is not an invitation" })
  .check(z.regex(INVITATION_TOKEN, "token is not an invitation"));

/** POST /api/invitation: the token, to learn whose invitation it is. */
export const invitationSchema = z.strictObject({ token });

/** POST /api/invitation/accept: the token and the invitee's own password (the same rules as a change). */
export const invitationAcceptSchema = z.strictObject({ token, password: passwordChangeSchema.shape.newPassword });
