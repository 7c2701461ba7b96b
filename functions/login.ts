/** POST /api/login → { success, message } and, on success, the session cookie. */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "../db/client.ts";
import { findUserByUsername } from "../db/users.repository.ts";
import { DUMMY_HASH, verifyPassword } from "../db/admins.ts";
import type { ErrorAnswer, MessageAnswer } from "../src/shared/api.ts";
import { loginSchema } from "../src/shared/schemas.ts";
import { sessionCookie, signSession } from "./_lib/auth.ts";
import { clientIp, json, readJson, requireSameOrigin, route, validate } from "./_lib/http.ts";
import { assertNotThrottled, noteFailure, noteSuccess, throttleKeys } from "./_lib/throttle.ts";

const INVALID = "Invalid username or password";

export default route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const { username, password } = validate(loginSchema, await readJson(req));
    const db = getDb();
    const keys = throttleKeys(username, clientIp(req, context));
    await assertNotThrottled(db, keys);
    const user = await findUserByUsername(db, username);
    // An unknown user costs one bcrypt comparison too, so timing does not reveal which names exist.
    const ok = await verifyPassword(password, user?.password ?? DUMMY_HASH);
    if (!user || !ok) {
      await noteFailure(db, keys);
      return json<ErrorAnswer>({ success: false, message: INVALID }, 401);
    }
    await noteSuccess(db, keys);
    const token = await signSession(user);
    return json<MessageAnswer>({ success: true, message: "Login successful" }, 200, {
      "Set-Cookie": sessionCookie(token, req),
    });
  },
});

export const config: Config = { path: "/api/login" };
