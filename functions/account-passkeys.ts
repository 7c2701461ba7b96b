/**
 * The signed-in person's passkeys (admins and editors):
 * - POST /api/account/passkeys/options → WebAuthn creation options (a discoverable credential, user
 *   verification required); the challenge is kept server side, for this account, for five minutes;
 * - POST /api/account/passkeys { name, response } → 201 the new passkey, once the browser's answer
 *   verifies against that challenge (taken: it works once);
 * - PATCH /api/account/passkeys/:id { name } renames one; DELETE removes one and ends the person's
 *   other sessions.
 * Adding (its options too) and removing need a step-up of the last five minutes
 * (functions/_lib/auth/step-up.ts). A limited session may add a passkey (that lifts its limit),
 * nothing else here.
 */
import type { Config, Context } from "@netlify/functions";
import { generateRegistrationOptions, verifyRegistrationResponse } from "@simplewebauthn/server";
import { getDb } from "#db/client.ts";
import {
  addPasskey,
  passkeyCredentialIds,
  removePasskey,
  renamePasskey,
  takeChallenge,
} from "#db/factors.repository.ts";
import { unlimitSession } from "#db/sessions.repository.ts";
import { site } from "#config/site.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import type { PasskeyAnswer } from "#shared/api/factors.ts";
import { ROUTES } from "#shared/routes.ts";
import { passkeyRegisterSchema, passkeyRenameSchema } from "#shared/schemas/factors.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAccount, requireEditor } from "./_lib/auth/auth.ts";
import { lastFactorAnswer } from "./_lib/auth/factors.ts";
import { requireStepUp } from "./_lib/auth/step-up.ts";
import { keepChallenge, relyingParty } from "./_lib/auth/passkeys.ts";
import { noticeOwner, notify } from "./_lib/auth/signin.ts";
import { pathId } from "./_lib/auth/sessions-answer.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";

const REFUSED = "The passkey could not be verified. Please try again.";

/** What a path names: the collection (undefined), the options, a passkey's id, or nothing that exists. */
function passkeyId(req: Request, context: Context): number | "options" | "none" | undefined {
  const raw = pathId(req, context, ROUTES.account.passkeys);
  if (raw === undefined || raw === "options") return raw;
  return /^\d{1,9}$/.test(raw) ? Number(raw) : "none";
}

/** The passkey id of a PATCH or DELETE: 405 on the collection and the options, 404 for what cannot be one. */
function onePasskey(req: Request, context: Context, method: string): number {
  const id = passkeyId(req, context);
  if (id === undefined || id === "options") throw new HttpError(405, `Method ${method} is not allowed`);
  if (id === "none") throw new HttpError(404, "No such passkey");
  return id;
}

export default route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const target = passkeyId(req, context);
    if (typeof target === "number" || target === "none") throw new HttpError(405, "Method POST is not allowed");
    const me = await requireAccount(db, req);
    const { origin, rpID } = relyingParty();
    if (target === "options") {
      requireStepUp(me);
      const existing = await passkeyCredentialIds(db, me.id);
      const options = await generateRegistrationOptions({
        rpName: site.name,
        rpID,
        userName: me.username,
        userID: new TextEncoder().encode(`account-${me.id}`),
        attestationType: "none",
        excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
        timeout: 120_000,
      });
      await keepChallenge(db, "passkey-register", me.id, options.challenge);
      return json(options);
    }
    const { name, response } = validate(passkeyRegisterSchema, await readJson(req));
    requireStepUp(me);
    let info;
    try {
      const result = await verifyRegistrationResponse({
        response,
        expectedChallenge: (challenge) => takeChallenge(db, { purpose: "passkey-register", challenge, userId: me.id }),
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: true,
      });
      info = result.verified ? result.registrationInfo : undefined;
    } catch {
      info = undefined;
    }
    if (!info) throw new HttpError(400, REFUSED, { code: "passkeyRefused" });
    const added = await addPasskey(db, {
      userId: me.id,
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      transports: (info.credential.transports ?? []).slice(0, 10),
      name,
    });
    if (!added) throw new HttpError(409, "This passkey is already registered", { code: "passkeyKnown" });
    if (me.limited) await unlimitSession(db, me.sessionId);
    await audit(db, req, context, me, "factor.add", { target: me.username, detail: { factor: "passkey", name } });
    await notify(db, context, await noticeOwner(db, me), "factorAdded", { factor: "passkey" });
    const passkey = {
      id: added.id,
      name: added.name,
      createdAt: new Date(added.createdAt).toISOString(),
      lastUsedAt: null,
    };
    return json<PasskeyAnswer>({ success: true, passkey }, 201);
  },
  PATCH: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireEditor(db, req);
    const id = onePasskey(req, context, "PATCH");
    const { name } = validate(passkeyRenameSchema, await readJson(req));
    if (!(await renamePasskey(db, me.id, id, name))) throw new HttpError(404, "No such passkey");
    await audit(db, req, context, me, "factor.rename", { target: me.username, detail: { factor: "passkey", name } });
    return json<MessageAnswer>({ success: true, message: "Passkey renamed" });
  },
  DELETE: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireEditor(db, req);
    const id = onePasskey(req, context, "DELETE");
    requireStepUp(me);
    const removed = await removePasskey(db, me.id, id, me.sessionId).catch((error: unknown) => {
      throw lastFactorAnswer(error);
    });
    if (!removed) throw new HttpError(404, "No such passkey");
    await audit(db, req, context, me, "factor.remove", {
      target: me.username,
      detail: { factor: "passkey", name: removed.name, sessionsEnded: removed.sessionsEnded },
    });
    await notify(db, context, await noticeOwner(db, me), "factorRemoved", { factor: "passkey" });
    return json<MessageAnswer>({ success: true, message: "Passkey removed" });
  },
});

export const config: Config = {
  path: [ROUTES.account.passkeys, ROUTES.account.passkeyOptions, ROUTES.account.passkey],
};
