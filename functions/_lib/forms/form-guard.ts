/**
 * Bot traps of the public forms (enquiry, booking, newsletter), all working without JavaScript:
 *
 * - a honeypot field (src/shared/form-guard.ts) that people never see and bots fill;
 * - a signed "form shown at" token: `v1.<issued ms>.<nonce>.<HMAC>`. The pages are static, so it
 *   cannot be in their HTML: the islands fetch one from GET /api/form-token when they hydrate (and a
 *   fresh one for each submission); a plain form post without a valid one gets a small confirm page
 *   carrying a fresh token and the visitor's fields (functions/_lib/forms/form-page.ts), so a person loses
 *   nothing. A token younger than 2 s, older than 2 hours, forged or used before is refused;
 * - cross-site posts refused by `requireSameOrigin` (functions/_lib/http/http.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { OnceKey } from "#db/admission.repository.ts";
import { LIMITS } from "#shared/limits.ts";
import { guardKey } from "#server/config.ts";
import { GUARD_CODES, HONEYPOT_FIELD, TOKEN_FIELD } from "#shared/form-guard.ts";
import { HttpError } from "../http/http.ts";

const VERSION = "v1";

const sign = (payload: string) =>
  createHmac("sha256", guardKey()).update(`form-token\n${payload}`).digest("base64url").slice(0, 32);

/** A token saying "a form was shown at `issuedMs`" (now, unless a test backdates it). */
export function issueFormToken(issuedMs = Date.now()): string {
  const payload = `${VERSION}.${issuedMs.toString(36)}.${randomBytes(12).toString("base64url")}`;
  return `${payload}.${sign(payload)}`;
}

export type TokenProblem = "missing" | "forged" | "tooFast" | "tooOld" | "used";

/**
 * What a token says without the database: its problem, or the once-only key that using it up
 * takes (admit() in db/admission.repository.ts spends it with the submission's counters).
 */
export function readFormToken(token: unknown, nowMs = Date.now()): Exclude<TokenProblem, "used"> | OnceKey {
  if (typeof token !== "string" || !token) return "missing";
  const parts = token.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION || token.length > 200) return "forged";
  const payload = parts.slice(0, 3).join(".");
  const given = Buffer.from(parts[3]);
  const expected = Buffer.from(sign(payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "forged";
  const issued = parseInt(parts[1], 36);
  if (!Number.isSafeInteger(issued)) return "forged";
  const age = nowMs - issued;
  if (age < LIMITS.formToken.minAgeSeconds * 1000) return "tooFast";
  if (age > LIMITS.formToken.maxAgeSeconds * 1000) return "tooOld";
  // Used once: the nonce's row lives as long as the token could still be accepted.
  return {
    key: `form-token:${parts[2]}`,
    at: new Date(issued),
    expiresAt: new Date(issued + LIMITS.formToken.maxAgeSeconds * 1000 + 60_000),
  };
}

const TOKEN_MESSAGES: Record<TokenProblem, string> = {
  missing: "The form's security token is missing. Please reload the page and send the form again.",
  forged: "The form's security token is not valid. Please reload the page and send the form again.",
  tooFast: "The form was sent too quickly. Please wait a moment and send it again.",
  tooOld: "The form was open too long. Please send it again.",
  used: "This form was already sent. Please reload the page to send another.",
};

/** The JSON path's refusal of a bad token (400, code formTokenInvalid: the islands fetch a fresh one and retry). */
export const tokenRefused = (problem: TokenProblem) =>
  new HttpError(400, TOKEN_MESSAGES[problem], { code: GUARD_CODES.token });

/** Whether the honeypot field holds anything, of any type (a person never sees it, so never fills it). */
export const honeypotFilled = (value: unknown) =>
  value !== undefined && value !== null && !(typeof value === "string" && value.trim() === "");

/** The honeypot's refusal on the JSON path. */
export const honeypotRefused = () =>
  new HttpError(400, "The form could not be sent. Please reload the page and try again.", {
    code: GUARD_CODES.honeypot,
  });

/**
 * JSON path: the honeypot and the token of a parsed body (whose fields the shared schema validates
 * first, so a body with a mistake does not use up its token). Throws the refusal; answers the
 * token's once-only key, which the submission's admission uses up (a token used before is refused
 * there, with `tokenRefused("used")`).
 */
export function guardJson(body: unknown): OnceKey {
  const fields = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  if (honeypotFilled(fields[HONEYPOT_FIELD])) throw honeypotRefused();
  const token = readFormToken(fields[TOKEN_FIELD]);
  if (typeof token === "string") throw tokenRefused(token);
  return token;
}
