/**
 * The accounts, admin only:
 * - GET /api/admin/users → the accounts with their roles and last sign-in;
 * - POST /api/admin/users { username, role, email?, language? } → 201 { user, emailed, link?,
 *   expiresAt }: a new admin or editor whose password nobody knows, and a single-use link (72 hours)
 *   with which the invitee sets their own. Where mail is configured (SMTP_URL) the link goes to
 *   `email` (400 without one) and the answer does not hold it; elsewhere the answer shows it once,
 *   for the admin to hand over. 409 when the name is taken;
 * - PATCH /api/admin/users/:id { role } → the account with its new role; its sessions end (but the
 *   asking one, when admins change themselves);
 * - DELETE /api/admin/users/:id → removes the account and its sessions.
 * The last admin can be neither demoted nor removed (409): db/users.repository.ts locks the admins.
 * Inviting and changing a role need a step-up of the last five minutes (functions/_lib/auth/step-up.ts).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { DUMMY_HASH } from "#db/admins.ts";
import { createInvitation } from "#db/invitations.repository.ts";
import { enqueue } from "#db/outbox.repository.ts";
import { site } from "#config/site.ts";
import { mailConfig } from "#server/config.ts";
import { isLanguage } from "#shared/languages.ts";
import {
  changeRole,
  ConsultantWithMeetingsError,
  LastAdminError,
  listUsers,
  removeUser,
} from "#db/users.repository.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import type { InvitedUser } from "#shared/api/people.ts";
import type { AccountInfo, UserAnswer } from "#shared/api/security.ts";
import { inviteSchema } from "#shared/schemas/people.ts";
import { roleChangeSchema } from "#shared/schemas/security.ts";
import { audit } from "./_lib/auth/audit.ts";
import { noticeOwner, notify } from "./_lib/auth/signin.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { INVITATION_HOURS, invitationTokenHash, invitationUrl, newInvitationToken } from "./_lib/auth/invitations.ts";
import { requireStepUp } from "./_lib/auth/step-up.ts";
import { afterCommitDelivery } from "./_lib/mail/delivery.ts";
import { invitationEmail } from "./_lib/mail/templates.ts";
import { pathId } from "./_lib/auth/sessions-answer.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

/** The account a path names: 404 for anything that is not a whole number. */
function accountId(req: Request, context: Context): number | undefined {
  const raw = pathId(req, context, ROUTES.admin.users);
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(404, "No such account");
  return Number(raw);
}

const lastAdmin = (error: unknown) => {
  if (error instanceof LastAdminError || error instanceof ConsultantWithMeetingsError)
    return new HttpError(409, error.message);
  return error;
};

export default route({
  GET: async (req, context) => {
    if (accountId(req, context) !== undefined) throw new HttpError(405, "Method GET is not allowed");
    const db = getDb();
    await requireAdmin(db, req);
    return json<AccountInfo[]>(await listUsers(db));
  },
  POST: async (req, context) => {
    if (accountId(req, context) !== undefined) throw new HttpError(405, "Method POST is not allowed");
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireAdmin(db, req);
    const { username, role, email, language } = validate(inviteSchema, await readJson(req));
    requireStepUp(me);
    const mailed = mailConfig().smtpUrl !== null;
    if (mailed && !email)
      throw new HttpError(400, "Give the address the invitation goes to", {
        errors: { email: ["Give the address the invitation goes to"] },
      });
    const lang = language ?? (isLanguage(me.language) ? me.language : "en");
    const token = newInvitationToken();
    const expiresAt = new Date(Date.now() + INVITATION_HOURS * 3600_000);
    // DUMMY_HASH: a password nobody knows, so the account opens only through the link.
    const user = await createInvitation(
      db,
      { username, role, email: email || null, language: lang, unusableHash: DUMMY_HASH },
      { tokenHash: invitationTokenHash(token), expiresAt },
    );
    if (!user) throw new HttpError(409, `The username ${username} is taken`);
    const url = invitationUrl(lang, token);
    if (mailed) {
      const ids = await enqueue(db, [
        {
          kind: "security.invitation",
          to: email!,
          replyTo: site.email,
          ...invitationEmail(lang, { username, role, inviter: me.username, url, expiresAt }),
        },
      ]);
      await afterCommitDelivery(db, ids, context);
    }
    await audit(db, req, context, me, "invite", { target: user.username, detail: { role, emailed: mailed } });
    const answer: InvitedUser = { user, emailed: mailed, expiresAt: expiresAt.toISOString() };
    return json<InvitedUser>(mailed ? answer : { ...answer, link: url }, 201);
  },
  PATCH: async (req, context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireAdmin(db, req);
    const id = accountId(req, context);
    if (id === undefined) throw new HttpError(405, "Method PATCH is not allowed");
    const { role } = validate(roleChangeSchema, await readJson(req));
    requireStepUp(me);
    const changed = await changeRole(db, id, role, me.sessionId).catch((error: unknown) => {
      throw lastAdmin(error);
    });
    if (!changed) throw new HttpError(404, "No such account");
    if (changed.previous !== role) {
      await audit(db, req, context, me, "role.change", {
        target: changed.username,
        detail: { from: changed.previous, to: role },
      });
      // The person hears of it at their own address, in their panel's language (none: no email).
      await notify(db, context, await noticeOwner(db, changed), "roleChanged", { role });
    }
    return json<UserAnswer>({ success: true, user: { id: changed.id, username: changed.username, role } });
  },
  DELETE: async (req, context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireAdmin(db, req);
    const id = accountId(req, context);
    if (id === undefined) throw new HttpError(405, "Method DELETE is not allowed");
    const removed = await removeUser(db, id).catch((error: unknown) => {
      throw lastAdmin(error);
    });
    if (!removed) throw new HttpError(404, "No such account");
    await audit(db, req, context, me, "account.remove", { target: removed.username, detail: { role: removed.role } });
    return json<MessageAnswer>({ success: true, message: "Account removed" });
  },
});

export const config: Config = { path: [ROUTES.admin.users, ROUTES.admin.account] };
