import type { Kysely } from "kysely";
import { isSerialId } from "./rows.ts";
import type { Database } from "./types.ts";
import type { Role } from "#shared/roles.ts";

/** An administrator, as far as anything outside this module needs to know. */
export type User = { id: number; username: string; role: Role };

/** What sign-in and session checks need: the bcrypt hash and the session version. */
export type UserCredentials = User & { password: string; sessionVersion: number; panelLanguage: string | null };

/** The user with exactly this username (case-sensitive), or undefined. */
export async function findUserByUsername(db: Kysely<Database>, username: string): Promise<UserCredentials | undefined> {
  return db
    .selectFrom("users")
    .select(["id", "username", "role", "password", "sessionVersion", "panelLanguage"])
    .where("username", "=", username)
    .executeTakeFirst();
}

/** The user with this id, or undefined. */
export async function findUserById(db: Kysely<Database>, id: number): Promise<UserCredentials | undefined> {
  if (!isSerialId(id)) return undefined;
  return db
    .selectFrom("users")
    .select(["id", "username", "role", "password", "sessionVersion", "panelLanguage"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * Creates a user from an already hashed password, an admin unless `role` says otherwise. Fails with a
 * unique violation if the name is taken.
 */
export async function createUser(
  db: Kysely<Database>,
  username: string,
  passwordHash: string,
  role: Role = "admin",
): Promise<User> {
  return db
    .insertInto("users")
    .values({ username, password: passwordHash, role })
    .returning(["id", "username", "role"])
    .executeTakeFirstOrThrow();
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

/** Every account, by name, with its role (the dashboard's list of people). */
export async function listUsers(db: Kysely<Database>): Promise<User[]> {
  return db.selectFrom("users").select(["id", "username", "role"]).orderBy("username").execute();
}

/** How many users exist. */
export async function countUsers(db: Kysely<Database>): Promise<number> {
  const { count } = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}
