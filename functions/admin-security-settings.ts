/**
 * GET/PUT /api/admin/security-settings { requireSecondFactor }, admin only: whether every account
 * must have a second factor. While it is on, an account without one that signs in with its password
 * gets a session limited to setting one up. Sessions already open keep going until they end.
 * Changing it needs a step-up of the last five minutes (functions/_lib/auth/step-up.ts).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { secondFactorRequired, setSecondFactorRequired } from "#db/factors.repository.ts";
import type { SecuritySettingsAnswer } from "#shared/api/factors.ts";
import { ROUTES } from "#shared/routes.ts";
import { securitySettingsSchema } from "#shared/schemas/factors.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { requireStepUp } from "./_lib/auth/step-up.ts";
import { json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";

export default route({
  GET: async (req) => {
    const db = getDb();
    await requireAdmin(db, req);
    return json<SecuritySettingsAnswer>({ success: true, requireSecondFactor: await secondFactorRequired(db) });
  },
  PUT: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireAdmin(db, req);
    const { requireSecondFactor } = validate(securitySettingsSchema, await readJson(req));
    requireStepUp(me);
    const before = await secondFactorRequired(db);
    await setSecondFactorRequired(db, requireSecondFactor);
    if (before !== requireSecondFactor)
      await audit(db, req, context, me, "settings.change", {
        target: "requireSecondFactor",
        detail: { from: before, to: requireSecondFactor },
      });
    return json<SecuritySettingsAnswer>({ success: true, requireSecondFactor });
  },
});

export const config: Config = { path: ROUTES.admin.securitySettings };
