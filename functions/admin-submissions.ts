/**
 * The visitors' enquiries, admin only: GET /api/admin/submissions, PATCH /api/admin/submissions/{id}
 * { isProcessed }, DELETE /api/admin/submissions/{id} (spam: the enquiry and its emails, for good).
 * The URL keeps its published name (docs/api.md).
 */
import type { Config } from "@netlify/functions";
import { deleteEnquiry, listEnquiries, setEnquiryProcessed } from "#db/enquiries.repository.ts";
import { enquiryPatchSchema } from "#shared/schemas/enquiries.ts";
import { adminResource } from "./_lib/http/admin-resource.ts";
import { parseEnquiryFilters } from "#shared/admin-lists.ts";
import { ROUTES } from "#shared/routes.ts";

export default adminResource({
  list: listEnquiries,
  parseFilters: parseEnquiryFilters,
  patchSchema: enquiryPatchSchema,
  update: (db, id, patch) => setEnquiryProcessed(db, id, patch.isProcessed),
  remove: deleteEnquiry,
  notFound: "Enquiry not found",
});

export const config: Config = { path: [ROUTES.admin.enquiries, ROUTES.admin.enquiry] };
