/**
 * The signed-in person's second factors (admins and editors):
 * - GET /api/account/factors → TOTP on or off, recovery codes left, passkeys, email, the setting;
 * - POST /api/account/factors/totp → a new secret (otpauth:// URI and its QR code), kept pending;
 * - POST /api/account/factors/totp/confirm { code } → TOTP on, and ten recovery codes shown once;
 * - POST /api/account/factors/totp/remove { password } or { code } or {} → TOTP off, other sessions end;
 * - POST /api/account/factors/recovery-codes { password } or { code } or {} → ten new codes replace all;
 * - PUT /api/account/email { email } → where security notices go ("" or null: nowhere); the old
 *   address is told.
 * Everything but GET needs a step-up of the last five minutes (functions/_lib/auth/step-up.ts); the
 * removal and the new codes also take the password or a code in the body as that proof.
 * A limited session (it must set up a factor first) reaches GET and the TOTP set-up only; setting
 * one up lifts its limit.
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import {
  disableTotp,
  enableTotp,
  factorState,
  replaceRecoveryCodes,
  secondFactorRequired,
  setPendingTotp,
  totpSecrets,
} from "#db/factors.repository.ts";
import { recordFailure } from "#db/login-attempts.repository.ts";
import { unlimitSession } from "#db/sessions.repository.ts";
import { setEmail } from "#db/users.repository.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import type { FactorsAnswer, RecoveryCodesAnswer, TotpSetupAnswer } from "#shared/api/factors.ts";
import { ROUTES } from "#shared/routes.ts";
import { accountEmailSchema, reauthSchema, totpConfirmSchema } from "#shared/schemas/factors.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAccount, requireEditor } from "./_lib/auth/auth.ts";
import { newRecoveryCodes, newTotpSetup, lastFactorAnswer, openSecret, totpStep } from "./_lib/auth/factors.ts";
import { proofInBodyOrStepUp, requireStepUp } from "./_lib/auth/step-up.ts";
import { noticeOwner, notify } from "./_lib/auth/signin.ts";
import { loginSucceeded, takeLoginTry } from "./_lib/auth/throttle.ts";
import { HttpError, clientIp, json, readJson, requireSameOrigin, route, routes, validate } from "./_lib/http/http.ts";

/** The passkeys as the API shows them. */
const passkeyInfos = (rows: Awaited<ReturnType<typeof factorState>>["passkeys"]) =>
  rows.map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: new Date(p.createdAt).toISOString(),
    lastUsedAt: p.lastUsedAt ? new Date(p.lastUsedAt).toISOString() : null,
  }));

const status = route({
  GET: async (req) => {
    const db = getDb();
    const me = await requireAccount(db, req);
    const state = await factorState(db, me.id);
    return json<FactorsAnswer>({
      success: true,
      totp: state.totp,
      recoveryCodesLeft: state.recoveryCodesLeft,
      passkeys: passkeyInfos(state.passkeys),
      email: state.email,
      required: await secondFactorRequired(db),
      limited: me.limited,
      admin: me.role === "admin",
    });
  },
});

const totpStart = route({
  POST: async (req) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireAccount(db, req);
    requireStepUp(me);
    const setup = newTotpSetup(me.username);
    if (!(await setPendingTotp(db, me.id, setup.sealed)))
      throw new HttpError(409, "Two-step codes are already on for this account", { code: "totpOn" });
    return json<TotpSetupAnswer>({ success: true, secret: setup.secret, uri: setup.uri, qr: setup.qr });
  },
});

const totpConfirm = route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireAccount(db, req);
    const { code } = validate(totpConfirmSchema, await readJson(req));
    requireStepUp(me);
    const { pending, secret } = await totpSecrets(db, me.id);
    if (secret) throw new HttpError(409, "Two-step codes are already on for this account", { code: "totpOn" });
    if (!pending) throw new HttpError(409, "Start the set-up first", { code: "totpNotStarted" });
    const ip = clientIp(req, context);
    const ticket = await takeLoginTry(db, me.username, ip);
    const step = totpStep(openSecret(pending), code);
    if (step === null) {
      await recordFailure(db, [`user:${me.username.trim().toLowerCase()}`, `ip:${ip}`]);
      // 403 as a wrong current password is: a well-formed try that counted, not a malformed request.
      throw new HttpError(403, "The code is not right", { errors: { code: ["The code is not right"] } });
    }
    await loginSucceeded(db, ticket);
    const { codes, hashes } = newRecoveryCodes();
    if (!(await enableTotp(db, me.id, pending, step, hashes)))
      throw new HttpError(409, "The set-up changed meanwhile: start it again", { code: "totpNotStarted" });
    if (me.limited) await unlimitSession(db, me.sessionId);
    await audit(db, req, context, me, "factor.add", { target: me.username, detail: { factor: "totp" } });
    await notify(db, context, await noticeOwner(db, me), "factorAdded", { factor: "totp" });
    return json<RecoveryCodesAnswer>({ success: true, recoveryCodes: codes });
  },
});

const totpRemove = route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireEditor(db, req);
    const payload = validate(reauthSchema, await readJson(req));
    await proofInBodyOrStepUp(db, req, context, me, payload);
    const ended = await disableTotp(db, me.id, me.sessionId).catch((error: unknown) => {
      throw lastFactorAnswer(error);
    });
    if (ended === null) throw new HttpError(409, "Two-step codes are off for this account", { code: "totpOff" });
    await audit(db, req, context, me, "factor.remove", {
      target: me.username,
      detail: { factor: "totp", sessionsEnded: ended },
    });
    await notify(db, context, await noticeOwner(db, me), "factorRemoved", { factor: "totp" });
    return json<MessageAnswer>({ success: true, message: "Two-step codes are off" });
  },
});

const recoveryCodes = route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireEditor(db, req);
    const payload = validate(reauthSchema, await readJson(req));
    await proofInBodyOrStepUp(db, req, context, me, payload);
    const { codes, hashes } = newRecoveryCodes();
    if (!(await replaceRecoveryCodes(db, me.id, hashes)))
      throw new HttpError(409, "Two-step codes are off for this account", { code: "totpOff" });
    await audit(db, req, context, me, "recovery.regenerate", { target: me.username });
    return json<RecoveryCodesAnswer>({ success: true, recoveryCodes: codes });
  },
});

const email = route({
  PUT: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireEditor(db, req);
    const { email: given } = validate(accountEmailSchema, await readJson(req));
    requireStepUp(me);
    const address = given ? given : null;
    const before = await noticeOwner(db, me);
    await setEmail(db, me.id, address);
    await audit(db, req, context, me, "email.change", { target: me.username, detail: { set: address !== null } });
    // The old address hears of it: whoever changed it may not be the owner.
    if (before.email !== address) await notify(db, context, before, "emailChanged");
    return json<MessageAnswer>({ success: true, message: address ? "Email saved" : "Email removed" });
  },
});

export default routes({
  factors: status,
  totp: totpStart,
  confirm: totpConfirm,
  remove: totpRemove,
  "recovery-codes": recoveryCodes,
  email,
});

export const config: Config = {
  path: [
    ROUTES.account.factors,
    ROUTES.account.totp,
    ROUTES.account.totpConfirm,
    ROUTES.account.totpRemove,
    ROUTES.account.recoveryCodes,
    ROUTES.account.email,
  ],
};
