/**
 * The admin's booking rules, edited in the availability page. Admin only; changes from the site's own origin.
 *   GET /api/admin/booking-rules   → { noticeMinutes, bufferBeforeMinutes, bufferAfterMinutes, dailyLimit,
 *                                       changeCutoffMinutes, meetingPlace, videoPattern }
 *   PUT /api/admin/booking-rules   the same fields, all of them → the stored rules
 * The slots answer, the schedule check, a move and the date picker read them on every request
 * (src/shared/booking.ts applies them), so an edit shows at once. A meeting keeps the place it
 * was booked with.
 */
import type { Config } from "@netlify/functions";
import { readBookingRules, saveBookingRules } from "#db/booking-rules.repository.ts";
import { getDb } from "#db/client.ts";
import type { BookingRulesAnswer } from "#shared/api/availability.ts";
import { ROUTES } from "#shared/routes.ts";
import { bookingRulesSchema } from "#shared/schemas/availability.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { json, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";

export default route({
  GET: async (req) => {
    await requireAdmin(getDb(), req);
    return json<BookingRulesAnswer>({ success: true, data: await readBookingRules(getDb()) });
  },
  PUT: async (req) => {
    requireSameOrigin(req);
    await requireAdmin(getDb(), req);
    const rules = validate(bookingRulesSchema, await readJson(req));
    return json<BookingRulesAnswer>({ success: true, data: await saveBookingRules(getDb(), rules) });
  },
});

export const config: Config = { path: ROUTES.admin.bookingRules };
