/** GET /api/admin/submissions, PATCH /api/admin/submissions/{id} { isProcessed }. Admin only. */
import type { Config } from "@netlify/functions";
import { listSubmissions, setProcessed } from "../db/contact.repository.ts";
import { submissionPatchSchema } from "../src/shared/schemas.ts";
import { adminResource } from "./_lib/admin-resource.ts";

export default adminResource({
  list: listSubmissions,
  patchSchema: submissionPatchSchema,
  update: (db, id, patch) => setProcessed(db, id, patch.isProcessed),
  notFound: "Submission not found",
});

export const config: Config = { path: ["/api/admin/submissions", "/api/admin/submissions/:id"] };
