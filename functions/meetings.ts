/**
 * Meeting booking:
 *   GET  /api/meetings/calendar                  → the booking rules the date picker needs, in one answer
 *   GET  /api/meetings/available-slots?date=…    → { success, data: ["09:00", …] } (with a manage token:
 *                                                  as for moving that meeting, its own time left out)
 *   POST /api/meetings/schedule                  → 201 { success, data: meeting } | 409 timeSlotOccupied | 409 dailyLimitReached
 * A booking queues the company's notification and the visitor's acknowledgement (with a tentative
 * calendar invite) in the transaction that stores it; they are sent right after, or retried later.
 * All three read the office rules the admin edits from the database, each in one statement (the
 * slots answer together with the day's bookings), so an edit shows on every instance at once.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { readAvailability, slotsContext } from "#db/availability.repository.ts";
import { fullDates } from "#db/booking-rules.repository.ts";
import { createMeeting, publicMeeting, SlotTakenError } from "#db/meetings.repository.ts";
import type { CalendarAnswer, SlotsAnswer } from "#shared/api/availability.ts";
import type { MeetingScheduledAnswer } from "#shared/api/meetings.ts";
import { addDays, availableSlots, earliestStart, officeDaySpan, officeNow } from "#shared/booking.ts";
import { closedDatesBetween, OFFICE_TIME_ZONE, workingWeekdays } from "#shared/office.ts";
import { meetingSchema, slotsQuerySchema } from "#shared/schemas/meetings.ts";
import { calendarStaleBefore } from "#server/config.ts";
import { now, officeRules } from "#server/office.ts";
import { newMeetingLocation, requireBookable, requireRoomOnDay } from "./_lib/booking/booking.ts";
import { leadSource } from "./_lib/sources.ts";
import { bearerToken, verifyManageToken } from "./_lib/booking/manage-token.ts";
import { guardJson, tokenRefused } from "./_lib/forms/form-guard.ts";
import {
  clientIp,
  HttpError,
  json,
  readJson,
  requestUrl,
  requireSameOrigin,
  route,
  routes,
  validate,
} from "./_lib/http/http.ts";
import { assertRoomForBooking, bookingVerdict } from "./_lib/forms/limits.ts";
import { submissionLanguage } from "./_lib/http/language.ts";
import { afterCommitDelivery, enqueueBookingEmails } from "./_lib/mail/outbox.ts";
import { ROUTES } from "#shared/routes.ts";

/**
 * The meeting a visitor is moving, when the slots request carries its manage link's token: its own
 * time and buffers must not keep it from the slots next to it (the move leaves them out too). A
 * token that does not verify changes nothing: the answer is the public one.
 */
async function movingMeeting(req: Request): Promise<number | undefined> {
  const token = bearerToken(req);
  if (!token) return undefined;
  return verifyManageToken(token).then(
    ({ meetingId }) => meetingId,
    () => undefined,
  );
}

export default routes({
  calendar: route({
    GET: async () => {
      const at = now();
      const defaults = officeRules();
      const today = officeNow(at, defaults.timeZone).date;
      const lastDate = addDays(today, defaults.horizonDays);
      const rules = officeRules(await readAvailability(getDb(), { from: today, to: lastDate }));
      const limit = rules.guardrails.dailyLimit;
      return json<CalendarAnswer>({
        success: true,
        data: {
          timeZone: rules.timeZone,
          today,
          lastDate,
          weekdays: workingWeekdays(rules),
          closedDates: closedDatesBetween(today, lastDate, rules),
          hours: [...rules.hours],
          fullDates: limit === null ? [] : await fullDates(getDb(), today, lastDate, limit),
          earliest: earliestStart(at, rules),
          slotMinutes: rules.slotMinutes,
        },
      });
    },
  }),
  "available-slots": route({
    GET: async (req, context) => {
      const { date } = validate(slotsQuerySchema, Object.fromEntries(requestUrl(req, context).searchParams));
      const moving = await movingMeeting(req);
      const at = now();
      const span = { ...officeDaySpan(date, officeRules()), staleBefore: calendarStaleBefore(at) };
      const { taken, stored, busy } = await slotsContext(getDb(), date, span, moving);
      return json<SlotsAnswer>({ success: true, data: availableSlots(date, at, taken, officeRules(stored), busy) });
    },
  }),
  schedule: route({
    POST: async (req, context) => {
      requireSameOrigin(req);
      const body = await readJson(req);
      const input = validate(meetingSchema, body);
      const db = getDb();
      const { rules, place } = await requireBookable(db, input.date, input.time);
      const token = guardJson(body);
      const verdict = await bookingVerdict(db, { ip: clientIp(req, context), token });
      if (verdict.tokenUsed) throw tokenRefused("used");
      const { acknowledge } = verdict;
      const today = officeNow(now(), OFFICE_TIME_ZONE).date;
      const booked = await db
        .transaction()
        .execute(async (trx) => {
          await assertRoomForBooking(trx, input.email, today);
          await requireRoomOnDay(trx, rules, input);
          const meeting = await createMeeting(trx, {
            ...input,
            language: submissionLanguage(req, input.language),
            location: newMeetingLocation(place),
            source: leadSource(input.source, req),
          });
          return { meeting, emails: await enqueueBookingEmails(trx, meeting, { acknowledge }) };
        })
        .catch((error: unknown) => {
          if (error instanceof SlotTakenError) throw new HttpError(409, "timeSlotOccupied");
          throw error;
        });
      await afterCommitDelivery(db, booked.emails, context);
      return json<MeetingScheduledAnswer>({ success: true, data: publicMeeting(booked.meeting) }, 201);
    },
  }),
});

export const config: Config = {
  path: [ROUTES.meetings.calendar, ROUTES.meetings.availableSlots, ROUTES.meetings.schedule],
};
