/** POST /api/login → { success, message } and, on success, the session cookie. */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { findUserByUsername } from "#db/users.repository.ts";
import { ComparisonsBusy, DUMMY_HASH, verifyPassword } from "#db/admins.ts";
import { recordFailure } from "#db/login-attempts.repository.ts";
import type { ErrorAnswer, MessageAnswer } from "#shared/api/common.ts";
import { loginSchema } from "#shared/schemas/people.ts";
import { sessionCookie, signSession } from "./_lib/auth/auth.ts";
import { HttpError, clientIp, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { addressKey } from "./_lib/forms/limits.ts";
import { loginNotEvaluated, loginSucceeded, takeLoginTry } from "./_lib/auth/throttle.ts";
import { ROUTES } from "#shared/routes.ts";

const INVALID = "Invalid username or password";

export default route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const { username, password } = validate(loginSchema, await readJson(req));
    const db = getDb();
    const ip = clientIp(req, context);
    const ticket = await takeLoginTry(db, username, ip);
    const user = await findUserByUsername(db, username);
    // An unknown user costs one bcrypt comparison too, so timing does not reveal which names exist.
    let ok: boolean;
    try {
      ok = await verifyPassword(password, user?.password ?? DUMMY_HASH, addressKey(ip));
    } catch (error) {
      if (!(error instanceof ComparisonsBusy)) throw error;
      await loginNotEvaluated(db, ticket);
      throw new HttpError(429, error.message, {}, { "Retry-After": "1" });
    }
    if (!user || !ok) {
      await recordFailure(db, [`user:${username.trim().toLowerCase()}`, `ip:${ip}`]); // the audit trail
      return json<ErrorAnswer>({ success: false, message: INVALID }, 401);
    }
    await loginSucceeded(db, ticket);
    const token = await signSession(user);
    return json<MessageAnswer>({ success: true, message: "Login successful" }, 200, {
      "Set-Cookie": sessionCookie(token, req),
    });
  },
});

export const config: Config = { path: ROUTES.login };
