/**
 * An admin's internal note on an enquiry or a meeting: PUT /api/admin/submissions/{id}/note and
 * PUT /api/admin/meetings/{id}/note with { note } (at most NOTE_MAX_LENGTH characters; an empty one
 * removes it). The note keeps who wrote it (the signed-in admin) and when; the answer is the record.
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { setEnquiryNote } from "#db/enquiries.repository.ts";
import { setMeetingNote } from "#db/meetings.repository.ts";
import { noteSchema } from "#shared/schemas/notes.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

const RESOURCES = {
  submissions: { update: setEnquiryNote, notFound: "Enquiry not found" },
  meetings: { update: setMeetingNote, notFound: "Meeting not found" },
} as const;

export default route({
  PUT: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const [, , kind, rawId] = new URL(req.url).pathname.split("/").filter(Boolean);
    const resource = RESOURCES[kind as keyof typeof RESOURCES];
    const id = context?.params?.id ?? rawId;
    if (!resource || !/^\d{1,9}$/.test(id ?? "")) throw new HttpError(404, "Not found");
    const { note } = validate(noteSchema, await readJson(req));
    const updated = await resource.update(db, Number(id), note, admin.username);
    if (!updated) throw new HttpError(404, resource.notFound);
    return json(updated);
  },
});

export const config: Config = { path: [ROUTES.admin.enquiryNote, ROUTES.admin.meetingNote] };
