/**
 * Everyone's sessions, admin only:
 * - GET /api/admin/sessions → { sessions } of every account;
 * - DELETE /api/admin/sessions/:id → ends anyone's session, taking effect on its next request (401).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { endSession, listSessions } from "#db/sessions.repository.ts";
import { findUserById } from "#db/users.repository.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import type { SessionsAnswer } from "#shared/api/security.ts";
import { ROUTES } from "#shared/routes.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, requireSameOrigin, route } from "./_lib/http/http.ts";
import { pathId, sessionInfos } from "./_lib/auth/sessions-answer.ts";

export default route({
  GET: async (req, context) => {
    if (pathId(req, context, ROUTES.admin.sessions) !== undefined)
      throw new HttpError(405, "Method GET is not allowed");
    const db = getDb();
    const me = await requireAdmin(db, req);
    return json<SessionsAnswer>({ success: true, sessions: sessionInfos(await listSessions(db), me.sessionId) });
  },
  DELETE: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireAdmin(db, req);
    const id = pathId(req, context, ROUTES.admin.sessions);
    if (id === undefined) throw new HttpError(405, "Method DELETE is not allowed");
    const owner = await endSession(db, id);
    if (owner === undefined) throw new HttpError(404, "No such session");
    const user = await findUserById(db, owner);
    await audit(db, req, context, me, "session.end", { target: user?.username ?? String(owner) });
    return json<MessageAnswer>({ success: true, message: "Session ended" });
  },
});

export const config: Config = { path: [ROUTES.admin.sessions, ROUTES.admin.session] };
