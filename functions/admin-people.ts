/**
 * GET /api/admin/people/{ref} (admins only): one person's timeline, found from one of their records'
 * reference (E-00042 or M-00017; never their address, which would end up in logs). 404 for a
 * reference that does not parse or names no record. A page at a time: `?before=<next>` (the cursor of
 * the previous answer, an ISO 8601 instant) answers the older items; any other parameter is a 400.
 */
import type { Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { personTimeline } from "#db/timeline.repository.ts";
import type { PersonTimelineAnswer } from "#shared/api/timeline.ts";
import { parseReference } from "#shared/leads.ts";
import { ROUTES } from "#shared/routes.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, route } from "./_lib/http/http.ts";

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/** The page's cursor: undefined for the newest page; a 400 for anything but one ISO instant. */
function beforeOf(req: Request): Date | undefined {
  const params = new URL(req.url).searchParams;
  for (const key of params.keys())
    if (key !== "before") throw new HttpError(400, `Unknown parameter ${key.slice(0, 40)}`);
  const values = params.getAll("before");
  if (!values.length) return undefined;
  const at = values.length === 1 && INSTANT.test(values[0]) ? new Date(values[0]) : null;
  // A day that does not exist (30 February) rolls over in Date: refuse what does not read back the same.
  if (!at || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 19) !== values[0].slice(0, 19))
    throw new HttpError(400, "before must be an instant, e.g. 2026-11-25T09:00:00.000Z");
  return at;
}

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
    const timeline = await personTimeline(db, record, admin.id, { before: beforeOf(req) });
    if (!timeline) throw new HttpError(404, "No such record");
    return json<PersonTimelineAnswer>(timeline);
  },
});

export const config = { path: ROUTES.admin.person };
