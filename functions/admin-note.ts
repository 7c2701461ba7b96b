/**
 * An admin's own note about a person (table lead_notes): PATCH /api/admin/notes/{id} with { note }
 * replaces its text, DELETE /api/admin/notes/{id} deletes it; both answer { note }. Only its author
 * may (403 otherwise); 404 for no such note. Audited "note.edit" and "note.delete" with the
 * reference of the record it was written on.
 */
import type { Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { changeNote } from "#db/notes.repository.ts";
import { ROUTES } from "#shared/routes.ts";
import { noteSchema } from "#shared/schemas/notes.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { noteAnswer } from "./_lib/lead-notes.ts";

const noteIdOf = (req: Request, context: Context) =>
  context?.params?.id ?? new URL(req.url).pathname.split("/").filter(Boolean)[3] ?? "";

export default route({
  PATCH: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const { note } = validate(noteSchema, await readJson(req));
    return noteAnswer(req, context, admin, "note.edit", await changeNote(db, noteIdOf(req, context), note, admin), 200);
  },
  DELETE: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    return noteAnswer(
      req,
      context,
      admin,
      "note.delete",
      await changeNote(db, noteIdOf(req, context), null, admin),
      200,
    );
  },
});

export const config = { path: ROUTES.admin.note };
