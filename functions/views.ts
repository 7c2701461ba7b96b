/**
 * /api/views: counts a page view, without cookies or any identifier.
 *
 * - POST: the inline beacon of every public page (navigator.sendBeacon, text/plain JSON of at most
 *   VIEW_MAX_BYTES: path, referrer host, campaign tags, first page of the visit or not).
 * - GET: the <noscript> image of the same pages (`?p=/fa/startup-visa`); the campaign tags come from
 *   the page's own address in the Referer. Answers a 1×1 transparent GIF.
 *
 * Counted only when the page is one of the site's (src/shared/sources.ts `SITE_PAGE_PATHS` under each
 * language), the user agent is not a robot's, the request is not a prefetch or from another site,
 * and the address is under LIMITS.viewsPerAddress. Everything else is answered exactly the same, so
 * a caller learns nothing. Tags are allowlisted and cut (src/shared/sources.ts). A failing database
 * costs the view, never a 5xx: counting must not be what a monitor sees failing.
 */
import type { Config, Context } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { recordView, type NewView } from "#db/sources.repository.ts";
import { LIMITS } from "#shared/limits.ts";
import { rateLimitsOn } from "#server/config.ts";
import { now } from "#server/office.ts";
import { officeNow } from "#shared/dates.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { ROUTES } from "#shared/routes.ts";
import { viewSchema } from "#shared/schemas/sources.ts";
import {
  campaignTag,
  countryCode,
  deviceClass,
  isBot,
  knownPages,
  pageLanguage,
  referrerHost,
  SITE_PAGE_PATHS,
  sitePath,
} from "#shared/sources.ts";
import { safeParse } from "zod/mini";
import { clientIp, HttpError, readText, refuseControlCharacters, route } from "./_lib/http/http.ts";
import { addressKey, counterKey } from "./_lib/forms/limits.ts";

/** A view's body is a few hundred bytes; past this it is refused (413). */
export const VIEW_MAX_BYTES = 2048;

const KNOWN = knownPages(SITE_PAGE_PATHS);

/** The smallest transparent GIF (43 bytes). */
const PIXEL = Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"), (c) => c.charCodeAt(0));

/** What a view came with, before the rules decide whether it counts. */
interface Candidate {
  path: unknown;
  referrer: unknown;
  utmSource: unknown;
  utmMedium: unknown;
  utmCampaign: unknown;
  entry: boolean;
}

/** Whether the request is a browser showing a page to a person (not a robot, a prefetch or another site). */
function countable(req: Request): boolean {
  const purpose = `${req.headers.get("sec-purpose") ?? ""} ${req.headers.get("purpose") ?? ""} ${req.headers.get("x-moz") ?? ""}`;
  if (/prefetch|prerender/i.test(purpose)) return false;
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin") return false;
  return !isBot(req.headers.get("user-agent") ?? "");
}

/** Stores the view when it passes the rules; a database failure is logged and the view lost. */
async function count(req: Request, context: Context, candidate: Candidate): Promise<void> {
  if (!countable(req)) return;
  const path = sitePath(candidate.path, KNOWN);
  if (!path) return;
  const view: NewView = {
    day: officeNow(now(), OFFICE_TIME_ZONE).date,
    entry: candidate.entry,
    path,
    lang: pageLanguage(path) ?? "",
    referrer: referrerHost(candidate.referrer, new URL(req.url).host) ?? "",
    utmSource: campaignTag(candidate.utmSource) ?? "",
    utmMedium: campaignTag(candidate.utmMedium) ?? "",
    utmCampaign: campaignTag(candidate.utmCampaign) ?? "",
    device: deviceClass(req.headers.get("user-agent") ?? ""),
    country: countryCode(context?.geo?.country?.code ?? req.headers.get("x-country")) ?? "",
  };
  const { limit, windowSeconds } = LIMITS.viewsPerAddress;
  const limited = rateLimitsOn()
    ? { key: counterKey("views", addressKey(clientIp(req, context))), windowSeconds, limit }
    : null;
  try {
    await recordView(getDb(), view, limited);
  } catch (error) {
    console.error("[views] a view was not counted:", error instanceof Error ? error.message : String(error));
  }
}

/** The page's own address from the Referer, when it is one of ours (the no-JavaScript image's campaign tags). */
function ownPage(req: Request): URL | null {
  const referer = req.headers.get("referer");
  if (!referer || referer.length > 2048) return null;
  try {
    const url = new URL(referer);
    return url.origin === new URL(req.url).origin ? url : null;
  } catch {
    return null;
  }
}

const noContent = () => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });

export default route({
  POST: async (req, context) => {
    if (Number(req.headers.get("content-length")) > VIEW_MAX_BYTES) throw tooLarge();
    const text = await readText(req);
    if (new TextEncoder().encode(text).byteLength > VIEW_MAX_BYTES) throw tooLarge();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpError(400, "A view must be a JSON object");
    }
    refuseControlCharacters(body);
    const parsed = safeParse(viewSchema, body);
    if (!parsed.success) throw new HttpError(400, "A view must name its page (p) with text values");
    const v = parsed.data;
    await count(req, context, {
      path: v.p,
      referrer: v.r,
      utmSource: v.s,
      utmMedium: v.m,
      utmCampaign: v.c,
      entry: Boolean(v.e),
    });
    return noContent();
  },
  GET: async (req, context) => {
    const url = new URL(req.url);
    const page = ownPage(req);
    const tags = page?.searchParams;
    // Without JavaScript nothing tells a visit's first page from the next: each counts as a visit.
    await count(req, context, {
      path: url.searchParams.get("p"),
      referrer: null,
      utmSource: tags?.get("utm_source"),
      utmMedium: tags?.get("utm_medium"),
      utmCampaign: tags?.get("utm_campaign"),
      entry: true,
    });
    return new Response(PIXEL, {
      headers: {
        "Content-Type": "image/gif",
        "Cache-Control": "no-store",
        "Cross-Origin-Resource-Policy": "same-origin",
      },
    });
  },
});

const tooLarge = () => new HttpError(413, `A view is at most ${VIEW_MAX_BYTES} bytes`);

export const config: Config = { path: ROUTES.views };
