/**
 * The visitor's own meeting, reached with the signed link of their emails (`Authorization: Bearer`):
 *   GET  /api/meetings/manage          → { success, data: { reference, date, time, language, status } }
 *   POST /api/meetings/manage/move     { date, time } → the moved meeting and the token that now manages it
 *   POST /api/meetings/manage/cancel   → the cancelled meeting
 * A token names one meeting; a link from before the visitor's last change is 410 `linkReplaced`,
 * one past the meeting's start 410 `linkExpired`, anything else 403 `linkInvalid`. A move is
 * decided by the same unique index as a booking (409 `timeSlotOccupied`); the visitor gets an
 * updated invite (same UID, next SEQUENCE) and the company is told of every change. Changes are
 * limited per meeting and per address (429 `tooManyChanges`, src/shared/limits.ts) and counted
 * by the breaker. From the admin's cut-off
 * before the start (changeCutoffMinutes, exactly then still allowed) a move or a cancel is 409
 * `changesClosed`, and the meeting answers `changeable: false`; a move also keeps to the notice, the
 * buffers and the daily cap like a booking (409 `dailyLimitReached`). A move keeps the meeting's
 * consultant: when they are not free at the new time but someone else is, 409 `consultantBusy`.
 */
import type { Config } from "@netlify/functions";
import type { Kysely } from "kysely";
import { getDb } from "#db/client.ts";
import {
  cancelMeeting,
  lockMeeting,
  markReminded,
  moveMeeting,
  SlotTakenError,
  type MeetingRecord,
} from "#db/meetings.repository.ts";
import { readBookingRules } from "#db/booking-rules.repository.ts";
import type { Database } from "#db/types.ts";
import { now, officeRules } from "#server/office.ts";
import type { ManagedMeeting, ManagedMeetingAnswer, MovedMeetingAnswer } from "#shared/api/meetings.ts";
import { canChangeMeeting } from "#shared/booking.ts";
import type { BookingGuardrails, OfficeRules } from "#shared/office.ts";
import { meetingMoveSchema } from "#shared/schemas/meetings.ts";
import { isFree, notAvailable, readBookingDay, requireRoomOnDay, rulesOf } from "./_lib/booking/booking.ts";
import type { ConsultantDay } from "#db/consultants.repository.ts";
import { clientIp, HttpError, json, readJson, requireSameOrigin, route, routes, validate } from "./_lib/http/http.ts";
import { manageChangeDone, takeManageChange } from "./_lib/forms/limits.ts";
import { bearerToken, signManageToken, verifyManageToken } from "./_lib/booking/manage-token.ts";
import {
  afterCommitDelivery,
  enqueueCancellationEmails,
  enqueueMoveEmails,
  withinReminderWindow,
} from "./_lib/mail/outbox.ts";
import { ROUTES } from "#shared/routes.ts";

const managed = (m: MeetingRecord, guardrails: BookingGuardrails): ManagedMeeting => ({
  reference: `M-${String(m.id).padStart(5, "0")}`,
  date: m.date,
  time: m.time,
  language: m.language,
  status: m.cancelledAt ? "cancelled" : m.isConfirmed ? "confirmed" : "pending",
  changeable: !m.cancelledAt && canChangeMeeting(m.date, m.time, now(), { ...officeRules(), guardrails }),
  changeCutoffMinutes: guardrails.changeCutoffMinutes,
});

/** The admin's guardrails (with the cut-off), read in the request's transaction. */
const guardrailsOf = async (db: Kysely<Database>): Promise<BookingGuardrails> => {
  const { meetingPlace: _place, videoPattern: _pattern, ...guardrails } = await readBookingRules(db);
  return guardrails;
};

/** 409 changesClosed once the cut-off before the meeting has passed. */
const requireChangeable = (meeting: MeetingRecord, guardrails: BookingGuardrails) => {
  if (!canChangeMeeting(meeting.date, meeting.time, now(), { ...officeRules(), guardrails }))
    throw new HttpError(409, "changesClosed");
};

/**
 * The meeting the request's token names, locked for the rest of the transaction. A cancelled
 * meeting's links still show it (as cancelled); only a change the visitor made retires them.
 */
async function tokenMeeting(db: Kysely<Database>, req: Request): Promise<MeetingRecord> {
  const { meetingId, version } = await verifyManageToken(bearerToken(req));
  const meeting = await lockMeeting(db, meetingId);
  if (!meeting) throw new HttpError(403, "linkInvalid");
  if (meeting.cancelledAt) return meeting;
  if (meeting.manageVersion !== version) throw new HttpError(410, "linkReplaced");
  return meeting;
}

/**
 * The meeting's own consultant's rules, when they are free at the new slot (their hours, closures,
 * calendars, the notice; their other meetings are requireRoomOnDay's and the unique index's). A
 * move never goes to another consultant: when another one is free then but theirs is not (or has
 * left), 409 `consultantBusy`; when nobody could be booked then, 400 as for a booking.
 */
async function requireOwnConsultantFree(
  db: Kysely<Database>,
  meeting: MeetingRecord,
  slot: { date: string; time: string },
): Promise<{ rules: OfficeRules }> {
  const day = await readBookingDay(db, slot.date, { except: meeting.id, include: meeting.consultant });
  const own = day.consultants.find((c) => c.id === meeting.consultant);
  const freeAt = (c: ConsultantDay) => isFree(slot.date, slot.time, day.rules, { ...c, taken: [] });
  if (own?.active && freeAt(own)) return { rules: rulesOf(day.rules, own) };
  if (day.consultants.some((c) => c.active && c.id !== meeting.consultant && freeAt(c)))
    throw new HttpError(409, "consultantBusy");
  if (own && !own.active) throw new HttpError(409, "consultantBusy");
  throw notAvailable();
}

const notCancelled = (meeting: MeetingRecord) => {
  if (meeting.cancelledAt) throw new HttpError(409, "meetingCancelled");
};

export default routes({
  manage: route({
    GET: async (req) => {
      const db = getDb();
      const { meeting, guardrails } = await db
        .transaction()
        .execute(async (trx) => ({ meeting: await tokenMeeting(trx, req), guardrails: await guardrailsOf(trx) }));
      return json<ManagedMeetingAnswer>({ success: true, data: managed(meeting, guardrails) });
    },
  }),
  move: route({
    POST: async (req, context) => {
      requireSameOrigin(req);
      const slot = validate(meetingMoveSchema, await readJson(req));
      const db = getDb();
      const result = await db
        .transaction()
        .execute(async (trx) => {
          const meeting = await tokenMeeting(trx, req);
          notCancelled(meeting);
          const guardrails = await guardrailsOf(trx);
          requireChangeable(meeting, guardrails);
          if (meeting.date === slot.date && meeting.time === slot.time)
            throw new HttpError(400, "This is already the time of your meeting", {
              errors: { time: ["This is already the time of your meeting"] },
            });
          const own = await requireOwnConsultantFree(trx, meeting, slot);
          await requireRoomOnDay(trx, own.rules, slot, meeting.consultant, meeting.id);
          await takeManageChange(trx, { meetingId: meeting.id, ip: clientIp(req, context) });
          const moved = await moveMeeting(trx, meeting.id, { ...slot, consultantId: meeting.consultant }, meeting, {
            by: "visitor",
          });
          if (moved.isConfirmed && withinReminderWindow(moved, now())) await markReminded(trx, moved.id);
          return { moved, guardrails, emails: await enqueueMoveEmails(trx, moved, meeting) };
        })
        .catch((error: unknown) => {
          if (error instanceof SlotTakenError) throw new HttpError(409, "timeSlotOccupied");
          throw error;
        });
      await manageChangeDone(db);
      await afterCommitDelivery(db, result.emails, context);
      return json<MovedMeetingAnswer>({
        success: true,
        data: { ...managed(result.moved, result.guardrails), token: await signManageToken(result.moved) },
      });
    },
  }),
  cancel: route({
    POST: async (req, context) => {
      requireSameOrigin(req);
      const db = getDb();
      const result = await db.transaction().execute(async (trx) => {
        const meeting = await tokenMeeting(trx, req);
        notCancelled(meeting);
        const guardrails = await guardrailsOf(trx);
        requireChangeable(meeting, guardrails);
        await takeManageChange(trx, { meetingId: meeting.id, ip: clientIp(req, context) });
        const cancelled = await cancelMeeting(trx, meeting.id, "visitor");
        return { cancelled, guardrails, emails: await enqueueCancellationEmails(trx, cancelled) };
      });
      await manageChangeDone(db);
      await afterCommitDelivery(db, result.emails, context);
      return json<ManagedMeetingAnswer>({ success: true, data: managed(result.cancelled, result.guardrails) });
    },
  }),
});

export const config: Config = {
  path: [ROUTES.meetings.manage, ROUTES.meetings.manageMove, ROUTES.meetings.manageCancel],
};
