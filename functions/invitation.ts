/**
 * The invitation link's page (public: the link's token is the only key):
 * - POST /api/invitation { token } → whose invitation it is, in which language, until when;
 * - POST /api/invitation/accept { token, password } → the invitee's own password is set and the link
 *   spent; they then sign in as everyone does (and set up a second factor if the office requires it).
 * A token that names nothing is 404 (invitationUnknown); a used or expired one 410 (invitationUsed,
 * invitationExpired): never a 5xx. The password follows the same rules as a password change.
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { hashPassword } from "#db/admins.ts";
import { acceptInvitation, findInvitation, type InvitationRow } from "#db/invitations.repository.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import type { InvitationAnswer } from "#shared/api/people.ts";
import { ROUTES } from "#shared/routes.ts";
import { invitationAcceptSchema, invitationSchema } from "#shared/schemas/invitations.ts";
import { audit } from "./_lib/auth/audit.ts";
import { invitationTokenHash } from "./_lib/auth/invitations.ts";
import { HttpError, json, readJson, requireSameOrigin, route, routes, validate } from "./_lib/http/http.ts";

const REFUSALS = {
  unknown: [404, "This invitation link is not valid. Ask an admin for a new one.", "invitationUnknown"],
  used: [410, "This invitation link was already used. Sign in with the password you chose.", "invitationUsed"],
  expired: [410, "This invitation link has expired. Ask an admin for a new one.", "invitationExpired"],
} as const;

const refusal = (why: keyof typeof REFUSALS) => {
  const [status, message, code] = REFUSALS[why];
  return new HttpError(status, message, { code });
};

/** The invitation a live token names, or its refusal. */
function live(row: InvitationRow | undefined, now: number): InvitationRow {
  if (!row) throw refusal("unknown");
  if (row.usedAt) throw refusal("used");
  if (row.expiresAt.getTime() <= now) throw refusal("expired");
  return row;
}

const status = route({
  POST: async (req: Request) => {
    requireSameOrigin(req);
    const { token } = validate(invitationSchema, await readJson(req));
    const row = live(await findInvitation(getDb(), invitationTokenHash(token)), Date.now());
    return json<InvitationAnswer>({
      success: true,
      username: row.username,
      language: row.language,
      expiresAt: row.expiresAt.toISOString(),
    });
  },
});

const accept = route({
  POST: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const { token, password } = validate(invitationAcceptSchema, await readJson(req));
    const db = getDb();
    const hash = invitationTokenHash(token);
    // Checked before bcrypt runs, so a forged token costs no hashing.
    live(await findInvitation(db, hash), Date.now());
    const outcome = await acceptInvitation(db, hash, await hashPassword(password), new Date());
    if (typeof outcome === "string") throw refusal(outcome);
    const invitee = { id: outcome.userId, username: outcome.username };
    await audit(db, req, context, invitee, "invite.accept", { target: invitee.username });
    return json<MessageAnswer>({ success: true, message: "Password set: sign in with it now" });
  },
});

export default routes({ invitation: status, accept });

export const config: Config = { path: [ROUTES.invitation, ROUTES.invitationAccept] };
