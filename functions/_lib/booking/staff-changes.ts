/**
 * Staff changing a meeting for the visitor (functions/admin-meetings.ts):
 *   POST /api/admin/meetings/{id}/consultant { consultant, was } hands it to a colleague free then;
 *   POST /api/admin/meetings/{id}/move { date, time, was } moves it, keeping its consultant.
 * Both lock the meeting, refuse it when another admin changed it since the panel showed it (409
 * `meetingChanged`), keep to the consultant's booking rules (hours, closures, calendars, notice,
 * buffers, daily cap) and leave the slot itself to the unique index (409 `timeSlotOccupied`). The
 * visitor is emailed the updated invite (same UID, next SEQUENCE) with a fresh manage link, the
 * consultants are told, and the change is audited under the meeting's reference.
 */
import type { Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import { getDb } from "#db/client.ts";
import {
  getMeeting,
  lockMeeting,
  markReminded,
  moveMeeting,
  SlotTakenError,
  type MeetingRecord,
} from "#db/meetings.repository.ts";
import type { Database } from "#db/types.ts";
import { now } from "#server/office.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import { takesMeeting } from "#shared/consultants.ts";
import { officeNow } from "#shared/dates.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { meetingHandOverSchema, staffMoveSchema, type MeetingState } from "#shared/schemas/meeting-staff.ts";
import { audit } from "../auth/audit.ts";
import { requireAdmin, type SessionUser } from "../auth/auth.ts";
import { HttpError, json, readJson, requireSameOrigin, route, validate } from "../http/http.ts";
import { afterCommitDelivery, enqueueStaffChangeEmails, withinReminderWindow } from "../mail/outbox.ts";
import { consultantNotFound, isFree, profileOf, readBookingDay, requireRoomOnDay, rulesOf } from "./booking.ts";
import { consultantName } from "./consultant-names.ts";

const meetingId = (req: Request, context: Context | undefined): number => {
  const raw = context?.params?.id ?? new URL(req.url).pathname.split("/").at(-2) ?? "";
  return /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
};

/** The meeting, locked, when it still stands, has not begun and is as the admin saw it. */
async function lockedAsSeen(db: Kysely<Database>, id: number, was: MeetingState): Promise<MeetingRecord> {
  const meeting = await lockMeeting(db, id);
  if (!meeting) throw new HttpError(404, "Meeting not found");
  if (meeting.cancelledAt) throw new HttpError(409, "meetingCancelled");
  const office = officeNow(now(), OFFICE_TIME_ZONE);
  if (`${meeting.date} ${meeting.time}` <= `${office.date} ${office.time}`)
    throw new HttpError(409, "The meeting has already taken place");
  if (meeting.date !== was.date || meeting.time !== was.time || meeting.consultant !== was.consultant)
    throw new HttpError(409, "meetingChanged");
  return meeting;
}

/**
 * Moves meeting `meeting` to `slot` with consultant `consultantId` when they can take it (the
 * meeting's changes keep that `admin` did): 404 when there is no such consultant, 409
 * `consultantInactive` when they have left, `consultantLanguage` when they do not speak the
 * visitor's language, `consultantBusy` when their hours, closures, calendars or the notice rule the
 * time out; the day's buffers and cap as for a booking.
 */
async function reschedule(
  db: Kysely<Database>,
  meeting: MeetingRecord,
  slot: { date: string; time: string; consultantId: string },
  admin: SessionUser,
): Promise<MeetingRecord> {
  const day = await readBookingDay(db, slot.date, { except: meeting.id, include: slot.consultantId });
  const consultant = day.consultants.find((c) => c.id === slot.consultantId);
  if (!consultant) throw consultantNotFound();
  if (!consultant.active) throw new HttpError(409, "consultantInactive");
  if (!takesMeeting(profileOf(consultant.id), { language: meeting.language }))
    throw new HttpError(409, "consultantLanguage");
  if (!isFree(slot.date, slot.time, day.rules, { ...consultant, taken: [] }))
    throw new HttpError(409, "consultantBusy");
  await requireRoomOnDay(db, rulesOf(day.rules, consultant), slot, consultant.id, meeting.id);
  const moved = await moveMeeting(db, meeting.id, slot, meeting, {
    by: "admin",
    userId: admin.id,
    username: admin.username,
  });
  if (moved.isConfirmed && withinReminderWindow(moved, now())) await markReminded(db, moved.id);
  return moved;
}

const taken = (error: unknown) => {
  if (error instanceof SlotTakenError) throw new HttpError(409, "timeSlotOccupied");
  throw error;
};

/** POST /api/admin/meetings/{id}/consultant: hand the meeting to `consultant`, at the same time. */
export const handOver = route({
  POST: async (req, context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const id = meetingId(req, context);
    const body = validate(meetingHandOverSchema, await readJson(req));
    const emails = await db
      .transaction()
      .execute(async (trx) => {
        const meeting = await lockedAsSeen(trx, id, body.was);
        if (meeting.consultant === body.consultant)
          throw new HttpError(400, "The meeting is already with this consultant", {
            errors: { consultant: ["The meeting is already with this consultant"] },
          });
        const moved = await reschedule(trx, meeting, { ...meeting, consultantId: body.consultant }, admin);
        return enqueueStaffChangeEmails(trx, moved, { kind: "handedTo", by: admin.username, from: meeting.consultant });
      })
      .catch(taken);
    await audit(db, req, context, admin, "meeting.status", {
      target: String(id),
      detail: {
        consultant: { from: consultantName(body.was.consultant, "en"), to: consultantName(body.consultant, "en") },
      },
    });
    await afterCommitDelivery(db, emails, context);
    return json<AdminMeeting>((await getMeeting(db, id))!);
  },
});

/** POST /api/admin/meetings/{id}/move: move the meeting to another time of its consultant. */
export const staffMove = route({
  POST: async (req, context) => {
    requireSameOrigin(req);
    const db = getDb();
    const admin = await requireAdmin(db, req);
    const id = meetingId(req, context);
    const body = validate(staffMoveSchema, await readJson(req));
    const emails = await db
      .transaction()
      .execute(async (trx) => {
        const meeting = await lockedAsSeen(trx, id, body.was);
        if (meeting.date === body.date && meeting.time === body.time)
          throw new HttpError(400, "This is already the time of the meeting", {
            errors: { time: ["This is already the time of the meeting"] },
          });
        const slot = { date: body.date, time: body.time, consultantId: meeting.consultant };
        const moved = await reschedule(trx, meeting, slot, admin);
        return enqueueStaffChangeEmails(trx, moved, { kind: "moved", by: admin.username, was: meeting });
      })
      .catch(taken);
    await audit(db, req, context, admin, "meeting.status", {
      target: String(id),
      detail: { moved: { from: `${body.was.date} ${body.was.time}`, to: `${body.date} ${body.time}` } },
    });
    await afterCommitDelivery(db, emails, context);
    return json<AdminMeeting>((await getMeeting(db, id))!);
  },
});
