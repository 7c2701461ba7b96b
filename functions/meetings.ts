/**
 * Meeting booking, with a consultant (`consultant=any|<id>`; "any" is whoever is free, for
 * `language` and `service` when given):
 *   GET  /api/meetings/calendar?consultant=…&language=…     → the booking rules the date picker needs for
 *                                                             that choice, and the bookable consultants
 *   GET  /api/meetings/available-slots?date=…&consultant=…  → { success, data: ["09:00", …] }: the union of the
 *                                                             chosen consultants' free slots (with a manage
 *                                                             token: its consultant's, its own time left out)
 *   POST /api/meetings/schedule { …, consultant?, service?, place? }
 *        → 201 { success, data: meeting } | 404 consultantNotFound | 409 timeSlotOccupied | 409 dailyLimitReached
 * "any" is assigned by the fair rule (src/shared/consultants.ts) in the booking's transaction, one
 * assignment at a time; the unique index (consultant, date, time) makes a double booking impossible,
 * and when it refuses one consultant the next free one is tried before answering 409. A booking
 * queues the company's notification and the visitor's acknowledgement (with a tentative calendar
 * invite) in the transaction that stores it; they are sent right after, or retried later. All three
 * read the rules the admin edits from the database (the slots in one statement with every
 * consultant's day), so an edit shows on every instance at once.
 */
import type { Config } from "@netlify/functions";
import type { Kysely } from "kysely";
import { getDb } from "#db/client.ts";
import { readAvailability } from "#db/availability.repository.ts";
import {
  consultantLoads,
  consultantsOverRange,
  lockAssignment,
  type ConsultantDay,
} from "#db/consultants.repository.ts";
import { createMeeting, meetingConsultant, publicMeeting, SlotTakenError } from "#db/meetings.repository.ts";
import type { Database } from "#db/types.ts";
import type { CalendarAnswer, SlotsAnswer } from "#shared/api/availability.ts";
import type { MeetingScheduledAnswer } from "#shared/api/meetings.ts";
import { addDays, earliestStart, officeNow } from "#shared/booking.ts";
import { ANY_CONSULTANT, calendarForChoice, rankFairly, unionOfSlots, type Assignment } from "#shared/consultants.ts";
import { OFFICE_TIME_ZONE, type OfficeRules } from "#shared/office.ts";
import { calendarQuerySchema, meetingSchema, slotsQuerySchema } from "#shared/schemas/meetings.ts";
import { now, officeRules } from "#server/office.ts";
import {
  chosenConsultants,
  freeSlots,
  isFree,
  newMeetingLocation,
  notAvailable,
  publicConsultant,
  readBookingDay,
  requireRoomOnDay,
  roomOnDay,
  rulesOf,
} from "./_lib/booking/booking.ts";
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
 * The meeting a visitor is moving, when the slots request carries its manage link's token: the
 * slots are its consultant's, and its own time and buffers must not keep it from the slots next to
 * it (the move leaves them out too). A token that does not verify changes nothing: the answer is the
 * public one.
 */
async function movingMeeting(req: Request): Promise<{ id: number; consultant: string } | undefined> {
  const token = bearerToken(req);
  if (!token) return undefined;
  const id = await verifyManageToken(token).then(
    ({ meetingId }) => meetingId,
    () => undefined,
  );
  if (id === undefined) return undefined;
  const consultant = await meetingConsultant(getDb(), id);
  return consultant === undefined ? undefined : { id, consultant };
}

/** A unique violation for one consultant under "whoever is free": try again without them. */
class TryAnother extends Error {
  readonly consultant: string;
  constructor(consultant: string) {
    super(`${consultant} was taken meanwhile`);
    this.consultant = consultant;
  }
}

export default routes({
  calendar: route({
    GET: async (req, context) => {
      const wanted = validate(calendarQuerySchema, Object.fromEntries(requestUrl(req, context).searchParams));
      const at = now();
      const defaults = officeRules();
      const today = officeNow(at, defaults.timeZone).date;
      const lastDate = addDays(today, defaults.horizonDays);
      const db = getDb();
      const rules = officeRules(await readAvailability(db, { from: today, to: lastDate }));
      const all = await consultantsOverRange(db, { from: today, to: lastDate }, rules.guardrails.dailyLimit);
      const choice = chosenConsultants(all, wanted).map((c) => ({ rules: rulesOf(rules, c), fullDates: c.fullDates }));
      return json<CalendarAnswer>({
        success: true,
        data: {
          timeZone: rules.timeZone,
          today,
          lastDate,
          ...calendarForChoice(today, lastDate, choice),
          earliest: earliestStart(at, rules),
          slotMinutes: rules.slotMinutes,
          consultants: all.filter((c) => c.active).map((c) => publicConsultant(c.id)),
        },
      });
    },
  }),
  "available-slots": route({
    GET: async (req, context) => {
      const query = validate(slotsQuerySchema, Object.fromEntries(requestUrl(req, context).searchParams));
      const moving = await movingMeeting(req);
      const wanted = moving ? { consultant: moving.consultant } : query;
      const day = await readBookingDay(getDb(), query.date, { except: moving?.id, include: moving?.consultant });
      const chosen = moving
        ? day.consultants.filter((c) => c.id === moving.consultant && c.active)
        : chosenConsultants(day.consultants, wanted);
      const slots = unionOfSlots(chosen.map((c) => freeSlots(query.date, day.rules, c)));
      return json<SlotsAnswer>({ success: true, data: slots });
    },
  }),
  schedule: route({
    POST: async (req, context) => {
      requireSameOrigin(req);
      const body = await readJson(req);
      const input = validate(meetingSchema, body);
      const language = submissionLanguage(req, input.language);
      const wanted = { consultant: input.consultant, language, service: input.service };
      const db = getDb();
      const day = await readBookingDay(db, input.date);
      const free = chosenConsultants(day.consultants, wanted).filter((c) =>
        isFree(input.date, input.time, day.rules, { ...c, taken: [] }),
      );
      if (!free.length) throw notAvailable();
      const token = guardJson(body);
      const verdict = await bookingVerdict(db, { ip: clientIp(req, context), token });
      if (verdict.tokenUsed) throw tokenRefused("used");
      const { acknowledge } = verdict;
      const today = officeNow(now(), OFFICE_TIME_ZONE).date;
      const byChoice = (input.consultant ?? ANY_CONSULTANT) !== ANY_CONSULTANT;
      const location = newMeetingLocation(day.place, input.place);
      const tried = new Set<string>();
      for (;;) {
        const left = free.filter((c) => !tried.has(c.id));
        const booked = await db
          .transaction()
          .execute(async (trx) => {
            await assertRoomForBooking(trx, input.email, today);
            const { consultant, assignment } = byChoice
              ? await chosenRoom(trx, day.rules, input, left[0]!)
              : await fairRoom(trx, day.rules, input, left, today);
            const meeting = await createMeeting(trx, {
              ...input,
              language,
              location,
              source: leadSource(input.source, req),
              consultantId: consultant,
              assignment,
            });
            return { meeting, emails: await enqueueBookingEmails(trx, meeting, { acknowledge }) };
          })
          .catch((error: unknown) => {
            if (error instanceof SlotTakenError) {
              if (!byChoice && left.length > 1) return new TryAnother(error.consultantId);
              throw new HttpError(409, "timeSlotOccupied");
            }
            throw error;
          });
        if (booked instanceof TryAnother) {
          tried.add(booked.consultant);
          continue;
        }
        await afterCommitDelivery(db, booked.emails, context);
        return json<MeetingScheduledAnswer>({ success: true, data: publicMeeting(booked.meeting) }, 201);
      }
    },
  }),
});

/** The named consultant, if their day leaves room at the time (409 otherwise). */
async function chosenRoom(
  trx: Kysely<Database>,
  office: OfficeRules,
  slot: { date: string; time: string },
  consultant: ConsultantDay,
): Promise<{ consultant: string; assignment: Assignment }> {
  await requireRoomOnDay(trx, rulesOf(office, consultant), slot, consultant.id);
  return { consultant: consultant.id, assignment: { rule: "chosen" } };
}

/**
 * "Whoever is free": under the assignment lock, the consultants free at the time ranked by the fair
 * rule, and the first whose day leaves room (their meetings read under their day's lock), so each
 * assignment reads the loads the one before left. 409 when none does: `dailyLimitReached` when
 * every one's day is full, else `timeSlotOccupied`.
 */
async function fairRoom(
  trx: Kysely<Database>,
  office: OfficeRules,
  slot: { date: string; time: string },
  free: readonly ConsultantDay[],
  today: string,
): Promise<{ consultant: string; assignment: Assignment }> {
  // With one consultant free there is nothing to share: no lock, and the unique index decides a
  // race for their slot as it always has (a queue waiting for the lock would hold the pool's connections).
  const sharing = free.length > 1;
  if (!sharing) {
    const only = free[0]!;
    const conflict = await roomOnDay(trx, rulesOf(office, only), slot, only.id);
    if (conflict) throw new HttpError(409, conflict === "daily-limit" ? "dailyLimitReached" : "timeSlotOccupied");
    return { consultant: only.id, assignment: { rule: "only" } };
  }
  await lockAssignment(trx);
  const ids = free.map((c) => c.id);
  const ranked = rankFairly(await consultantLoads(trx, ids, today));
  const conflicts = [];
  for (const load of ranked) {
    const c = free.find((f) => f.id === load.id)!;
    const conflict = await roomOnDay(trx, rulesOf(office, c), slot, c.id, { always: true });
    if (!conflict) return { consultant: c.id, assignment: { rule: "fair", compared: ranked } };
    conflicts.push(conflict);
  }
  throw new HttpError(409, conflicts.every((c) => c === "daily-limit") ? "dailyLimitReached" : "timeSlotOccupied");
}

export const config: Config = {
  path: [ROUTES.meetings.calendar, ROUTES.meetings.availableSlots, ROUTES.meetings.schedule],
};
