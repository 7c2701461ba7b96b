/** Payload of a reply to a lead (POST /api/admin/submissions/{id}/reply). */
import * as z from "zod/mini";
import { noControl } from "./fields.ts";

export const REPLY_SUBJECT_MAX = 200;
export const REPLY_TEXT_MAX = 20_000;

/** The subject and text as the staff finally wrote them (a template's preview is only where they start). */
export const replySchema = z.strictObject({
  subject: z
    .string({ error: "subject must be text" })
    .check(
      z.trim(),
      z.minLength(1, "subject is required"),
      z.maxLength(REPLY_SUBJECT_MAX, `subject must be at most ${REPLY_SUBJECT_MAX} characters`),
      z.refine(...noControl("subject")),
    ),
  text: z
    .string({ error: "text must be text" })
    .check(
      z.trim(),
      z.minLength(1, "text is required"),
      z.maxLength(REPLY_TEXT_MAX, `text must be at most ${REPLY_TEXT_MAX} characters`),
      z.refine(...noControl("text", { multiline: true })),
    ),
});
export type ReplyPayload = z.infer<typeof replySchema>;
