/**
 * The lead desk beside the enquiries list (functions/admin-submissions.ts), admin only:
 * - GET /api/admin/leads/board → each stage's count and newest leads, with the list's filters
 *   (src/shared/admin-lists.ts; the stage and sort are the board's own);
 * - GET /api/admin/leads/{id}/events → a lead's timeline, oldest first.
 * The lost reasons are functions/admin-lost-reasons.ts.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { leadBoard } from "#db/enquiries.repository.ts";
import { leadEvents } from "#db/leads.repository.ts";
import { parseEnquiryFilters } from "#shared/admin-lists.ts";
import type { LeadBoard, LeadEvent } from "#shared/api/enquiries.ts";
import { ROUTES } from "#shared/routes.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { readFilters } from "./_lib/http/admin-resource.ts";
import { HttpError, json, requestUrl, route } from "./_lib/http/http.ts";
import { leadListContext } from "./_lib/lead-lists.ts";

export default route({
  GET: async (req, context) => {
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const url = requestUrl(req, context);
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[3] === "board") {
      const filters = readFilters(parseEnquiryFilters, url.searchParams);
      return json<LeadBoard>(await leadBoard(db, filters, await leadListContext(db, admin, filters)));
    }
    const id = context?.params?.id ?? parts[3];
    if (!/^\d{1,9}$/.test(id ?? "")) throw new HttpError(404, "Not found");
    return json<LeadEvent[]>(await leadEvents(db, Number(id)));
  },
});

export const config: Config = { path: [ROUTES.admin.leadBoard, ROUTES.admin.leadEvents] };
