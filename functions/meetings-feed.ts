/**
 * GET /api/meetings-feed/{token}: the whole office's meetings, or one consultant's (whichever the
 * token belongs to), as an iCalendar feed, for a calendar app's
 * subscription (functions/_lib/calendars/meetings-feed.ts). Public path, private address: the
 * token is the only key, made and revoked in the admin's availability page; any other token, or
 * one replaced since, answers 404 (as a path that does not exist would).
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { meetingsFeedOwner } from "#db/meetings-feed.repository.ts";
import { meetingsForFeed } from "#db/meetings.repository.ts";
import { now } from "#server/office.ts";
import { addDays, officeNow } from "#shared/booking.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { ROUTES } from "#shared/routes.ts";
import { meetingsCalendar, MEETINGS_FEED_PAST_DAYS } from "./_lib/calendars/meetings-feed.ts";
import { HttpError, route } from "./_lib/http/http.ts";

export default route({
  GET: async (req: Request, context: Context) => {
    const raw = context?.params?.token ?? new URL(req.url).pathname.split("/").filter(Boolean).at(-1) ?? "";
    const token = raw.replace(/\.ics$/, "");
    const feed = /^[A-Za-z0-9_-]{20,100}$/.test(token) ? await meetingsFeedOwner(getDb(), token) : undefined;
    if (!feed) throw new HttpError(404, "Not found");
    const at = now();
    const from = addDays(officeNow(at, OFFICE_TIME_ZONE).date, -MEETINGS_FEED_PAST_DAYS);
    const body = meetingsCalendar(await meetingsForFeed(getDb(), from, feed.owner), at);
    return new Response(body, {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": 'inline; filename="meetings.ics"',
        // Personal data behind a secret address: no shared cache keeps it, no index lists it.
        "Cache-Control": "private, no-store",
        "X-Robots-Tag": "noindex",
      },
    });
  },
});

export const config: Config = { path: ROUTES.meetings.feed };
