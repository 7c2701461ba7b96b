/**
 * Proving again who one is, in a signed-in session (admins and editors, limited sessions too):
 * - POST /api/account/step-up/options → WebAuthn request options for this account's own passkeys;
 *   the challenge is kept server side, for this account, for five minutes;
 * - POST /api/account/step-up { password } or { code } or { response } → 200 { until }: the session
 *   may change what protects the account until then (functions/_lib/auth/step-up.ts).
 * The password and codes are checked like a sign-in (the same throttle; a wrong one is 403 and
 * counts as a failed sign-in); a passkey must be one of this account's, user verified, its counter
 * going up. Each proof is audited once.
 */
import type { Config, Context } from "@netlify/functions";
import { generateAuthenticationOptions } from "@simplewebauthn/server";
import { getDb } from "#db/client.ts";
import { passkeyByCredential, passkeyCredentialIds } from "#db/factors.repository.ts";
import { recordFailure } from "#db/login-attempts.repository.ts";
import type { StepUpAnswer } from "#shared/api/factors.ts";
import { ROUTES } from "#shared/routes.ts";
import { stepUpSchema, type StepUpPayload } from "#shared/schemas/factors.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAccount, type SessionUser } from "./_lib/auth/auth.ts";
import { requireReauth } from "./_lib/auth/factors.ts";
import { keepChallenge, relyingParty, verifiedPasskey } from "./_lib/auth/passkeys.ts";
import { noteStepUp, STEP_UP_SECONDS } from "./_lib/auth/step-up.ts";
import { loginSucceeded, takeLoginTry } from "./_lib/auth/throttle.ts";
import { HttpError, clientIp, json, readJson, requireSameOrigin, route, routes, validate } from "./_lib/http/http.ts";

const PASSKEY_REFUSED = "This passkey could not confirm it is you";

/** Verifies a passkey assertion of `me`'s own passkeys against this account's step-up challenge. */
async function passkeyProof(
  req: Request,
  context: Context,
  me: SessionUser,
  response: NonNullable<StepUpPayload["response"]>,
): Promise<void> {
  const db = getDb();
  const ip = clientIp(req, context);
  const ticket = await takeLoginTry(db, me.username, ip);
  const stored = await passkeyByCredential(db, response.id);
  const verified =
    !!stored && stored.userId === me.id && (await verifiedPasskey(db, response, stored, "passkey-step-up", me.id));
  if (!verified) {
    await recordFailure(db, [`user:${me.username.trim().toLowerCase()}`, `ip:${ip}`]);
    throw new HttpError(403, PASSKEY_REFUSED, { code: "passkeyRefused" });
  }
  await loginSucceeded(db, ticket);
}

const options = route({
  POST: async (req: Request) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireAccount(db, req);
    const mine = await passkeyCredentialIds(db, me.id);
    if (!mine.length) throw new HttpError(409, "This account has no passkey", { code: "noPasskey" });
    const result = await generateAuthenticationOptions({
      rpID: relyingParty().rpID,
      allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports })),
      userVerification: "required",
      timeout: 120_000,
    });
    await keepChallenge(db, "passkey-step-up", me.id, result.challenge);
    return json(result);
  },
});

const stepUp = route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireAccount(db, req);
    const payload = validate(stepUpSchema, await readJson(req));
    let proof: "password" | "totp" | "passkey";
    if (payload.response) {
      await passkeyProof(req, context, me, payload.response);
      proof = "passkey";
    } else proof = await requireReauth(db, req, context, me, payload);
    const { steppedUpAt } = await noteStepUp(db, me);
    await audit(db, req, context, me, "step-up", { target: me.username, detail: { proof } });
    const until = new Date(steppedUpAt!.getTime() + STEP_UP_SECONDS * 1000).toISOString();
    return json<StepUpAnswer>({ success: true, until });
  },
});

export default routes({ "step-up": stepUp, options });

export const config: Config = { path: [ROUTES.account.stepUp, ROUTES.account.stepUpOptions] };
