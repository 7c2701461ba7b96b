/**
 * The signed-in person's own sessions (admins and editors):
 * - GET /api/account/sessions → { sessions } (device, browser, place, last seen; the asking one `current`);
 * - DELETE /api/account/sessions/:id → ends one of them, taking effect on its next request (401).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { endSession, listSessions } from "#db/sessions.repository.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import type { SessionsAnswer } from "#shared/api/security.ts";
import { ROUTES } from "#shared/routes.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireEditor } from "./_lib/auth/auth.ts";
import { HttpError, json, requireSameOrigin, route } from "./_lib/http/http.ts";
import { pathId, sessionInfos } from "./_lib/auth/sessions-answer.ts";

export default route({
  GET: async (req, context) => {
    if (pathId(req, context, ROUTES.account.sessions) !== undefined)
      throw new HttpError(405, "Method GET is not allowed");
    const db = getDb();
    const me = await requireEditor(db, req);
    return json<SessionsAnswer>({ success: true, sessions: sessionInfos(await listSessions(db, me.id), me.sessionId) });
  },
  DELETE: async (req: Request, context: Context) => {
    requireSameOrigin(req);
    const db = getDb();
    const me = await requireEditor(db, req);
    const id = pathId(req, context, ROUTES.account.sessions);
    if (id === undefined) throw new HttpError(405, "Method DELETE is not allowed");
    if ((await endSession(db, id, me.id)) === undefined) throw new HttpError(404, "No such session");
    await audit(db, req, context, me, "session.end", { target: me.username, detail: { own: true } });
    return json<MessageAnswer>({ success: true, message: "Session ended" });
  },
});

export const config: Config = { path: [ROUTES.account.sessions, ROUTES.account.session] };
