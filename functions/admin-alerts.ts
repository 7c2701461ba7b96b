/**
 * GET /api/admin/alerts, admin only: what the dashboard warns about. Today the circuit breaker of the
 * public forms (functions/_lib/limits.ts): while it is tripped, acknowledgements are paused.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import type { AdminAlertsAnswer } from "#shared/api.ts";
import { requireAdmin } from "./_lib/auth.ts";
import { json, route } from "./_lib/http.ts";
import { breakerStatus } from "./_lib/limits.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  GET: async (req) => {
    const db = getDb();
    await requireAdmin(db, req);
    return json<AdminAlertsAnswer>({ success: true, data: { breaker: await breakerStatus(db) } });
  },
});

export const config: Config = { path: ROUTES.admin.alerts };
