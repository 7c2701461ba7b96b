import { randomInt } from "node:crypto";
import bcrypt from "bcryptjs";
import type { Kysely } from "kysely";
import { isUniqueViolation } from "./errors.ts";
import type { Database } from "./types.ts";
import type { Role } from "../src/shared/roles.ts";
import { countUsers, createUser, findUserByUsername, setPassword, type User } from "./users.repository.ts";

const BCRYPT_COST = 12;

/** Shortest password an administrator may set. */
export const PASSWORD_MIN_LENGTH = 10;
/** bcrypt reads only the first 72 bytes; longer passwords would be silently cut. */
export const PASSWORD_MAX_BYTES = 72;

/**
 * A bcrypt hash (cost 12) of a random string nobody knows. Sign-in verifies against it when the
 * username does not exist, so an unknown user costs as long as a wrong password and timing does not
 * tell which usernames exist.
 */
export const DUMMY_HASH = "$2b$12$p9UVo8P4mIMVxKxblANx1OrOP892q3W5aMcO8ycAemvEwHSwBJpli";

/** Why `plain` cannot be an admin password, or undefined when it can. */
export function passwordProblem(plain: string): string | undefined {
  if (plain.length < PASSWORD_MIN_LENGTH) return `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (Buffer.byteLength(plain, "utf8") > PASSWORD_MAX_BYTES) {
    return `The password must be at most ${PASSWORD_MAX_BYTES} bytes (bcrypt ignores the rest).`;
  }
  return undefined;
}

/** bcrypt hash (cost 12) of a password. */
export async function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, BCRYPT_COST);
}

// A comparison is ~0.3 s of JavaScript. Run concurrently, n of them interleave and all finish after
// n × 0.3 s; one at a time, in order of arrival, the first finishes after 0.3 s and the average wait halves.
let comparing: Promise<unknown> = Promise.resolve();

/** Whether `plain` matches the bcrypt `hash`; false for a malformed hash rather than an error. */
export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  const result = comparing.then(() => bcrypt.compare(plain, hash).catch(() => false));
  comparing = result;
  return result;
}

export type EnsureAdminResult = { user: User; action: "created" | "updated" | "unchanged" };

/**
 * Makes `username` an admin with `password`: creates the user, or sets the new password — which
 * revokes the user's sessions — when it differs from the stored one.
 */
export async function ensureAdmin(
  db: Kysely<Database>,
  username: string,
  password: string,
): Promise<EnsureAdminResult> {
  const problem = passwordProblem(password);
  if (problem) throw new Error(problem);

  const existing = await findUserByUsername(db, username);
  if (!existing) {
    return { user: await createUser(db, username, await hashPassword(password)), action: "created" };
  }
  const user = { id: existing.id, username: existing.username, role: existing.role };
  if (await verifyPassword(password, existing.password)) return { user, action: "unchanged" };
  await setPassword(db, existing.id, await hashPassword(password));
  return { user, action: "updated" };
}

/**
 * Creates `username` with `role` and a random 20-character password, returned once for the inviting
 * admin to hand over in person or by phone (it is never mailed); null when the name is taken.
 */
export async function inviteUser(
  db: Kysely<Database>,
  username: string,
  role: Role,
): Promise<{ user: User; password: string } | null> {
  const password = randomPassword(20);
  try {
    return { user: await createUser(db, username, await hashPassword(password), role), password };
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

const INITIAL_ADMIN = "admin";
const PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A random password of `length` characters without look-alikes (0/O, 1/l/I), ~5.8 bits each. */
function randomPassword(length: number): string {
  return Array.from({ length }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join("");
}

/**
 * On a database without users, creates `admin` with a random 20-character password and returns the
 * credentials for the caller to show once; null when a user already exists.
 */
export async function createInitialAdminIfNone(
  db: Kysely<Database>,
): Promise<{ username: string; password: string } | null> {
  if ((await countUsers(db)) > 0) return null;
  const password = randomPassword(20);
  try {
    await createUser(db, INITIAL_ADMIN, await hashPassword(password));
  } catch (error) {
    // Another process starting at the same moment created it first; its caller shows the password.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  return { username: INITIAL_ADMIN, password };
}
