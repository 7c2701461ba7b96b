/**
 * The office's availability, edited in the admin. Admin only; changes from the site's own origin.
 *   GET    /api/admin/availability                 → hours, closures, the public-holiday switch, the computed holidays
 *   PUT    /api/admin/availability                 { hours, publicHolidays } → the same answer
 *   POST   /api/admin/availability/closures        { from, to, yearly?, note? } → 201 the closure
 *   DELETE /api/admin/availability/closures/{id}   → 200, or 404
 *   GET    /api/admin/availability/calendars               → the connected calendar feeds and their state
 *   POST   /api/admin/availability/calendars               { name, url, username?, password?, ownerEmail? } → 201, fetched at once
 *   POST   /api/admin/availability/calendars/test          { name, url, username?, password?, ownerEmail? } → what a fetch finds, nothing stored
 *   POST   /api/admin/availability/calendars/{id}/refresh  → the feed's refresh result (the refresh button)
 *   DELETE /api/admin/availability/calendars/{id}          → 200, or 404 (a BUSY_CALENDARS feed cannot be removed)
 *   GET    /api/admin/availability/meetings-feed           → the private address of the meetings feed, or null
 *   POST   /api/admin/availability/meetings-feed           → a new address; the old one answers 404 from now on
 * A feed's address and credentials are sealed at rest and never answered back (its host is);
 * credentials are taken only with an https:// address (400 otherwise).
 * The slots answer, the schedule check and the date picker read these rules on every request, so
 * an edit shows for visitors at once.
 */
import type { Config, Context } from "@netlify/functions";
import { addClosure, readAvailability, removeClosure, saveAvailability } from "#db/availability.repository.ts";
import { getDb } from "#db/client.ts";
import { calendarLoopbackAllowed, calendarStaleBefore, serverEnv } from "#server/config.ts";
import { now } from "#server/office.ts";
import type { AvailabilityAnswer, ClosureAnswer } from "#shared/api/availability.ts";
import type { CalendarFeedsAnswer, CalendarFetchAnswer, MeetingsFeedAnswer } from "#shared/api/calendars.ts";
import type { MessageAnswer } from "#shared/api/common.ts";
import { officeNow } from "#shared/dates.ts";
import { dutchPublicHolidays } from "#shared/holidays.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { availabilitySchema, closureSchema } from "#shared/schemas/availability.ts";
import { calendarFeedSchema } from "#shared/schemas/calendars.ts";
import { addFeed, type FeedStatus, hasFeedUrl, listFeeds, removeFeed } from "#db/busy-calendars.repository.ts";
import { consultantOfUser } from "#db/consultants.repository.ts";
import { newMeetingsFeedToken, readMeetingsFeedToken } from "#db/meetings-feed.repository.ts";
import { refreshCalendars, testFeed } from "./_lib/calendars/refresh.ts";
import { credentialsRefused } from "./_lib/calendars/fetch.ts";
import { meetingsFeedUrl } from "./_lib/calendars/meetings-feed.ts";
import { audit } from "./_lib/auth/audit.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { HttpError, json, type JsonAnswer, readJson, requireSameOrigin, route, validate } from "./_lib/http/http.ts";
import { ROUTES } from "#shared/routes.ts";

async function answer(): Promise<JsonAnswer> {
  const year = Number(officeNow(now(), OFFICE_TIME_ZONE).date.slice(0, 4));
  const stored = await readAvailability(getDb());
  return json<AvailabilityAnswer>({
    success: true,
    data: { ...stored, holidays: [...dutchPublicHolidays(year), ...dutchPublicHolidays(year + 1)] },
  });
}

const availability = route({
  GET: async (req) => {
    await requireAdmin(getDb(), req);
    return answer();
  },
  PUT: async (req, context) => {
    requireSameOrigin(req);
    const admin = await requireAdmin(getDb(), req);
    await saveAvailability(getDb(), validate(availabilitySchema, await readJson(req)));
    await audit(getDb(), req, context, admin, "settings.change", { target: "availability" });
    return answer();
  },
});

const closures = route({
  POST: async (req, context) => {
    requireSameOrigin(req);
    const admin = await requireAdmin(getDb(), req);
    const closure = await addClosure(getDb(), validate(closureSchema, await readJson(req)));
    await audit(getDb(), req, context, admin, "settings.change", { target: "closures", detail: { added: closure.id } });
    return json<ClosureAnswer>({ success: true, data: closure }, 201);
  },
});

const closure = route({
  DELETE: async (req, context) => {
    requireSameOrigin(req);
    const admin = await requireAdmin(getDb(), req);
    const raw = context?.params?.id ?? new URL(req.url).pathname.split("/").filter(Boolean).at(-1) ?? "";
    if (!/^\d{1,9}$/.test(raw) || !(await removeClosure(getDb(), Number(raw))))
      throw new HttpError(404, "Closure not found");
    await audit(getDb(), req, context, admin, "settings.change", {
      target: "closures",
      detail: { removed: Number(raw) },
    });
    return json<MessageAnswer>({ success: true, message: "Closure removed" });
  },
});

const feedId = (req: Request, context?: Context) => {
  const raw = context?.params?.id ?? /\/calendars\/([^/]+)/.exec(new URL(req.url).pathname)?.[1] ?? "";
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(404, "Calendar not found");
  return Number(raw);
};

/** The feed of a request's body: valid, credentials only over https. */
async function feedOf(req: Request) {
  const feed = validate(calendarFeedSchema, await readJson(req));
  const insecure = credentialsRefused(feed, calendarLoopbackAllowed());
  if (insecure) throw new HttpError(400, insecure);
  return { ...feed, ownerEmail: feed.ownerEmail || null };
}

function feedsAnswer(feeds: FeedStatus[]): CalendarFeedsAnswer {
  const staleBefore = calendarStaleBefore(now()).getTime();
  return {
    success: true,
    data: {
      feeds: feeds.map((f) => ({
        ...f,
        lastOkAt: f.lastOkAt?.toISOString() ?? null,
        failingSince: f.failingSince?.toISOString() ?? null,
        stale: f.failingSince !== null && f.failingSince.getTime() <= staleBefore,
      })),
      staleAfterHours: serverEnv().CALENDAR_STALE_HOURS,
    },
  };
}

const calendars = route({
  GET: async (req) => {
    await requireAdmin(getDb(), req);
    return json(feedsAnswer(await listFeeds(getDb())));
  },
  POST: async (req, context) => {
    requireSameOrigin(req);
    const admin = await requireAdmin(getDb(), req);
    const feed = await feedOf(req);
    if (await hasFeedUrl(getDb(), feed.url)) throw new HttpError(409, "This calendar is already connected");
    // An admin who is a consultant connects their own calendar; anyone else the whole office's.
    const own = await consultantOfUser(getDb(), admin.id);
    const id = await addFeed(getDb(), { ...feed, consultantId: own?.id ?? null });
    await audit(getDb(), req, context, admin, "settings.change", { target: "calendars", detail: { added: id } });
    const [result] = await refreshCalendars(getDb(), now(), id);
    return json<CalendarFetchAnswer>({ success: true, data: result }, 201);
  },
});

const testCalendar = route({
  POST: async (req) => {
    requireSameOrigin(req);
    await requireAdmin(getDb(), req);
    const feed = await feedOf(req);
    return json<CalendarFetchAnswer>({ success: true, data: await testFeed(feed, now()) });
  },
});

const calendar = route({
  POST: async (req, context) => {
    requireSameOrigin(req);
    await requireAdmin(getDb(), req);
    const [result] = await refreshCalendars(getDb(), now(), feedId(req, context));
    if (!result) throw new HttpError(404, "Calendar not found");
    return json<CalendarFetchAnswer>({ success: true, data: result });
  },
  DELETE: async (req, context) => {
    requireSameOrigin(req);
    const admin = await requireAdmin(getDb(), req);
    const id = feedId(req, context);
    if (!(await removeFeed(getDb(), id))) throw new HttpError(404, "Calendar not found");
    await audit(getDb(), req, context, admin, "settings.change", { target: "calendars", detail: { removed: id } });
    return json<MessageAnswer>({ success: true, message: "Calendar removed" });
  },
});

const meetingsFeed = route({
  GET: async (req) => {
    await requireAdmin(getDb(), req);
    const token = await readMeetingsFeedToken(getDb());
    return json<MeetingsFeedAnswer>({ success: true, data: { url: token ? meetingsFeedUrl(token) : null } });
  },
  POST: async (req, context) => {
    requireSameOrigin(req);
    const admin = await requireAdmin(getDb(), req);
    const token = await newMeetingsFeedToken(getDb());
    await audit(getDb(), req, context, admin, "settings.change", { target: "meetings-feed" });
    return json<MeetingsFeedAnswer>({ success: true, data: { url: meetingsFeedUrl(token) } });
  },
});

export default (req: Request, context: Context) => {
  const path = new URL(req.url).pathname.replace(/\/+$/, "");
  if (path.endsWith("/calendars")) return calendars(req, context);
  if (path.endsWith("/calendars/test")) return testCalendar(req, context);
  if (path.endsWith("/meetings-feed")) return meetingsFeed(req, context);
  if (path.includes("/calendars/")) return calendar(req, context);
  if (path.endsWith("/availability")) return availability(req, context);
  if (path.endsWith("/closures")) return closures(req, context);
  return closure(req, context);
};

export const config: Config = {
  path: [
    ROUTES.admin.availability,
    ROUTES.admin.closures,
    ROUTES.admin.closure,
    ROUTES.admin.calendars,
    ROUTES.admin.calendarTest,
    ROUTES.admin.meetingsFeed,
    ROUTES.admin.calendar,
    ROUTES.admin.calendarRefresh,
  ],
};
