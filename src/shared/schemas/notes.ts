/** Payload of an admin's note about a person (table lead_notes). */
import * as z from "zod/mini";
import { NOTE_MAX_LENGTH } from "../admin-lists.ts";
import { noControl } from "./fields.ts";

/**
 * A note's text: POST /api/admin/submissions/{id}/note, /api/admin/meetings/{id}/note and
 * /api/admin/people/{ref}/notes add one; PATCH /api/admin/notes/{id} replaces one's text.
 */
export const noteSchema = z.strictObject({
  note: z
    .string({ error: "note must be text" })
    .check(
      z.trim(),
      z.minLength(1, "note must not be empty"),
      z.maxLength(NOTE_MAX_LENGTH, `note must be at most ${NOTE_MAX_LENGTH} characters`),
      z.refine(...noControl("note", { multiline: true })),
    ),
});
