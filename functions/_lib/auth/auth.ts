/**
 * Admin sessions: an HS256 JWT (jose) in an HttpOnly, SameSite=Strict cookie, valid 8 hours,
 * carrying the user id and the user's session version. Logout and password changes bump the
 * version in the database, which revokes every token issued before.
 */
import { SignJWT, jwtVerify } from "jose";
import type { Kysely } from "kysely";
import type { Database } from "#db/types.ts";
import { findUserById } from "#db/users.repository.ts";
import { site } from "#config/site.ts";
import { jwtSecret } from "#server/config.ts";
import { HttpError } from "../http/http.ts";
import type { CurrentUser } from "#shared/api/people.ts";

export const SESSION_COOKIE = `${site.slug}_session`;
export const SESSION_SECONDS = 8 * 60 * 60;

/** A signed token for this user at this session version. */
export async function signSession(user: { id: number; sessionVersion: number }): Promise<string> {
  return new SignJWT({ v: user.sessionVersion })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(user.id))
    .setIssuedAt()
    .setExpirationTime(`${SESSION_SECONDS}s`)
    .sign(jwtSecret());
}

/** Set-Cookie value for a new session; Secure whenever the request came over https. */
export function sessionCookie(token: string, req: Request): string {
  const secure = new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(req: Request): string {
  return sessionCookie("", req).replace(`Max-Age=${SESSION_SECONDS}`, "Max-Age=0");
}

function readCookie(req: Request, name: string): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return null;
}

// Checking an HS256 signature through WebCrypto costs about half a millisecond of the main thread,
// more than a whole admin list page costs the database. A token whose signature was checked is
// remembered, by its exact text, until it expires (a bounded map, oldest dropped first); the session
// version is still read from the database on every request, so logout and password changes revoke
// a remembered token at once.
const VERIFIED_MAX = 500;
const verified = new Map<string, { sub: unknown; v: unknown; expires: number }>();

async function verifiedClaims(token: string): Promise<{ sub: unknown; v: unknown } | null> {
  const known = verified.get(token);
  if (known && known.expires > Date.now()) return known;
  verified.delete(token);
  let payload;
  try {
    ({ payload } = await jwtVerify(token, jwtSecret(), { algorithms: ["HS256"] }));
  } catch {
    return null;
  }
  if (typeof payload.exp !== "number") return null;
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  const claims = { sub: payload.sub, v: payload.v, expires: payload.exp * 1000 };
  verified.set(token, claims);
  return claims;
}

/** The signed-in admin, or null: a valid signature, HS256 only, unexpired, and a current version. */
export async function currentUser(db: Kysely<Database>, req: Request): Promise<CurrentUser | null> {
  const token = readCookie(req, SESSION_COOKIE);
  if (!token) return null;
  const payload = await verifiedClaims(token);
  if (!payload) return null;
  const id = Number(payload.sub);
  if (!Number.isInteger(id) || typeof payload.v !== "number") return null;
  const user = await findUserById(db, id);
  if (!user || user.sessionVersion !== payload.v) return null;
  return { id: user.id, username: user.username, role: user.role };
}

/** An editor's answer from every endpoint that is not about the site's texts. */
export const EDITOR_REFUSED = "This account may change the site's texts only.";

/**
 * The admin behind this request: a 401 answer without a session, a 403 for an editor. Every lead,
 * meeting, subscriber, availability and privacy endpoint calls this before reading anything.
 */
export async function requireAdmin(db: Kysely<Database>, req: Request): Promise<CurrentUser> {
  const user = await currentUser(db, req);
  if (!user) throw new HttpError(401, "Authentication required");
  if (user.role !== "admin") throw new HttpError(403, EDITOR_REFUSED);
  return user;
}

/** Anyone signed in who may change the site's texts: an editor or an admin; 401 otherwise. */
export async function requireEditor(db: Kysely<Database>, req: Request): Promise<CurrentUser> {
  const user = await currentUser(db, req);
  if (!user) throw new HttpError(401, "Authentication required");
  return user;
}
