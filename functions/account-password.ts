/**
 * POST /api/account/password { currentPassword, newPassword }: the signed-in person (admin or
 * editor) sets a new password. The current one is checked like a sign-in (the same throttle and
 * comparison queue; a wrong one is 403 and counts as a failure); the person's other sessions end,
 * this one stays signed in. The owner is told at the account's notice address. Passkeys stay: each
 * is a factor of its own, and adding one needs a fresh proof (functions/_lib/auth/step-up.ts).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { ComparisonsBusy, hashPassword, verifyPassword } from "#db/admins.ts";
import { recordFailure } from "#db/login-attempts.repository.ts";
import { changeOwnPassword, findUserById } from "#db/users.repository.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import { ROUTES } from "#shared/routes.ts";
import { passwordChangeSchema } from "#shared/schemas/security.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireEditor } from "./_lib/auth/auth.ts";
import { noticeOwner, notify } from "./_lib/auth/signin.ts";
import { HttpError, clientIp, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { addressKey } from "./_lib/forms/limits.ts";
import { loginNotEvaluated, loginSucceeded, takeLoginTry } from "./_lib/auth/throttle.ts";

export default route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireEditor(db, req);
    const { currentPassword, newPassword } = validate(passwordChangeSchema, await readJson(req));
    const ip = clientIp(req, context);
    const ticket = await takeLoginTry(db, me.username, ip);
    const user = await findUserById(db, me.id);
    if (!user) throw new HttpError(401, "Authentication required");
    let ok: boolean;
    try {
      ok = await verifyPassword(currentPassword, user.password, addressKey(ip));
    } catch (error) {
      if (!(error instanceof ComparisonsBusy)) throw error;
      await loginNotEvaluated(db, ticket);
      throw new HttpError(429, error.message, {}, { "Retry-After": "1" });
    }
    if (!ok) {
      await recordFailure(db, [`user:${me.username.trim().toLowerCase()}`, `ip:${ip}`]);
      throw new HttpError(403, "The current password is not right", {
        errors: { currentPassword: ["The current password is not right"] },
      });
    }
    await loginSucceeded(db, ticket);
    const ended = await changeOwnPassword(db, me.id, await hashPassword(newPassword), me.sessionId);
    await audit(db, req, context, me, "password.change", { target: me.username, detail: { sessionsEnded: ended } });
    await notify(db, context, await noticeOwner(db, me), "passwordChanged");
    return json<MessageAnswer>({ success: true, message: "Password changed" });
  },
});

export const config: Config = { path: ROUTES.account.password };
