/**
 * GET /api/admin/meetings, PATCH /api/admin/meetings/{id} { isConfirmed },
 * POST /api/admin/meetings/{id}/cancel, POST /api/admin/meetings/{id}/outcome { outcome }, and staff's
 * hand-over and move (functions/_lib/booking/staff-changes.ts). Admin only.
 * An outcome (done, no-show, or null to clear it) is for a meeting that has started: a future or
 * cancelled one answers 409; the dashboard counts them.
 * Confirming a meeting, setting it back to pending or cancelling it queues the visitor's email with
 * the updated calendar invite in the same transaction as the change. A cancelled meeting frees its
 * slot at once; it cannot be confirmed again (409).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import {
  cancelMeeting,
  getMeeting,
  listMeetings,
  lockMeeting,
  markReminded,
  MeetingCancelledError,
  OutcomeTooEarlyError,
  setConfirmed,
  setMeetingOutcome,
} from "#db/meetings.repository.ts";
import { now } from "#server/office.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import { officeNow } from "#shared/dates.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { parseMeetingFilters } from "#shared/admin-lists.ts";
import { meetingOutcomeSchema, meetingPatchSchema } from "#shared/schemas/meetings.ts";
import { adminResource } from "./_lib/http/admin-resource.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import {
  afterCommitDelivery,
  enqueueCancellationEmails,
  enqueueMeetingStatusEmail,
  withinReminderWindow,
} from "./_lib/mail/outbox.ts";
import { ROUTES } from "#shared/routes.ts";
import { handOver, staffMove } from "./_lib/booking/staff-changes.ts";

const NOT_FOUND = "Meeting not found";
const ALREADY_CANCELLED = "The meeting is already cancelled";

const resource = adminResource({
  list: (db, page, filters) => listMeetings(db, page, filters),
  parseFilters: parseMeetingFilters,
  patchSchema: meetingPatchSchema,
  update: async (db, id, patch) => {
    const emails = await db
      .transaction()
      .execute(async (trx) => {
        const result = await setConfirmed(trx, id, patch.isConfirmed);
        if (!result) return undefined;
        if (!result.changed) return [];
        if (result.meeting.isConfirmed && withinReminderWindow(result.meeting, now())) await markReminded(trx, id);
        return enqueueMeetingStatusEmail(trx, result.meeting);
      })
      .catch((error: unknown) => {
        if (error instanceof MeetingCancelledError)
          throw new HttpError(409, "A cancelled meeting cannot be confirmed or set to pending");
        throw error;
      });
    if (!emails) return undefined;
    await afterCommitDelivery(db, emails);
    return getMeeting(db, id);
  },
  notFound: NOT_FOUND,
  auditAction: "meeting.status",
});

const cancel = route({
  POST: async (req, context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const raw = context?.params?.id ?? new URL(req.url).pathname.split("/").at(-2) ?? "";
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    const emails = await db.transaction().execute(async (trx) => {
      const meeting = await lockMeeting(trx, id);
      if (!meeting) throw new HttpError(404, NOT_FOUND);
      if (meeting.cancelledAt) throw new HttpError(409, ALREADY_CANCELLED);
      const office = officeNow(now(), OFFICE_TIME_ZONE);
      if (`${meeting.date} ${meeting.time}` <= `${office.date} ${office.time}`)
        throw new HttpError(409, "The meeting has already taken place");
      return enqueueCancellationEmails(trx, await cancelMeeting(trx, id, "admin"));
    });
    await audit(db, req, context, admin, "meeting.status", { target: String(id), detail: { cancelled: true } });
    await afterCommitDelivery(db, emails, context);
    return json<AdminMeeting>((await getMeeting(db, id))!);
  },
});

const outcome = route({
  POST: async (req, context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const raw = context?.params?.id ?? new URL(req.url).pathname.split("/").at(-2) ?? "";
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    const body = validate(meetingOutcomeSchema, await readJson(req));
    const meeting = await setMeetingOutcome(db, id, body.outcome, admin.username, now()).catch((error: unknown) => {
      if (error instanceof OutcomeTooEarlyError) throw new HttpError(409, "The meeting has not taken place yet");
      if (error instanceof MeetingCancelledError) throw new HttpError(409, "A cancelled meeting has no outcome");
      throw error;
    });
    if (!meeting) throw new HttpError(404, NOT_FOUND);
    await audit(db, req, context, admin, "meeting.status", { target: String(id), detail: { outcome: body.outcome } });
    return json<AdminMeeting>(meeting);
  },
});

export default (req: Request, context: Context) => {
  const path = new URL(req.url).pathname;
  if (/\/cancel\/?$/.test(path)) return cancel(req, context);
  if (/\/outcome\/?$/.test(path)) return outcome(req, context);
  if (/\/consultant\/?$/.test(path)) return handOver(req, context);
  if (/\/move\/?$/.test(path)) return staffMove(req, context);
  return resource(req, context);
};

export const config: Config = {
  path: [
    ROUTES.admin.meetings,
    ROUTES.admin.meeting,
    ROUTES.admin.meetingCancel,
    ROUTES.admin.meetingOutcome,
    ROUTES.admin.meetingConsultant,
    ROUTES.admin.meetingMove,
  ],
};
