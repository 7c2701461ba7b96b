/**
 * GET /api/admin/due: the leads due today, oldest first (at most MAX_DUE): open leads whose
 * follow-up date has come (office time) and leads waiting on us past two working days (office
 * hours, closures and holidays count), with why each is due. The dashboard's Due panel reads it.
 * Admin only; it takes no parameters (any is a 400).
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { dueLeads } from "#db/follow-ups.repository.ts";
import { officeNow } from "#shared/dates.ts";
import { MAX_DUE, type DueAnswer } from "#shared/follow-ups.ts";
import { ROUTES } from "#shared/routes.ts";
import { now } from "#server/office.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, route } from "./_lib/http/http.ts";
import { storedOfficeRules } from "./_lib/lead-lists.ts";

export default route({
  GET: async (req) => {
    const db = getDb();
    await requireAdmin(db, req);
    const [first] = new URL(req.url).searchParams.keys();
    if (first !== undefined) throw new HttpError(400, `Unknown parameter ${first.slice(0, 40)}`);
    const at = now();
    const rules = await storedOfficeRules(db);
    const leads = await dueLeads(db, at, rules, { limit: MAX_DUE + 1 });
    return json<DueAnswer>({
      success: true,
      today: officeNow(at, rules.timeZone).date,
      leads: leads.slice(0, MAX_DUE),
      more: leads.length > MAX_DUE,
    });
  },
});

export const config: Config = { path: ROUTES.admin.due };
