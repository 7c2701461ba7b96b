/**
 * The admin's privacy tools for one email address, admin only, same origin:
 * - POST /api/admin/privacy/export { email } → everything held about it, as a JSON download;
 * - POST /api/admin/privacy/erase { email } → erases it (db/privacy.repository.ts) and says how many
 *   records of each kind changed. Erasing an address nothing is held about is not an error (all 0).
 * The address travels in the body, not the URL, so it is not written to access logs.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { erasePersonalData, exportPersonalData } from "#db/privacy.repository.ts";
import { now } from "#server/office.ts";
import type { ErasureAnswer, PersonalDataExport } from "#shared/api/privacy.ts";
import { personalDataRequestSchema } from "#shared/schemas/privacy.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { json, readJson, requireSameOrigin, route, routes, validate } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

/** Admin, same origin, and a valid address: what both tools need first. */
async function addressOf(req: Request): Promise<string> {
  requireSameOrigin(req);
  await requireAdmin(getDb(), req);
  return validate(personalDataRequestSchema, await readJson(req)).email;
}

export default routes({
  export: route({
    POST: async (req) => {
      const email = await addressOf(req);
      const at = now();
      const data = await exportPersonalData(getDb(), email, at);
      return json<PersonalDataExport>(data, 200, {
        "Content-Disposition": `attachment; filename="personal-data-${at.toISOString().slice(0, 10)}.json"`,
      });
    },
  }),
  erase: route({
    POST: async (req) => {
      const email = await addressOf(req);
      const erased = await erasePersonalData(getDb(), email);
      console.log(
        `[privacy] erasure: ${Object.entries(erased)
          .map(([what, n]) => `${what} ${n}`)
          .join(", ")}`,
      );
      return json<ErasureAnswer>({ success: true, erased });
    },
  }),
});

export const config: Config = { path: [ROUTES.admin.privacyExport, ROUTES.admin.privacyErase] };
