/**
 * GET /api/admin/meetings, PATCH /api/admin/meetings/{id} { isConfirmed }. Admin only.
 * Confirming a meeting, or setting it back to pending, queues the visitor's email with the updated
 * calendar invite in the same transaction as the change.
 */
import type { Config } from "@netlify/functions";
import { getMeeting, listMeetings, setConfirmed } from "../db/meetings.repository.ts";
import { meetingPatchSchema } from "../src/shared/schemas.ts";
import { adminResource } from "./_lib/admin-resource.ts";
import { parseMeetingFilters } from "../src/shared/admin-lists.ts";
import { afterCommitDelivery, enqueueMeetingStatusEmail } from "./_lib/mail/outbox.ts";

export default adminResource({
  list: (db, page, filters) => listMeetings(db, page, filters),
  parseFilters: parseMeetingFilters,
  patchSchema: meetingPatchSchema,
  update: async (db, id, patch) => {
    const emails = await db.transaction().execute(async (trx) => {
      const result = await setConfirmed(trx, id, patch.isConfirmed);
      if (!result) return undefined;
      return result.changed ? enqueueMeetingStatusEmail(trx, result.meeting) : [];
    });
    if (!emails) return undefined;
    await afterCommitDelivery(db, emails);
    return getMeeting(db, id);
  },
  notFound: "Meeting not found",
});

export const config: Config = { path: ["/api/admin/meetings", "/api/admin/meetings/:id"] };
