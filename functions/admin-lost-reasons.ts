/**
 * The reasons a lead is lost for, admin only: GET /api/admin/lost-reasons → every reason (archived
 * ones too: old leads still name them); POST { labels } (one per language) → 201 the new reason;
 * PATCH /api/admin/lost-reasons/{id} { labels?, archived? } renames it, archives it (no longer
 * offered) or offers it again. Every change is audited (lost-reason.change).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { addLostReason, changeLostReason, listLostReasons } from "#db/leads.repository.ts";
import type { LostReason } from "#shared/api/enquiries.ts";
import { lostReasonPatchSchema, lostReasonSchema } from "#shared/schemas/enquiries.ts";
import { ROUTES } from "#shared/routes.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, readJson, requestUrl, requireSameOrigin, route, validate } from "./_lib/http/http.ts";

/** The reason a path names; undefined for the list. */
function reasonId(req: Request, context: Context): number | undefined {
  const raw = context?.params?.id ?? requestUrl(req, context).pathname.split("/").filter(Boolean)[3];
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(404, "Not found");
  return Number(raw);
}

const refuse = (allow: string) => new HttpError(405, "Method not allowed", {}, { Allow: allow });

export default route({
  GET: async (req, context) => {
    if (reasonId(req, context) !== undefined) throw refuse("PATCH");
    const db = getDb();
    await requireAdmin(db, req);
    return json<LostReason[]>(await listLostReasons(db));
  },
  POST: async (req, context) => {
    if (reasonId(req, context) !== undefined) throw refuse("PATCH");
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const { labels } = validate(lostReasonSchema, await readJson(req));
    const reason = await addLostReason(db, labels);
    await audit(db, req, context, admin, "lost-reason.change", {
      target: String(reason.id),
      detail: { added: true, labels },
    });
    return json<LostReason>(reason, 201);
  },
  PATCH: async (req, context) => {
    const id = reasonId(req, context);
    if (id === undefined) throw refuse("GET, POST");
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const change = validate(lostReasonPatchSchema, await readJson(req));
    const reason = await changeLostReason(db, id, change);
    if (!reason) throw new HttpError(404, "Lost reason not found");
    await audit(db, req, context, admin, "lost-reason.change", {
      target: String(reason.id),
      detail: { ...change, labels: change.labels ?? reason.labels },
    });
    return json<LostReason>(reason);
  },
});

export const config: Config = { path: [ROUTES.admin.lostReasons, ROUTES.admin.lostReason] };
