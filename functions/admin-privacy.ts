/**
 * The admin's privacy tools for one email address, admin only, same origin:
 * - POST /api/admin/privacy/export { email } → everything held about it, as a JSON download;
 * - POST /api/admin/privacy/erase { email } → erases it (db/privacy.repository.ts) and says how many
 *   records of each kind changed. Erasing an address nothing is held about is not an error (all 0).
 *   An erasure scrubs a visitor's data: when the address is also a staff account's username, the
 *   audit record keeps naming that account (its trail goes only with the account's removal).
 * The address travels in the body, not the URL, so it is not written to access logs.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { erasePersonalData, exportPersonalData } from "#db/privacy.repository.ts";
import { now } from "#server/office.ts";
import type { ErasureAnswer, PersonalDataExport } from "#shared/api/privacy.ts";
import { personalDataRequestSchema } from "#shared/schemas/privacy.ts";
import { scrubAuditSubject } from "#db/audit.repository.ts";
import { findUserByUsername } from "#db/users.repository.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin, type SessionUser } from "./_lib/auth/auth.ts";
import { json, readJson, requireSameOrigin, route, routes, validate } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

/** Admin, same origin, and a valid address: what both tools need first. */
async function addressOf(req: Request): Promise<{ admin: SessionUser; email: string }> {
  requireSameOrigin(req);
  const admin = await requireAdmin(getDb(), req);
  return { admin, email: validate(personalDataRequestSchema, await readJson(req)).email };
}

export default routes({
  export: route({
    POST: async (req, context) => {
      const { admin, email } = await addressOf(req);
      const at = now();
      const data = await exportPersonalData(getDb(), email, at);
      await audit(getDb(), req, context, admin, "privacy.export", { subject: email });
      return json<PersonalDataExport>(data, 200, {
        "Content-Disposition": `attachment; filename="personal-data-${at.toISOString().slice(0, 10)}.json"`,
      });
    },
  }),
  erase: route({
    POST: async (req, context) => {
      const { admin, email } = await addressOf(req);
      const erased = await erasePersonalData(getDb(), email);
      // The record keeps that an erasure happened and what it changed, not whose it was; a staff
      // account's own entries stay attributable to it.
      const staff = await findUserByUsername(getDb(), email);
      const entries = staff ? 0 : await scrubAuditSubject(getDb(), email);
      await audit(getDb(), req, context, admin, "privacy.erase", { detail: { ...erased, auditEntries: entries } });
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
