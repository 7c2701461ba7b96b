/**
 * POST /api/login → { success, message, next? } and, on success, a cookie:
 * - an account without a second factor gets its session (limited to setting one up, `next: "setup"`,
 *   while the admin requires every account to have one);
 * - an account with TOTP gets no session but the signed, five-minute challenge cookie of the second
 *   step (`next: "second-factor"`, POST /api/login/second-factor); one with passkeys only signs in
 *   with a passkey (POST /api/login/passkey): a password alone opens nothing.
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { hasSecondFactor, secondFactorRequired } from "#db/factors.repository.ts";
import { findUserByUsername } from "#db/users.repository.ts";
import { ComparisonsBusy, DUMMY_HASH, verifyPassword } from "#db/admins.ts";
import { recordFailure } from "#db/login-attempts.repository.ts";
import type { ErrorAnswer } from "#shared/api/common.ts";
import type { LoginAnswer } from "#shared/api/factors.ts";
import { loginSchema } from "#shared/schemas/people.ts";
import { audit } from "./_lib/auth/audit.ts";
import { issueSecondStep, secondStepCookie } from "./_lib/auth/factors.ts";
import { openSession } from "./_lib/auth/signin.ts";
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
      await recordFailure(db, [`user:${username.trim().toLowerCase()}`, `ip:${ip}`]); // the throttle's trail
      await audit(db, req, context, null, "signin.failure", { subject: username, detail: { factor: "password" } });
      return json<ErrorAnswer>({ success: false, message: INVALID }, 401);
    }
    await loginSucceeded(db, ticket);
    const factors = await hasSecondFactor(db, user.id);
    const methods = [...(factors.totp ? ["totp" as const] : []), ...(factors.passkey ? ["passkey" as const] : [])];
    if (factors.totp) {
      const challenge = await issueSecondStep(db, user.id);
      const answer: LoginAnswer = { success: true, message: "Enter your code", next: "second-factor", methods };
      return json(answer, 200, { "Set-Cookie": secondStepCookie(challenge, req) });
    }
    if (factors.passkey) {
      return json<LoginAnswer>({ success: true, message: "Sign in with your passkey", next: "second-factor", methods });
    }
    const limited = await secondFactorRequired(db);
    const cookie = await openSession(db, req, context, user, "password", { limited });
    return json<LoginAnswer>(
      limited
        ? { success: true, message: "Set up a second factor to continue", next: "setup" }
        : { success: true, message: "Login successful" },
      200,
      { "Set-Cookie": cookie },
    );
  },
});

export const config: Config = { path: ROUTES.login };
