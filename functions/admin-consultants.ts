/**
 * GET /api/admin/consultants: every consultant with their team member's name and languages
 * (src/data/team.json; under `npm start` a member the content editor added counts at once), whether they take new meetings, and which one is the signed-in account
 * (the Meetings page opens on their meetings). POST { consultant, userId } makes an account the
 * consultant of a team member (404 no such team member or account, 409 either is one already),
 * audited as a settings change. PATCH /api/admin/consultants/{id} { active?, hours? } lets them take
 * new meetings or stop (their meetings stay theirs) and sets their own weekly hours (null: the
 * office's again), audited the same way. Admin only.
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { addConsultant, listConsultants, updateConsultant } from "#db/consultants.repository.ts";
import { isUniqueViolation } from "#db/errors.ts";
import { findUserById } from "#db/users.repository.ts";
import { consultantChangeSchema, consultantLinkSchema } from "#shared/schemas/consultants.ts";
import { CONSULTANT_ID } from "#shared/consultants.ts";
import { audit } from "./_lib/auth/audit.ts";
import type { AdminConsultant, ConsultantChangeAnswer } from "#shared/api/consultants.ts";
import type { OpeningHours } from "#shared/office.ts";
import { LANGUAGES } from "#shared/languages.ts";
import { ROUTES } from "#shared/routes.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { consultantName } from "./_lib/booking/consultant-names.ts";
import { publicConsultant } from "./_lib/booking/booking.ts";
import { teamNow } from "./_lib/booking/team.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";

/** The consultant a path names (/api/admin/consultants/{id}); undefined for the list. */
function pathId(req: Request, context: Context | undefined): string | undefined {
  const raw = context?.params?.id ?? new URL(req.url).pathname.split("/").filter(Boolean)[3];
  if (raw === undefined) return undefined;
  if (raw.length > 64 || !CONSULTANT_ID.test(raw)) throw new HttpError(404, "Not found");
  return raw;
}

const refuse = (allow: string) => new HttpError(405, "Method not allowed", {}, { Allow: allow });

export default route({
  PATCH: async (req, context) => {
    const id = pathId(req, context);
    if (id === undefined) throw refuse("GET, POST");
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const { active, hours: given } = validate(consultantChangeSchema, await readJson(req));
    const hours =
      given && ([...given].sort((a, b) => a.weekday - b.weekday || (a.opens < b.opens ? -1 : 1)) as OpeningHours[]);
    if (!(await updateConsultant(db, id, { active, hours }))) throw new HttpError(404, "No such consultant");
    const change: ConsultantChangeAnswer = { consultant: id, active, hours };
    await audit(db, req, context, admin, "settings.change", { target: id, detail: { ...change } });
    return json(change);
  },
  GET: async (req, context) => {
    if (pathId(req, context) !== undefined) throw refuse("PATCH");
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const consultants = await listConsultants(db);
    return json<AdminConsultant[]>(
      consultants.map((c) => ({
        id: c.id,
        name: Object.fromEntries(
          LANGUAGES.map((lang) => [lang, consultantName(c.id, lang)]),
        ) as AdminConsultant["name"],
        languages: publicConsultant(c.id).languages,
        active: c.active,
        mine: c.userId === admin.id,
        userId: c.userId,
        hours: c.hours,
      })),
    );
  },
  POST: async (req, context) => {
    if (pathId(req, context) !== undefined) throw refuse("PATCH");
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const body = validate(consultantLinkSchema, await readJson(req));
    if (!teamNow().some((member) => member.id === body.consultant)) throw new HttpError(404, "No such team member");
    if (!(await findUserById(db, body.userId))) throw new HttpError(404, "No such account");
    await addConsultant(db, { id: body.consultant, userId: body.userId }).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new HttpError(409, "This team member or account is a consultant already");
      throw error;
    });
    await audit(db, req, context, admin, "settings.change", {
      target: body.consultant,
      detail: { consultant: body.consultant, userId: body.userId },
    });
    return json({ consultant: body.consultant, userId: body.userId }, 201);
  },
});

export const config: Config = { path: [ROUTES.admin.consultants, ROUTES.admin.consultant] };
