/**
 * Admin sessions: an HS256 JWT (jose) in an HttpOnly, SameSite=Strict cookie, valid 8 hours,
 * carrying the user id, the user's session version and the id of its row in admin_sessions. Every
 * request reads that row (one indexed join with the user): a session ended by its owner, an admin,
 * a password or role change is refused on its next request. Bumping the user's session version
 * (admin:create setting a password) still revokes every token at once.
 */
import { randomBytes } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import type { Kysely } from "kysely";
import { getDb } from "#db/client.ts";
import type { Database } from "#db/types.ts";
import { createSession, isSessionId, liveSession, touchSession } from "#db/sessions.repository.ts";
import { site } from "#config/site.ts";
import { jwtSecret } from "#server/config.ts";
import { HttpError } from "../http/http.ts";
import type { PanelUser } from "#shared/api/panel-language.ts";
import { isLanguage } from "#shared/languages.ts";

export const SESSION_COOKIE = `${site.slug}_session`;
export const SESSION_SECONDS = 8 * 60 * 60;

/** How often a session's "last seen" is written: at most once a minute, not on every request. */
export const LAST_SEEN_EVERY_MS = 60_000;

/**
 * Starts a session for this user at this session version: a row in admin_sessions (with where it
 * started, functions/_lib/auth/session-meta.ts) and the signed token naming it.
 */
export async function signSession(
  user: { id: number; sessionVersion: number },
  meta: { device?: string; browser?: string; place?: string } = {},
  db: Kysely<Database> = getDb(),
  { limited = false, sid = randomBytes(16).toString("base64url") }: { limited?: boolean; sid?: string } = {},
): Promise<string> {
  await createSession(db, {
    id: sid,
    userId: user.id,
    expiresAt: new Date(Date.now() + SESSION_SECONDS * 1000),
    device: meta.device ?? "",
    browser: meta.browser ?? "",
    place: meta.place ?? "",
    limited,
  });
  return new SignJWT({ v: user.sessionVersion, sid })
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
type Claims = { sub: unknown; v: unknown; sid: unknown };
const verified = new Map<string, Claims & { expires: number }>();

async function verifiedClaims(token: string): Promise<Claims | null> {
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
  const claims = { sub: payload.sub, v: payload.v, sid: payload.sid, expires: payload.exp * 1000 };
  verified.set(token, claims);
  return claims;
}

/** A new session's id (the row's key and the token's `sid`). */
export const newSessionId = (): string => randomBytes(16).toString("base64url");

/**
 * A signed-in person and the session their request came with. `limited`: the session may only set
 * up a second factor (every account must have one, and this one had none when it signed in).
 */
export type SessionUser = PanelUser & { sessionId: string; limited: boolean; steppedUpAt: Date | null };

/**
 * The signed-in person, or null: a valid signature, HS256 only, unexpired, a current version, and a
 * session row neither ended nor expired. Notes the session's use at most once a minute.
 */
export async function currentSession(db: Kysely<Database>, req: Request): Promise<SessionUser | null> {
  const token = readCookie(req, SESSION_COOKIE);
  if (!token) return null;
  const payload = await verifiedClaims(token);
  if (!payload) return null;
  const id = Number(payload.sub);
  if (!Number.isInteger(id) || typeof payload.v !== "number" || !isSessionId(payload.sid)) return null;
  const session = await liveSession(db, payload.sid);
  if (!session || session.userId !== id || session.sessionVersion !== payload.v) return null;
  if (Date.now() - session.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) await touchSession(db, payload.sid);
  const language = isLanguage(session.panelLanguage) ? session.panelLanguage : null;
  return {
    id,
    username: session.username,
    role: session.role,
    language,
    sessionId: payload.sid,
    limited: session.limited,
    steppedUpAt: session.steppedUpAt,
  };
}

/** The signed-in admin or editor as GET /api/user shows them (`setup`: a limited session), or null. */
export async function currentUser(db: Kysely<Database>, req: Request): Promise<PanelUser | null> {
  const session = await currentSession(db, req);
  if (!session) return null;
  const user: PanelUser = {
    id: session.id,
    username: session.username,
    role: session.role,
    language: session.language,
  };
  return session.limited ? { ...user, setup: true } : user;
}

/** The answer of every endpoint a limited session may not reach: it has a second factor to set up first. */
export const SETUP_REQUIRED = "Set up a second factor first: every account must have one.";
export const SETUP_REQUIRED_CODE = "secondFactorRequired";

/**
 * Anyone signed in, limited sessions included: only the endpoints that set up a second factor (and
 * GET /api/user, and logout) call this instead of requireEditor.
 */
export async function requireAccount(db: Kysely<Database>, req: Request): Promise<SessionUser> {
  const user = await currentSession(db, req);
  if (!user) throw new HttpError(401, "Authentication required");
  return user;
}

function refuseLimited(user: SessionUser): SessionUser {
  if (user.limited) throw new HttpError(403, SETUP_REQUIRED, { code: SETUP_REQUIRED_CODE });
  return user;
}

/** An editor's answer from every endpoint that is not about the site's texts. */
export const EDITOR_REFUSED = "This account may change the site's texts only.";

/**
 * The admin behind this request: a 401 answer without a session, a 403 for an editor. Every lead,
 * meeting, subscriber, availability and privacy endpoint calls this before reading anything.
 */
export async function requireAdmin(db: Kysely<Database>, req: Request): Promise<SessionUser> {
  const user = await requireAccount(db, req);
  refuseLimited(user);
  if (user.role !== "admin") throw new HttpError(403, EDITOR_REFUSED);
  return user;
}

/** Anyone signed in who may change the site's texts: an editor or an admin; 401 otherwise. */
export async function requireEditor(db: Kysely<Database>, req: Request): Promise<SessionUser> {
  return refuseLimited(await requireAccount(db, req));
}
