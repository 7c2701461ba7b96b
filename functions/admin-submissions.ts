/**
 * The visitors' enquiries, the leads of the lead desk, admin only: GET /api/admin/submissions (the
 * list, filtered by src/shared/admin-lists.ts), PATCH /api/admin/submissions/{id} (stage, owner,
 * follow-up date, based on a version: 409 leadChanged when another admin changed it first),
 * DELETE /api/admin/submissions/{id} (spam: the enquiry and its emails, for good).
 * The URL keeps its published name (docs/api.md).
 */
import type { Config } from "@netlify/functions";
import { deleteEnquiry, listEnquiries } from "#db/enquiries.repository.ts";
import { changeLead, LeadChangeError } from "#db/leads.repository.ts";
import { leadPatchSchema } from "#shared/schemas/enquiries.ts";
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import { enquiryReference } from "#shared/leads.ts";
import { leadListContext } from "./_lib/lead-lists.ts";
import { audit } from "./_lib/auth/audit.ts";
import { adminResource } from "./_lib/http/admin-resource.ts";
import { HttpError, json } from "./_lib/http/http.ts";
import { parseEnquiryFilters } from "#shared/admin-lists.ts";
import { ROUTES } from "#shared/routes.ts";

/** What the audit record calls each kind of change. */
const ACTIONS = { stage: "lead.status", owner: "lead.owner", follow_up: "lead.follow-up" } as const;

export default adminResource({
  list: async (db, page, filters, admin) => listEnquiries(db, page, filters, await leadListContext(db, admin, filters)),
  parseFilters: parseEnquiryFilters,
  patchSchema: leadPatchSchema,
  change: async (db, id, patch, { req, context, admin }) => {
    let result;
    try {
      result = await changeLead(db, id, patch, admin);
    } catch (error) {
      if (error instanceof LeadChangeError)
        throw new HttpError(400, error.message, { errors: { [error.field]: [error.message] } });
      throw error;
    }
    if (result.outcome === "missing") throw new HttpError(404, "Enquiry not found");
    if (result.outcome === "conflict") {
      const by = result.by ? ` by ${result.by}` : "";
      throw new HttpError(409, `This lead was changed${by} meanwhile: reload it`, {
        code: "leadChanged",
        current: result.lead,
        by: result.by,
      });
    }
    const reference = enquiryReference(id);
    for (const change of result.changes) {
      await audit(db, req, context, admin, ACTIONS[change.kind], {
        target: String(id),
        detail: {
          reference,
          from: change.from,
          to: change.to,
          ...(change.kind === "owner" && { fromName: change.fromName, toName: change.toName }),
          ...(change.kind === "stage" && change.to === "lost" && { lostReasonId: patch.lostReasonId }),
          ...(change.kind === "stage" &&
            change.to === "client" && {
              clientService: patch.clientService,
              clientValueCents: patch.clientValueCents ?? null,
            }),
        },
      });
    }
    return json<AdminEnquiry>(result.lead);
  },
  remove: deleteEnquiry,
  notFound: "Enquiry not found",
  auditAction: "lead.status",
});

export const config: Config = { path: [ROUTES.admin.enquiries, ROUTES.admin.enquiry] };
