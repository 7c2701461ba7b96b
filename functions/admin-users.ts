/**
 * GET /api/admin/users → the accounts with their roles; POST /api/admin/users { username, role } →
 * 201 { user, password }: a new admin or editor with a random password that this answer shows once,
 * for the inviting admin to hand over (never mailed in clear); 409 when the name is taken. Admin only.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { inviteUser } from "#db/admins.ts";
import { listUsers } from "#db/users.repository.ts";
import type { CurrentUser, InvitedUser } from "#shared/api/people.ts";
import { inviteSchema } from "#shared/schemas/people.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

export default route({
  GET: async (req) => {
    const db = getDb();
    await requireAdmin(db, req);
    return json<CurrentUser[]>(await listUsers(db));
  },
  POST: async (req) => {
    requireSameOrigin(req);
    const db = getDb();
    await requireAdmin(db, req);
    const { username, role } = validate(inviteSchema, await readJson(req));
    const invited = await inviteUser(db, username, role);
    if (!invited) throw new HttpError(409, `The username ${username} is taken`);
    return json<InvitedUser>(invited, 201);
  },
});

export const config: Config = { path: ROUTES.admin.users };
