/**
 * GET /api/admin/people/{ref} (admins only): one person's timeline, found from one of their records'
 * reference (E-00042 or M-00017; never their address, which would end up in logs). 404 for a
 * reference that does not parse or names no record.
 */
import type { Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { personTimeline } from "#db/timeline.repository.ts";
import type { PersonTimelineAnswer } from "#shared/api/timeline.ts";
import { parseReference } from "#shared/leads.ts";
import { ROUTES } from "#shared/routes.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, route } from "./_lib/http/http.ts";

export default route({
  GET: async (req: Request, context: Context) => {
    const db = getDb();
    const admin = await requireAdmin(db, req);
    let raw = context?.params?.ref ?? new URL(req.url).pathname.split("/")[4] ?? "";
    try {
      raw = decodeURIComponent(raw);
    } catch {
      throw new HttpError(404, "No such reference");
    }
    const record = parseReference(raw);
    if (!record) throw new HttpError(404, "No such reference");
    const timeline = await personTimeline(db, record, admin.id);
    if (!timeline) throw new HttpError(404, "No such record");
    return json<PersonTimelineAnswer>(timeline);
  },
});

export const config = { path: ROUTES.admin.person };
