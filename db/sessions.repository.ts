import { type Kysely, sql } from "kysely";
import { prepare } from "./prepared.ts";
import { isSerialId } from "./rows.ts";
import type { Database } from "./types.ts";
import type { Role } from "#shared/roles.ts";

/** A session as its lists show it. */
export interface SessionRow {
  id: string;
  userId: number;
  username: string;
  createdAt: Date;
  lastSeenAt: Date;
  device: string;
  browser: string;
  place: string;
}

/** What a request's check needs: the live session's user and when it was last seen. */
export interface LiveSession {
  userId: number;
  username: string;
  role: Role;
  sessionVersion: number;
  /** The panel language the person chose (a language code), or null. */
  panelLanguage: string | null;
  lastSeenAt: Date;
  /** May only set up a second factor (and sign out). */
  limited: boolean;
  /** When the person last proved again who they are in this session (functions/_lib/auth/step-up.ts). */
  steppedUpAt: Date | null;
}

const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;
/** Whether this could be a session id at all (a token's claim is outside data until checked). */
export const isSessionId = (value: unknown): value is string => typeof value === "string" && SESSION_ID.test(value);

export async function createSession(
  db: Kysely<Database>,
  session: {
    id: string;
    userId: number;
    expiresAt: Date;
    device: string;
    browser: string;
    place: string;
    limited?: boolean;
  },
): Promise<void> {
  await db.insertInto("adminSessions").values(session).execute();
}

// Every signed-in request runs it: compiled once (db/prepared.ts).
const liveSessionStatement = prepare<Database, { id: string }, LiveSession>(["id"], (db, { id }) =>
  db
    .selectFrom("adminSessions as s")
    .innerJoin("users as u", "u.id", "s.userId")
    .select([
      "s.userId",
      "u.username",
      "u.role",
      "u.sessionVersion",
      "u.panelLanguage",
      "s.lastSeenAt",
      "s.limited",
      "s.steppedUpAt",
    ])
    .where("s.id", "=", id)
    .where("s.endedAt", "is", null)
    .where("s.expiresAt", ">", sql<Date>`now()`),
);

/** The user of a session that has neither ended nor expired, or undefined: one indexed read. */
export async function liveSession(db: Kysely<Database>, id: string): Promise<LiveSession | undefined> {
  if (!isSessionId(id)) return undefined;
  const [row] = await liveSessionStatement(db, { id });
  return row;
}

/** Lifts a session's limit once its person has set up a second factor. */
export async function unlimitSession(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable("adminSessions").set({ limited: false }).where("id", "=", id).execute();
}

/** Notes that the session's person proved again who they are, at `at` (the server's clock). */
export async function recordStepUp(db: Kysely<Database>, id: string, at: Date): Promise<void> {
  await db.updateTable("adminSessions").set({ steppedUpAt: at }).where("id", "=", id).execute();
}

/**
 * What the user's earlier sign-ins (sessions other than `except`, live or not, still kept) say of
 * this one: whether one came from the same device and browser, and whether one came from the same
 * place (network prefix, with the country when known). The User-Agent is the client's to choose,
 * the network is not: a known browser from an unknown network is news to the owner too.
 */
export async function knownSignIn(
  db: Kysely<Database>,
  userId: number,
  meta: { device: string; browser: string; place: string },
  except: string,
): Promise<{ device: boolean; network: boolean }> {
  const row = await db
    .selectFrom("adminSessions")
    .select([
      sql<boolean>`bool_or(device = ${meta.device} AND browser = ${meta.browser})`.as("device"),
      sql<boolean>`bool_or(place = ${meta.place})`.as("network"),
    ])
    .where("userId", "=", userId)
    .where("id", "!=", except)
    .executeTakeFirst();
  return { device: Boolean(row?.device), network: Boolean(row?.network) };
}

/** Notes that the session was used now (callers do this at most once a minute per session). */
export async function touchSession(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable("adminSessions")
    .set({ lastSeenAt: sql`now()` })
    .where("id", "=", id)
    .execute();
}

/** The live sessions, newest use first: one user's, or everyone's when `userId` is undefined. */
export async function listSessions(db: Kysely<Database>, userId?: number): Promise<SessionRow[]> {
  let query = db
    .selectFrom("adminSessions as s")
    .innerJoin("users as u", "u.id", "s.userId")
    .select(["s.id", "s.userId", "u.username", "s.createdAt", "s.lastSeenAt", "s.device", "s.browser", "s.place"])
    .where("s.endedAt", "is", null)
    .where("s.expiresAt", ">", sql<Date>`now()`)
    .orderBy("s.lastSeenAt", "desc")
    .orderBy("s.id");
  if (userId !== undefined) query = query.where("s.userId", "=", userId);
  return query.execute();
}

/**
 * Ends one live session; with `userId`, only if it is that user's. Returns the ended session's user
 * id, or undefined when there was no such live session.
 */
export async function endSession(db: Kysely<Database>, id: string, userId?: number): Promise<number | undefined> {
  if (!isSessionId(id)) return undefined;
  let query = db
    .updateTable("adminSessions")
    .set({ endedAt: sql`now()` })
    .where("id", "=", id)
    .where("endedAt", "is", null);
  if (userId !== undefined) query = query.where("userId", "=", userId);
  const row = await query.returning("userId").executeTakeFirst();
  return row?.userId;
}

/** Ends every live session of a user but `keep` (the one making the change); returns how many ended. */
export async function endSessionsOf(db: Kysely<Database>, userId: number, keep?: string): Promise<number> {
  if (!isSerialId(userId)) return 0;
  let query = db
    .updateTable("adminSessions")
    .set({ endedAt: sql`now()` })
    .where("userId", "=", userId)
    .where("endedAt", "is", null);
  if (keep) query = query.where("id", "!=", keep);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes sessions that expired or ended before `before` (the retention run); returns how many. */
export async function deleteOldSessions(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom("adminSessions")
    .where((eb) => eb.or([eb("expiresAt", "<", before), eb("endedAt", "<", before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
