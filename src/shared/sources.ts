/**
 * Where visits and leads come from: the rules that reduce what a browser reports (a page's address,
 * its referrer, its campaign tags, its user agent) to the few allowlisted values the site stores.
 * The counting endpoint, the forms' payload schema and the admin's Sources view all use these, so
 * nothing outside them can reach the database or the admin's screen.
 */
import { LANGUAGES, type Language } from "./languages.ts";

/**
 * How long the daily view counts are kept: 25 months, the longest the French CNIL accepts for
 * audience measurement exempt from consent (docs/operator.md). Raw views are folded into them when
 * their day is over (the retention run, daily), then deleted.
 */
export const VIEW_STATS_MONTHS = 25;

/** The longest campaign tag kept (utm_source, utm_medium, utm_campaign); longer ones are cut. */
export const TAG_MAX_LENGTH = 64;
/** The longest referrer host kept. */
export const HOST_MAX_LENGTH = 100;

/** What a lead carries about where it came from; null where the visitor's tab knew nothing. */
export interface LeadSource {
  /** The page the form was sent from, e.g. "/fa/startup-visa". */
  page: string | null;
  /** The first page of the visit (first touch), e.g. "/fa/". */
  landing: string | null;
  /** The host of the page that sent the visitor, e.g. "t.me"; null for a direct visit. */
  referrer: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  /** The "How did you hear about us?" choice (an id of the locale files' `heard.options`). */
  heard: string | null;
}

/** The keys of a LeadSource, in the order the admin shows them. */
export const LEAD_SOURCE_KEYS = [
  "page",
  "landing",
  "referrer",
  "utmSource",
  "utmMedium",
  "utmCampaign",
  "heard",
] as const satisfies readonly (keyof LeadSource)[];

// Letters and digits of any script (a Persian campaign name stays readable), and . _ - + ~.
const TAG_CHARACTER = /[\p{L}\p{N}._+~-]/u;

/**
 * A campaign tag as stored: Unicode-normalised, lower case, spaces as "-", every other character
 * outside the allowlist dropped, at most TAG_MAX_LENGTH characters; null when nothing is left.
 * `<script>alert(1)</script>` becomes "scriptalert1script".
 */
export function campaignTag(value: unknown): string | null {
  if (typeof value !== "string") return null;
  // Cut before the work: a 10 KB tag costs no more than a short one.
  const text = value
    .slice(0, TAG_MAX_LENGTH * 4)
    .normalize("NFKC")
    .toLowerCase()
    .trim();
  let out = "";
  for (const ch of text.replace(/\s+/g, "-")) {
    if (TAG_CHARACTER.test(ch)) out += ch;
    if (out.length >= TAG_MAX_LENGTH) break;
  }
  return out || null;
}

/**
 * A referrer reduced to its host, lower case, without "www."; null for none, for a value that is
 * not an http(s) address, or for `ownHost` (a visitor moving between the site's own pages).
 */
export function referrerHost(value: unknown, ownHost?: string): string | null {
  if (typeof value !== "string" || value === "") return null;
  let host: string;
  if (/^https?:\/\//i.test(value)) {
    try {
      host = new URL(value.slice(0, 2048)).hostname;
    } catch {
      return null;
    }
  } else host = value.slice(0, 300);
  host = host.toLowerCase().replace(/^www\./, "");
  if (!/^[a-z0-9.-]+$/.test(host) || host.length > HOST_MAX_LENGTH || !host.includes(".")) return null;
  if (
    ownHost &&
    host ===
      ownHost
        .toLowerCase()
        .replace(/^www\./, "")
        .replace(/:\d+$/, "")
  )
    return null;
  return host;
}

/**
 * The site's public pages without language prefix, as the counter knows them. The same list as
 * src/data/services.ts `pages` (which the functions may not import; functions/_tests/views.test.ts
 * holds the two equal).
 */
export const SITE_PAGE_PATHS = ["/", "/startup-visa", "/business-launchpad", "/startup-studio", "/privacy"] as const;

/**
 * The site's public pages as the counter and the admin know them: each language's prefix with each
 * page's path ("/fa/", "/fa/startup-visa"). `pagePaths` are the unprefixed paths ("/", "/privacy").
 */
export function knownPages(pagePaths: readonly string[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const lang of LANGUAGES) for (const path of pagePaths) out.add(path === "/" ? `/${lang}/` : `/${lang}${path}`);
  return out;
}

/**
 * A page's path as stored ("/fa/", "/fa/startup-visa"), or null when it is not one of `known`: the
 * query and fragment dropped, a trailing slash on an inner page removed, "/fa" read as "/fa/".
 */
export function sitePath(value: unknown, known: ReadonlySet<string>): string | null {
  if (typeof value !== "string" || value.length > 300) return null;
  let path = value.split(/[?#]/)[0];
  if (/^\/[a-z]{2}$/.test(path)) path += "/";
  else if (path.length > 4 && path.endsWith("/")) path = path.replace(/\/+$/, "");
  return known.has(path) ? path : null;
}

/** The language of a stored page path ("/fa/startup-visa" → "fa"). */
export function pageLanguage(path: string): Language | null {
  const code = path.split("/")[1];
  return (LANGUAGES as readonly string[]).includes(code) ? (code as Language) : null;
}

/** The kind of device a user agent names. */
export type DeviceClass = "mobile" | "tablet" | "desktop";

export function deviceClass(userAgent: string): DeviceClass {
  if (/ipad|tablet|kindle|silk|playbook|(android(?!.*mobile))/i.test(userAgent)) return "tablet";
  if (/mobi|iphone|ipod|android|blackberry|opera mini|iemobile|windows phone/i.test(userAgent)) return "mobile";
  return "desktop";
}

/**
 * Known robots, crawlers, link previews, monitors and automation: their views are not counted.
 * A browser driven by a test or Lighthouse says "HeadlessChrome" or "Lighthouse" and is a robot too.
 * Names that people's browsers carry too are left to `bot`: the DuckDuckGo browser ("DuckDuckGo/7")
 * and Telegram's in-app browser ("Telegram-Android/11.2.1") are people; DuckDuckBot and TelegramBot
 * are robots by their "Bot".
 */
const BOT =
  /bot\b|bot[/;_-]|crawl|spider|slurp|scrap|fetch|archiv|preview|monitor|check|scan|lighthouse|headless|phantom|puppeteer|playwright|selenium|python|curl|wget|httpclient|okhttp|java\/|go-http|node-fetch|axios|undici|libwww|ruby|perl|php|facebookexternalhit|embedly|quora|whatsapp|discord|slack|skype|vkshare|pinterest|yandex|baidu|bing|google(?!.*chrome)|petal|semrush|ahrefs|mj12|dotbot|uptime|pingdom|statuscake|datadog|newrelic/i;

/** Whether a user agent is a robot's (an empty one is). */
export const isBot = (userAgent: string): boolean => userAgent.trim().length < 10 || BOT.test(userAgent);

/** A visit's source as the admin groups it: the utm_source, else the referrer's host, else "" (direct). */
export const sourceOf = (v: { utmSource?: string | null; referrer?: string | null }): string =>
  v.utmSource || v.referrer || "";

/** A two-letter country code as the host's geolocation gives it, upper case; null otherwise. */
export function countryCode(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : null;
}
