/** POST /api/logout: ends this session (the others stay; the Security page ends those) and clears the cookie. */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { endSession } from "#db/sessions.repository.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import { clearedSessionCookie, currentSession } from "./_lib/auth/auth.ts";
import { json, requireSameOrigin, route } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  POST: async (req) => {
    requireSameOrigin(req);
    const db = getDb();
    const session = await currentSession(db, req);
    if (session) await endSession(db, session.sessionId, session.id);
    return json<MessageAnswer>({ success: true, message: "Logged out" }, 200, {
      "Set-Cookie": clearedSessionCookie(req),
    });
  },
});

export const config: Config = { path: ROUTES.logout };
