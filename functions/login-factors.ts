/**
 * The sign-in's second factor and the passkey sign-in (nobody is signed in yet):
 * - POST /api/login/second-factor { code } or { recoveryCode }: with the challenge cookie of a right
 *   password (functions/login.ts), a TOTP code or a recovery code opens the session. Wrong codes
 *   count in the login throttle; the challenge is taken when it opens the session, so it works once.
 * - POST /api/login/passkey/options → WebAuthn request options (usernameless: the browser offers
 *   this site's passkeys); the challenge is kept server side for five minutes.
 * - POST /api/login/passkey { response }: the browser's answer; a verified passkey (user verified)
 *   opens the session as two factors.
 */
import type { Config, Context } from "@netlify/functions";
import { generateAuthenticationOptions } from "@simplewebauthn/server";
import { getDb } from "#db/client.ts";
import { challengeLive, passkeyByCredential, takeChallenge } from "#db/factors.repository.ts";
import { recordFailure } from "#db/login-attempts.repository.ts";
import { hitCounters } from "#db/rate-limits.repository.ts";
import { findUserById } from "#db/users.repository.ts";
import type { ErrorAnswer } from "#shared/api/common.ts";
import type { LoginAnswer } from "#shared/api/factors.ts";
import { LIMITS } from "#shared/limits.ts";
import { ROUTES } from "#shared/routes.ts";
import { passkeySigninSchema, secondStepSchema } from "#shared/schemas/factors.ts";
import { rateLimitsOn } from "#server/config.ts";
import { audit } from "./_lib/auth/audit.ts";
import { clearedSecondStepCookie, readSecondStep, throttledFactorCode } from "./_lib/auth/factors.ts";
import { keepChallenge, relyingParty, verifiedPasskey } from "./_lib/auth/passkeys.ts";
import { openSession } from "./_lib/auth/signin.ts";
import { loginSucceeded, takeLoginTry } from "./_lib/auth/throttle.ts";
import { addressKey, counterKey } from "./_lib/forms/limits.ts";
import { HttpError, clientIp, json, readJson, requireSameOrigin, route, routes, validate } from "./_lib/http/http.ts";

const EXPIRED = "The sign-in has expired. Please enter your password again.";
const WRONG_CODE = "The code is not right";
const PASSKEY_REFUSED = "This passkey could not sign you in";

/** A session answer that also clears the second step's cookie. */
function signedIn(sessionCookie: string, clearChallenge?: string): Response {
  const res = json<LoginAnswer>({ success: true, message: "Login successful" }).toResponse();
  res.headers.append("Set-Cookie", sessionCookie);
  if (clearChallenge) res.headers.append("Set-Cookie", clearChallenge);
  return res;
}

const secondFactor = route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const payload = validate(secondStepSchema, await readJson(req));
    const db = getDb();
    const challenge = await readSecondStep(req);
    if (!challenge || !(await challengeLive(db, challenge.id, "second-step", challenge.userId)))
      throw new HttpError(401, EXPIRED, { code: "secondStepExpired" });
    const user = await findUserById(db, challenge.userId);
    if (!user) throw new HttpError(401, EXPIRED, { code: "secondStepExpired" });
    const factor = await throttledFactorCode(db, req, context, user, payload);
    if (!factor) {
      await audit(db, req, context, null, "signin.failure", {
        subject: user.username,
        detail: { factor: payload.code !== undefined ? "totp" : "recovery" },
      });
      return json<ErrorAnswer>({ success: false, message: WRONG_CODE, errors: { code: [WRONG_CODE] } }, 401);
    }
    // Taken only now, so a mistyped code can be typed again; two uses of one challenge cannot both pass.
    if (!(await takeChallenge(db, { purpose: "second-step", id: challenge.id, userId: user.id })))
      throw new HttpError(401, EXPIRED, { code: "secondStepExpired" });
    const cookie = await openSession(db, req, context, user, `password+${factor}`);
    return signedIn(cookie, clearedSecondStepCookie(req));
  },
});

const passkeyOptions = route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    if (rateLimitsOn()) {
      const { limit, windowSeconds } = LIMITS.login.passkeyChallenges;
      const key = counterKey("passkey-challenge", addressKey(clientIp(req, context)));
      const state = (await hitCounters(db, [{ key, windowSeconds }])).get(key)!;
      if (state.estimate > limit)
        throw new HttpError(
          429,
          "Too many sign-in attempts. Please wait and try again.",
          {},
          {
            "Retry-After": String(state.resetSeconds),
          },
        );
    }
    const options = await generateAuthenticationOptions({
      rpID: relyingParty().rpID,
      userVerification: "required",
      timeout: 120_000,
    });
    await keepChallenge(db, "passkey-signin", null, options.challenge);
    return json(options);
  },
});

const passkeySignIn = route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const { response } = validate(passkeySigninSchema, await readJson(req));
    const db = getDb();
    const ip = clientIp(req, context);
    const stored = await passkeyByCredential(db, response.id);
    const refuse = async (username: string | null) => {
      if (username) await recordFailure(db, [`user:${username.toLowerCase()}`, `ip:${ip}`]);
      await audit(db, req, context, null, "signin.failure", { subject: username, detail: { factor: "passkey" } });
      return json<ErrorAnswer>({ success: false, message: PASSKEY_REFUSED }, 401);
    };
    // An unknown credential counts against the address like an unknown username.
    const ticket = await takeLoginTry(db, stored?.username ?? "(unknown passkey)", ip);
    if (!stored) return refuse(null);
    if (!(await verifiedPasskey(db, response, stored, "passkey-signin", null))) return refuse(stored.username);
    await loginSucceeded(db, ticket);
    const cookie = await openSession(
      db,
      req,
      context,
      {
        id: stored.userId,
        username: stored.username,
        sessionVersion: stored.sessionVersion,
        email: stored.email,
        panelLanguage: stored.panelLanguage,
      },
      "passkey",
    );
    return signedIn(cookie);
  },
});

export default routes({ "second-factor": secondFactor, options: passkeyOptions, passkey: passkeySignIn });

export const config: Config = { path: [ROUTES.loginSecondFactor, ROUTES.loginPasskeyOptions, ROUTES.loginPasskey] };
