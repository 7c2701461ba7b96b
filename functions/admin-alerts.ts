/**
 * GET /api/admin/alerts, admin only: what the dashboard warns about. The circuit breaker of the
 * public forms (functions/_lib/forms/limits.ts): while it is tripped, acknowledgements are paused. And the
 * connected calendars that cannot be read, since when, why, and whether they now block every slot
 * (functions/_lib/calendars/refresh.ts).
 */
import type { Config } from "@netlify/functions";
import { failingFeeds } from "#db/busy-calendars.repository.ts";
import { getDb } from "#db/client.ts";
import { calendarStaleBefore } from "#server/config.ts";
import { now } from "#server/office.ts";
import type { AdminAlertsAnswer } from "#shared/api/stats.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { json, route } from "./_lib/http/http.ts";
import { breakerStatus } from "./_lib/forms/limits.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  GET: async (req) => {
    const db = getDb();
    await requireAdmin(db, req);
    const staleBefore = calendarStaleBefore(now()).getTime();
    const [breaker, failing] = await Promise.all([breakerStatus(db), failingFeeds(db)]);
    const calendars = failing.map((feed) => ({
      name: feed.name,
      failingSince: feed.failingSince.toISOString(),
      reason: feed.lastError,
      stale: feed.failingSince.getTime() <= staleBefore,
    }));
    return json<AdminAlertsAnswer>({ success: true, data: { breaker, calendars } });
  },
});

export const config: Config = { path: ROUTES.admin.alerts };
