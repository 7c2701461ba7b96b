/** Payload of an admin's note on an enquiry or a meeting. */
import * as z from "zod/mini";
import { NOTE_MAX_LENGTH } from "../admin-lists.ts";
import { noControl } from "./fields.ts";

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
