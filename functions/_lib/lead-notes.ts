/** What the note endpoints (functions/admin-notes.ts, functions/admin-note.ts) answer for a write. */
import type { Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import type { NoteWrite } from "#db/notes.repository.ts";
import type { NoteAnswer } from "#shared/api/timeline.ts";
import type { AuditAction } from "#shared/schemas/security.ts";
import { audit } from "./auth/audit.ts";
import { HttpError, json, type JsonAnswer } from "./http/http.ts";

/** A note's write as the API answers it: 404, 409 or 403 for what was refused; audited once done. */
export async function noteAnswer(
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
