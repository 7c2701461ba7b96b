/** GET /api/admin/meetings, PATCH /api/admin/meetings/{id} { isConfirmed }. Admin only. */
import type { Config } from "@netlify/functions";
import { listMeetings, setConfirmed } from "../db/meetings.repository.ts";
import { meetingPatchSchema } from "../src/shared/schemas.ts";
import { adminResource } from "./_lib/admin-resource.ts";

export default adminResource({
  list: listMeetings,
  patchSchema: meetingPatchSchema,
  update: (db, id, patch) => setConfirmed(db, id, patch.isConfirmed),
  notFound: "Meeting not found",
});

export const config: Config = { path: ["/api/admin/meetings", "/api/admin/meetings/:id"] };
