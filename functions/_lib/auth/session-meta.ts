/**
 * What a session list shows about a sign-in, worked out once when it starts: the device and browser
 * from the User-Agent (a few families, no version, so it says little about the person), and the
 * place as the country the platform reports or the address's network prefix (/24 for IPv4, /48 for
 * IPv6). The full address is never stored.
 */
import type { Context } from "@netlify/functions";
import { clientIp } from "../http/http.ts";

export interface SessionMeta {
  device: string;
  browser: string;
  place: string;
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bChrom(?:e|ium)\/|\bCriOS\//, "Chrome"],
  [/\bVersion\/[\d.]+.*Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPad\b/, "iPad"],
  [/\biPhone\b/, "iPhone"],
  [/\bAndroid\b.*\bMobile\b/, "Android phone"],
  [/\bAndroid\b/, "Android tablet"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "Mac"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bLinux\b/, "Linux"],
];

const first = (ua: string, table: [RegExp, string][]) => table.find(([pattern]) => pattern.test(ua))?.[1] ?? "";

/** The device and browser families a User-Agent names ("" when it names none); only the first 512 characters are read. */
export function describeAgent(userAgent: string | null): Pick<SessionMeta, "device" | "browser"> {
  const ua = (userAgent ?? "").slice(0, 512);
  return { device: first(ua, SYSTEMS), browser: first(ua, BROWSERS) };
}

/** The network an address belongs to: a.b.c.0/24 for IPv4, the first three groups /48 for IPv6, "" otherwise. */
export function addressPrefix(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return v4.slice(1, 4).every((n) => Number(n) <= 255) ? `${v4[1]}.${v4[2]}.${v4[3]}.0/24` : "";
  if (!/^[0-9a-f:]{2,39}$/i.test(ip) || !ip.includes(":")) return "";
  const [head, ...rest] = ip.split("::");
  if (rest.length > 1 || (rest.length === 0 && head.split(":").length !== 8)) return "";
  // "2001:db8::1": groups left out by "::" are zeros.
  const groups = head ? head.split(":") : [];
  while (groups.length < 3) groups.push("0");
  if (groups.slice(0, 3).some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return "";
  return `${groups
    .slice(0, 3)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/48`;
}

/** Where a request came from, as coarsely as a person needs to recognise it: country, else network prefix. */
export function requestPlace(req: Request, context?: Partial<Context>): string {
  const country = context?.geo?.country?.code ?? "";
  const prefix = addressPrefix(clientIp(req, context));
  return /^[A-Z]{2}$/.test(country) ? (prefix ? `${country} · ${prefix}` : country) : prefix;
}

/** The country code a place (as requestPlace writes it) starts with, "" when it has none. */
export const placeCountry = (place: string): string => /^[A-Z]{2}(?= · |$)/.exec(place)?.[0] ?? "";

/** Everything a new session records about where it started. */
export function sessionMeta(req: Request, context?: Partial<Context>): SessionMeta {
  return { ...describeAgent(req.headers.get("user-agent")), place: requestPlace(req, context) };
}
