/** GET /api/admin/stats: the figures above the dashboard's tabs (db/admin-stats.repository.ts), by the office's stored rules. Admin only. */
import type { Config } from "@netlify/functions";
import { adminStats } from "#db/admin-stats.repository.ts";
import { getDb } from "#db/client.ts";
import type { AdminStats } from "#shared/api/stats.ts";
import { now } from "#server/office.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { json, route } from "./_lib/http/http.ts";
import { storedOfficeRules } from "./_lib/lead-lists.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  GET: async (req) => {
    const db = getDb();
    await requireAdmin(db, req);
    return json<AdminStats>(await adminStats(db, now(), await storedOfficeRules(db)));
  },
});

export const config: Config = { path: ROUTES.admin.stats };
