/** POST /api/logout: ends every session of the signed-in admin and clears the cookie. */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { bumpSessionVersion } from "#db/users.repository.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import { clearedSessionCookie, currentUser } from "./_lib/auth/auth.ts";
import { json, requireSameOrigin, route } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  POST: async (req) => {
    requireSameOrigin(req);
    const db = getDb();
    const user = await currentUser(db, req);
    if (user) await bumpSessionVersion(db, user.id);
    return json<MessageAnswer>({ success: true, message: "Logged out" }, 200, {
      "Set-Cookie": clearedSessionCookie(req),
    });
  },
});

export const config: Config = { path: ROUTES.logout };
