import { type Kysely, sql } from "kysely";
import { isSerialId } from "./rows.ts";
import type { Database } from "./types.ts";
import type { Role } from "#shared/roles.ts";
import type { AccountInfo } from "#shared/api/security.ts";
import { FIRST_CONSULTANT_ID } from "#shared/consultants.ts";
import { ensureFirstConsultant } from "./consultants.repository.ts";

/** An administrator, as far as anything outside this module needs to know. */
export type User = { id: number; username: string; role: Role };

/** What sign-in and session checks need: the bcrypt hash and the session version. */
export type UserCredentials = User & {
  password: string;
  sessionVersion: number;
  panelLanguage: string | null;
  /** Where security notices go; null: none are sent. */
  email: string | null;
};

/**
 * The user of this username, whatever its case (usernames are unique regardless of case: the index
 * users_username_lower_key), or undefined.
 */
export async function findUserByUsername(db: Kysely<Database>, username: string): Promise<UserCredentials | undefined> {
  return db
    .selectFrom("users")
    .select(["id", "username", "role", "password", "sessionVersion", "panelLanguage", "email"])
    .where(sql`lower(username)`, "=", username.toLowerCase())
    .executeTakeFirst();
}

/** The user with this id, or undefined. */
export async function findUserById(db: Kysely<Database>, id: number): Promise<UserCredentials | undefined> {
  if (!isSerialId(id)) return undefined;
  return db
    .selectFrom("users")
    .select(["id", "username", "role", "password", "sessionVersion", "panelLanguage", "email"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * Creates a user from an already hashed password, an admin unless `role` says otherwise. Fails with a
 * unique violation if the name is taken. An install's first admin also becomes its first consultant
 * (FIRST_CONSULTANT_ID), in the same transaction, so a new install can take bookings at once.
 */
export async function createUser(
  db: Kysely<Database>,
  username: string,
  passwordHash: string,
  role: Role = "admin",
): Promise<User> {
  const create = async (trx: Kysely<Database>) => {
    const user = await trx
      .insertInto("users")
      .values({ username, password: passwordHash, role })
      .returning(["id", "username", "role"])
      .executeTakeFirstOrThrow();
    if (user.role === "admin") await ensureFirstConsultant(trx, user.id, FIRST_CONSULTANT_ID);
    return user;
  };
  return db.isTransaction ? create(db) : db.transaction().execute(create);
}

/** Replaces the password hash and revokes every session issued before. False when there is no such user. */
export async function setPassword(db: Kysely<Database>, id: number, passwordHash: string): Promise<boolean> {
  if (!isSerialId(id)) return false;
  const result = await db
    .updateTable("users")
    .set((eb) => ({ password: passwordHash, sessionVersion: eb("sessionVersion", "+", 1) }))
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Revokes every session of the user (logout everywhere); returns the new version, undefined if no such user. */
export async function bumpSessionVersion(db: Kysely<Database>, id: number): Promise<number | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .updateTable("users")
    .set((eb) => ({ sessionVersion: eb("sessionVersion", "+", 1) }))
    .where("id", "=", id)
    .returning("sessionVersion")
    .executeTakeFirst();
  return row?.sessionVersion;
}

/** Remembers the language the user reads the admin panel in (null: the browser's). False when there is no such user. */
export async function setPanelLanguage(db: Kysely<Database>, id: number, language: string | null): Promise<boolean> {
  if (!isSerialId(id)) return false;
  const result = await db.updateTable("users").set({ panelLanguage: language }).where("id", "=", id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sets the address the user's security notices go to (null: none). False when there is no such user. */
export async function setEmail(db: Kysely<Database>, id: number, email: string | null): Promise<boolean> {
  if (!isSerialId(id)) return false;
  const result = await db.updateTable("users").set({ email }).where("id", "=", id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Every account, by name, with its role, its last sign-in (the newest `signin.success` of the audit
 * record, kept a year; null when it holds none) and its second factors: TOTP on, and how many passkeys.
 */
export async function listUsers(db: Kysely<Database>): Promise<AccountInfo[]> {
  const rows = await db
    .selectFrom("users as u")
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("auditLog")
          .select(["actorId", sql<Date>`max(at)`.as("at")])
          .where("action", "=", "signin.success")
          .groupBy("actorId")
          .as("s"),
      (join) => join.onRef("s.actorId", "=", "u.id"),
    )
    .select((eb) => [
      "u.id",
      "u.username",
      "u.role",
      "s.at",
      eb("u.totpSecret", "is not", null).as("totp"),
      eb
        .selectFrom("passkeys as p")
        .select((count) => count.fn.countAll<string>().as("n"))
        .whereRef("p.userId", "=", "u.id")
        .as("passkeys"),
    ])
    .orderBy("u.username")
    .execute();
  return rows.map(({ at, totp, passkeys, ...user }) => ({
    ...user,
    totp: Boolean(totp),
    lastSignInAt: at ? new Date(at).toISOString() : null,
    passkeys: Number(passkeys ?? 0),
  }));
}

/** How many users exist. */
export async function countUsers(db: Kysely<Database>): Promise<number> {
  const { count } = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Thrown instead of demoting or removing the last admin: the panel must always have one. */
export class LastAdminError extends Error {
  constructor() {
    super("The last admin cannot be removed or made an editor.");
  }
}

/** Thrown instead of removing an account that is a consultant with meetings: hand them to a colleague first. */
export class ConsultantWithMeetingsError extends Error {
  constructor() {
    super(
      "This account is a consultant with meetings. Hand the meetings to a colleague, or make the consultant inactive.",
    );
  }
}

/**
 * Locks every admin row for the rest of the transaction and answers how many there are. Two admins
 * demoting each other at once queue here: the second reads the count after the first's change.
 */
async function lockAdmins(trx: Kysely<Database>): Promise<number[]> {
  const rows = await trx.selectFrom("users").select("id").where("role", "=", "admin").forUpdate().execute();
  return rows.map((r) => r.id);
}

/**
 * Gives a user another role and ends their sessions but `keep` (the acting admin's own, when they
 * change themselves), in one transaction; undefined when there is no such user. LastAdminError
 * when it would leave no admin.
 */
export async function changeRole(
  db: Kysely<Database>,
  id: number,
  role: Role,
  keep?: string,
): Promise<(User & { previous: Role }) | undefined> {
  if (!isSerialId(id)) return undefined;
  return db.transaction().execute(async (trx) => {
    const admins = await lockAdmins(trx);
    const user = await trx
      .selectFrom("users")
      .select(["id", "username", "role"])
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!user) return undefined;
    if (user.role === role) return { ...user, previous: user.role };
    if (user.role === "admin" && admins.length <= 1) throw new LastAdminError();
    await trx.updateTable("users").set({ role }).where("id", "=", id).execute();
    let ending = trx
      .updateTable("adminSessions")
      .set({ endedAt: new Date() })
      .where("userId", "=", id)
      .where("endedAt", "is", null);
    if (keep) ending = ending.where("id", "!=", keep);
    await ending.execute();
    return { id: user.id, username: user.username, role, previous: user.role };
  });
}

/** Removes an account (its sessions go with it); undefined when there is none. LastAdminError for the last admin. */
export async function removeUser(db: Kysely<Database>, id: number): Promise<User | undefined> {
  if (!isSerialId(id)) return undefined;
  return db.transaction().execute(async (trx) => {
    const admins = await lockAdmins(trx);
    const user = await trx
      .selectFrom("users")
      .select(["id", "username", "role"])
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!user) return undefined;
    if (user.role === "admin" && admins.length <= 1) throw new LastAdminError();
    const meetings = await trx
      .selectFrom("meetings")
      .innerJoin("consultants", "consultants.id", "meetings.consultantId")
      .select("meetings.id")
      .where("consultants.userId", "=", id)
      .limit(1)
      .executeTakeFirst();
    if (meetings) throw new ConsultantWithMeetingsError();
    await trx.deleteFrom("users").where("id", "=", id).execute();
    return user;
  });
}

/**
 * Sets a user's own new password and ends their other sessions (all but `keep`, the one asking), in
 * one transaction. The session version is kept, so the asking session stays signed in.
 */
export async function changeOwnPassword(
  db: Kysely<Database>,
  id: number,
  passwordHash: string,
  keep: string,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password: passwordHash }).where("id", "=", id).execute();
    const ended = await trx
      .updateTable("adminSessions")
      .set({ endedAt: new Date() })
      .where("userId", "=", id)
      .where("endedAt", "is", null)
      .where("id", "!=", keep)
      .executeTakeFirst();
    return Number(ended.numUpdatedRows);
  });
}
