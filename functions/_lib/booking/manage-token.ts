/**
 * The visitor's manage link: an HS256 JWT (jose) naming one meeting and the manage version it was
 * issued at, valid until the meeting starts. Its key is derived from JWT_SECRET for this purpose
 * alone (HMAC-SHA256 over a label), so an admin session token is never a manage token, nor the
 * other way round. The link carries it in the URL fragment, which browsers never send to a server
 * or in a Referer.
 */
import { createHmac } from "node:crypto";
import { SignJWT, jwtVerify, errors } from "jose";
import { jwtSecret } from "#server/config.ts";
import { now } from "#server/office.ts";
import { site } from "#config/site.ts";
import { zonedInstant } from "#shared/dates.ts";
import type { Language } from "#shared/languages.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { HttpError } from "../http/http.ts";

const AUDIENCE = "meeting-manage";

/** The manage-link key: JWT_SECRET through HMAC-SHA256 with this purpose's label (microseconds; not cached). */
const key = (): Uint8Array => createHmac("sha256", jwtSecret()).update("meeting manage link v1").digest();

/** The meeting fields a token is made from. */
export interface TokenSubject {
  id: number;
  manageVersion: number;
  date: string;
  time: string;
}

/** A token for this meeting at its current manage version, expiring when the meeting starts. */
export async function signManageToken(meeting: TokenSubject): Promise<string> {
  const start = zonedInstant(meeting.date, meeting.time, OFFICE_TIME_ZONE);
  return new SignJWT({ v: meeting.manageVersion })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(meeting.id))
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now().getTime() / 1000))
    .setExpirationTime(Math.floor(start.getTime() / 1000))
    .sign(key());
}

/** The page a manage link opens, in the visitor's language. */
export async function manageUrl(meeting: TokenSubject & { language: Language }): Promise<string> {
  return `${site.url}/${meeting.language}/meeting/#${await signManageToken(meeting)}`;
}

/**
 * The meeting and version a token names. A token that is not ours, altered, or for another
 * purpose is 403 `linkInvalid`; one past its meeting's start is 410 `linkExpired`.
 */
export async function verifyManageToken(token: string | null): Promise<{ meetingId: number; version: number }> {
  if (!token || token.length > 1000) throw new HttpError(403, "linkInvalid");
  try {
    const { payload } = await jwtVerify(token, key(), {
      algorithms: ["HS256"],
      audience: AUDIENCE,
      currentDate: now(),
      requiredClaims: ["sub", "exp", "v"],
    });
    const meetingId = Number(payload.sub);
    if (!Number.isInteger(meetingId) || meetingId < 1 || typeof payload.v !== "number") throw new Error("claims");
    return { meetingId, version: payload.v };
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new HttpError(410, "linkExpired");
    throw new HttpError(403, "linkInvalid");
  }
}

/** The token of a request: `Authorization: Bearer <token>`. */
export function bearerToken(req: Request): string | null {
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(req.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}
