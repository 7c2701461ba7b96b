import { randomInt } from "node:crypto";
import bcrypt from "bcryptjs";
import type { Kysely } from "kysely";
import { LIMITS } from "#shared/limits.ts";
import { rateLimitsOn } from "#server/config.ts";
import { PASSWORD_RULE_MESSAGES, passwordRuleProblem } from "#shared/passwords.ts";
import { isUniqueViolation } from "./errors.ts";
import type { Database } from "./types.ts";
import { countUsers, createUser, findUserByUsername, setPassword, type User } from "./users.repository.ts";

const BCRYPT_COST = 12;

/**
 * A bcrypt hash (cost 12) of a random string nobody knows. Sign-in verifies against it when the
 * username does not exist, so an unknown user costs as long as a wrong password and timing does not
 * tell which usernames exist.
 */
export const DUMMY_HASH = "$2b$12$p9UVo8P4mIMVxKxblANx1OrOP892q3W5aMcO8ycAemvEwHSwBJpli";

/** Why `plain` cannot be an account's password (the one rule, src/shared/passwords.ts), or undefined when it can. */
export function passwordProblem(plain: string): string | undefined {
  const problem = passwordRuleProblem(plain);
  return problem ? PASSWORD_RULE_MESSAGES[problem] : undefined;
}

/** bcrypt hash (cost 12) of a password. */
export async function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, BCRYPT_COST);
}

// A comparison is ~0.3 s of JavaScript. Run concurrently, n of them interleave and all finish after
// n × 0.3 s; one at a time, the first finishes after 0.3 s. Which one runs next is taken in turn
// from each waiting address (round robin), so an address that floods waits behind itself, not in
// front of everyone: the owner, from another address, waits for at most one comparison per other
// waiting address. Each address may have `perAddress` comparisons waiting or running and the
// process `waiting` in all; past either, the caller gets a `ComparisonsBusy` before bcrypt runs.
// The bound is per process on purpose: it guards this process's CPU (the counted limits in
// PostgreSQL guard the username across instances).

/** Thrown instead of comparing when the address, or the process, already has its share waiting. */
export class ComparisonsBusy extends Error {
  constructor() {
    super("Too many sign-in attempts are being checked. Please try again in a moment.");
  }
}

export interface ComparisonBounds {
  /** Comparisons one address may have waiting or running. */
  perAddress: number;
  /** Comparisons the process may have waiting (the running one not included). */
  waiting: number;
}

/** Runs jobs one at a time, taking the next from each waiting address in turn. */
export class FairQueue {
  private readonly queues = new Map<string, (() => void)[]>();
  private readonly perAddress = new Map<string, number>();
  private waitingCount = 0;
  private running = false;
  private readonly bounds: () => ComparisonBounds;

  /** `bounds` is read at each call when it is a function. */
  constructor(bounds: ComparisonBounds | (() => ComparisonBounds)) {
    this.bounds = typeof bounds === "function" ? bounds : () => bounds;
  }

  run<T>(address: string, job: () => Promise<T>): Promise<T> {
    const mine = this.perAddress.get(address) ?? 0;
    const bounds = this.bounds();
    if (mine >= bounds.perAddress || (this.running && this.waitingCount >= bounds.waiting))
      return Promise.reject(new ComparisonsBusy());
    this.perAddress.set(address, mine + 1);
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        job()
          .then(resolve, reject)
          .finally(() => {
            const left = (this.perAddress.get(address) ?? 1) - 1;
            if (left > 0) this.perAddress.set(address, left);
            else this.perAddress.delete(address);
            this.running = false;
            this.next();
          });
      };
      const queue = this.queues.get(address) ?? [];
      queue.push(start);
      this.queues.set(address, queue);
      this.waitingCount++;
      if (!this.running) this.next();
    });
  }

  private next() {
    // A Map iterates in insertion order: the first waiting address goes, then moves to the back.
    const first = this.queues.entries().next();
    if (first.done) return;
    const [address, queue] = first.value;
    const start = queue.shift()!;
    this.queues.delete(address);
    if (queue.length > 0) this.queues.set(address, queue);
    this.waitingCount--;
    this.running = true;
    start();
  }
}

/**
 * With RATE_LIMIT=off (the browser tests, load tests) an address may have the whole process's share
 * waiting: such a run signs in from one address, several at once (three browser workers met
 * ComparisonsBusy on a right password). The process's bound, which guards its CPU, stays.
 */
const comparisons = new FairQueue(() =>
  rateLimitsOn()
    ? LIMITS.login.comparisons
    : { ...LIMITS.login.comparisons, perAddress: LIMITS.login.comparisons.waiting + 1 },
);

/**
 * Whether `plain` matches the bcrypt `hash`; false for a malformed hash rather than an error.
 * `address` is whose turn it is in the queue (the client's address); throws `ComparisonsBusy`
 * when that address or the process already has its share of comparisons waiting.
 */
export function verifyPassword(plain: string, hash: string, address = "local"): Promise<boolean> {
  return comparisons.run(address, () => bcrypt.compare(plain, hash).catch(() => false));
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
