/**
 * The admins' notes about a person (table lead_notes), admins only:
 * - POST /api/admin/people/{ref}/notes with { note }: adds a note on that record (201, the note);
 *   POST /api/admin/submissions/{id}/note and /api/admin/meetings/{id}/note (the card's editor) do
 *   the same and answer the record, with its newest note (201);
 * - PATCH /api/admin/notes/{id} with { note }: replaces its text; DELETE /api/admin/notes/{id}:
 *   deletes it. Only its author may (403 otherwise).
 * Each is audited ("note.add", "note.edit", "note.delete") with the record's reference.
 */
import type { Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { getAdminEnquiry } from "#db/enquiries.repository.ts";
import { getMeeting } from "#db/meetings.repository.ts";
import { addNote, changeNote, type NoteRecord, type NoteWrite } from "#db/notes.repository.ts";
import type { NoteAnswer } from "#shared/api/timeline.ts";
import { parseReference } from "#shared/leads.ts";
import { ROUTES } from "#shared/routes.ts";
import { noteSchema } from "#shared/schemas/notes.ts";
import type { AuditAction } from "#shared/schemas/security.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate, type JsonAnswer } from "./_lib/http/http.ts";

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

async function answer(
  req: Request,
  context: Context,
  admin: { id: number; username: string },
  action: AuditAction,
  result: NoteWrite,
  status: number,
): Promise<JsonAnswer> {
  if (result.outcome === "missing") throw new HttpError(404, "Not found");
  if (result.outcome === "erased") throw new HttpError(409, "This person's data was erased");
  if (result.outcome === "forbidden") throw new HttpError(403, "Only its author may change a note");
  await audit(getDb(), req, context, admin, action, {
    target: result.note.reference,
    subject: result.email,
    detail: { note: result.note.id, reference: result.note.reference },
  });
  return json<NoteAnswer>({ note: result.note }, status);
}

const noteIdOf = (req: Request, context: Context) => context?.params?.id ?? segments(req)[3] ?? "";

export default route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const record = recordOf(req, context);
    const { note } = validate(noteSchema, await readJson(req));
    const written = await answer(req, context, admin, "note.add", await addNote(db, record, note, admin), 201);
    if (segments(req)[2] === "people") return written;
    const updated = record.kind === "enquiry" ? await getAdminEnquiry(db, record.id) : await getMeeting(db, record.id);
    return json(updated, 201);
  },
  PATCH: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    if (segments(req)[2] !== "notes") throw new HttpError(405, "Method not allowed");
    const { note } = validate(noteSchema, await readJson(req));
    return answer(req, context, admin, "note.edit", await changeNote(db, noteIdOf(req, context), note, admin), 200);
  },
  DELETE: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    if (segments(req)[2] !== "notes") throw new HttpError(405, "Method not allowed");
    return answer(req, context, admin, "note.delete", await changeNote(db, noteIdOf(req, context), null, admin), 200);
  },
});

export const config = {
  path: [ROUTES.admin.enquiryNote, ROUTES.admin.meetingNote, ROUTES.admin.personNotes, ROUTES.admin.note],
};
