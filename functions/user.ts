/**
 * GET /api/user → { success: true, user: { id, username, role, language } } or 401 { success: false }.
 * PATCH /api/user { language: one of LANGUAGES, or null }: the language the signed-in person reads
 * the admin panel in, remembered on their account (null: the browser's languages decide).
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { setPanelLanguage } from "#db/users.repository.ts";
import type { ErrorAnswer } from "#shared/api/common.ts";
import type { PanelUserAnswer } from "#shared/api/panel-language.ts";
import { panelLanguageSchema } from "#shared/schemas/panel-language.ts";
import { currentUser } from "./_lib/auth/auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  GET: async (req) => {
    const user = await currentUser(getDb(), req);
    return user
      ? json<PanelUserAnswer>({ success: true, user })
      : json<ErrorAnswer>({ success: false, message: "Authentication required" }, 401);
  },
  PATCH: async (req) => {
    requireSameOrigin(req);
    const db = getDb();
    const user = await currentUser(db, req);
    if (!user) throw new HttpError(401, "Authentication required");
    const { language } = validate(panelLanguageSchema, await readJson(req));
    await setPanelLanguage(db, user.id, language);
    return json<PanelUserAnswer>({ success: true, user: { ...user, language } });
  },
});

export const config: Config = { path: ROUTES.user };
