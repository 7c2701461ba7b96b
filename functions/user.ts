/** GET /api/user → { success: true, user: { id, username } } or 401 { success: false }. */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import type { CurrentUserAnswer } from "#shared/api/people.ts";
import type { ErrorAnswer } from "#shared/api/common.ts";
import { currentUser } from "./_lib/auth/auth.ts";
import { json, route } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  GET: async (req) => {
    const user = await currentUser(getDb(), req);
    return user
      ? json<CurrentUserAnswer>({ success: true, user })
      : json<ErrorAnswer>({ success: false, message: "Authentication required" }, 401);
  },
});

export const config: Config = { path: ROUTES.user };
