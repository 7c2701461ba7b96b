/**
 * Adds an admin's note about a person (table lead_notes), admins only: POST
 * /api/admin/people/{ref}/notes with { note } adds it on that record (201, the note); POST
 * /api/admin/submissions/{id}/note and /api/admin/meetings/{id}/note (the card's editor) do the same
 * and answer the record, with its newest note (201). Audited "note.add" with the record's reference.
 * Editing and deleting: functions/admin-note.ts.
 */
import type { Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { getAdminEnquiry } from "#db/enquiries.repository.ts";
import { getMeeting } from "#db/meetings.repository.ts";
import { addNote, type NoteRecord } from "#db/notes.repository.ts";
import { parseReference } from "#shared/leads.ts";
import { ROUTES } from "#shared/routes.ts";
import { noteSchema } from "#shared/schemas/notes.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { noteAnswer } from "./_lib/lead-notes.ts";

const segments = (req: Request) => new URL(req.url).pathname.split("/").filter(Boolean);

/** The record a POST names: /api/admin/submissions/{id}/note, /meetings/{id}/note or /people/{ref}/notes. */
function recordOf(req: Request, context: Context): NoteRecord {
  const [, , kind, raw] = segments(req);
  const value = context?.params?.id ?? context?.params?.ref ?? raw ?? "";
  if (kind === "people") {
    let text: string;
    try {
      text = decodeURIComponent(value);
    } catch {
      throw new HttpError(404, "No such reference");
    }
    const ref = parseReference(text);
    if (!ref) throw new HttpError(404, "No such reference");
    return ref;
  }
  if (!/^\d{1,9}$/.test(value)) throw new HttpError(404, "Not found");
  if (kind === "submissions") return { kind: "enquiry", id: Number(value) };
  if (kind === "meetings") return { kind: "meeting", id: Number(value) };
  throw new HttpError(404, "Not found");
}

export default route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const record = recordOf(req, context);
    const { note } = validate(noteSchema, await readJson(req));
    const written = await noteAnswer(req, context, admin, "note.add", await addNote(db, record, note, admin), 201);
    if (segments(req)[2] === "people") return written;
    const updated = record.kind === "enquiry" ? await getAdminEnquiry(db, record.id) : await getMeeting(db, record.id);
    return json(updated, 201);
  },
});

export const config = { path: [ROUTES.admin.enquiryNote, ROUTES.admin.meetingNote, ROUTES.admin.personNotes] };
