/**
 * The newsletter's signed links: confirm (expires after NEWSLETTER_CONFIRM_DAYS) and unsubscribe
 * (never expires: it is in every newsletter email). A token is `<subscriber id>.<expiry>.<HMAC>`;
 * the HMAC (SHA-256, keyed from JWT_SECRET for this use only) covers the purpose too, so an
 * unsubscribe token never confirms. Links point at the site's own pages (site.url).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { jwtSecret, NEWSLETTER_CONFIRM_DAYS } from "#server/config.ts";
import { site } from "#config/site.ts";
import type { Language } from "#shared/languages.ts";
import { fill, ROUTES } from "#shared/routes.ts";

export type LinkPurpose = "confirm" | "unsubscribe";

const key = () => createHmac("sha256", jwtSecret()).update("newsletter-links").digest();
const mac = (purpose: LinkPurpose, id: number, expires: number) =>
  createHmac("sha256", key()).update(`${purpose}.${id}.${expires}`).digest("base64url");

/** A signed token for one subscriber; `expires` in Unix seconds, 0 for never. */
export function linkToken(purpose: LinkPurpose, id: number, expires = 0): string {
  return `${id}.${expires}.${mac(purpose, id, expires)}`;
}

/** The subscriber id a token names, or null when it is malformed, forged or expired. */
export function readLinkToken(purpose: LinkPurpose, token: string | null, at: Date): number | null {
  const match = /^(\d{1,9})\.(\d{1,12})\.([\w-]{43})$/.exec(token ?? "");
  if (!match) return null;
  const [, id, expires, given] = match;
  const expected = Buffer.from(mac(purpose, Number(id), Number(expires)));
  if (!timingSafeEqual(expected, Buffer.from(given))) return null;
  if (Number(expires) !== 0 && Number(expires) * 1000 < at.getTime()) return null;
  return Number(id);
}

/** The page where a visitor confirms their sign-up (a button that posts back to the same URL). */
export function confirmUrl(lang: Language, id: number, at: Date): string {
  const expires = Math.floor(at.getTime() / 1000) + NEWSLETTER_CONFIRM_DAYS * 24 * 60 * 60;
  return `${site.url}${fill(ROUTES.newsletterLinks.confirm, { lang })}/?token=${linkToken("confirm", id, expires)}`;
}

/** The unsubscribe page; the same URL takes RFC 8058's one-click POST. */
export function unsubscribeUrl(lang: Language, id: number): string {
  return `${site.url}${fill(ROUTES.newsletterLinks.unsubscribe, { lang })}/?token=${linkToken("unsubscribe", id)}`;
}
