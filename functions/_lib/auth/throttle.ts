/**
 * Login throttling that cannot lock out the owner (limits in src/shared/limits.ts):
 *
 * - each try takes a ticket first, in one statement for three counters: (username, address),
 *   username, address. Forty parallel wrong passwords from one address get exactly five bcrypt
 *   comparisons; the rest are 429 before any password is looked at, and take their hit back, so
 *   only evaluated failures count and hammering a lock does not prolong it;
 * - the username's own counter is slower and larger; past it, only an address's first few tries
 *   (perPairUnderAttack) in the window are evaluated, so a botnet guessing one username gets a few
 *   guesses per address while the owner, from an address that has not failed, still signs in after
 *   a typo;
 * - a successful sign-in forgets its (username, address) tries and takes its own try back from the
 *   username's and the address's counters, so those count failures (and tries under way);
 * - a hit is taken back from the window it was counted in (the ticket keeps the moment it was
 *   taken), even when the refund runs after that window has ended;
 * - past perAccount tries an hour on the username's counter, no new address is evaluated at all:
 *   only an address where the account's password, code or passkey was right in the last
 *   knownAddressSeconds (marked by loginSucceeded) still is, within its own perPair. So a botnet of
 *   any size gets at most perAccount guesses an hour, and the owner signs in from where they have
 *   before (a new address waits for the hour to pass);
 * - second-factor codes have their own per-account counter (codesPerAccount), which a right
 *   password does not touch: only a right code clears it.
 * Unknown usernames are counted the same way (they cost a bcrypt comparison too).
 */
import type { Kysely } from "kysely";
import { clearCounters, hitCounters, readCounter, refundCounters } from "#db/rate-limits.repository.ts";
import type { Database } from "#db/types.ts";
import { LIMITS } from "#shared/limits.ts";
import { rateLimitsOn } from "#server/config.ts";
import { HttpError } from "../http/http.ts";
import { addressKey, counterKey } from "../forms/limits.ts";

export interface LoginTicket {
  /** The counter a successful sign-in clears. */
  pairKey: string;
  /** The counters a successful sign-in takes its try back from. */
  shared: { key: string; windowSeconds: number }[];
  /** When the try was counted (ms): its refunds go to that moment's windows. */
  at: number;
  /** The mark a successful sign-in leaves: this address is known to the account. */
  knownKey: string;
}

const tooManyTries = (resetSeconds: number) => {
  const minutes = Math.ceil(resetSeconds / 60);
  return new HttpError(
    429,
    `Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
    {},
    { "Retry-After": String(resetSeconds) },
  );
};

/** Takes a try for (username, ip), or throws 429 with Retry-After when none is left. */
export async function takeLoginTry(db: Kysely<Database>, username: string, ip: string): Promise<LoginTicket> {
  const user = username.trim().toLowerCase();
  const address = addressKey(ip);
  const { perPair, perUsername, perAddress, perPairUnderAttack, perAccount, knownAddressSeconds } = LIMITS.login;
  const keys = {
    pair: counterKey("login-pair", `${user}\n${address}`),
    known: counterKey("login-known", `${user}\n${address}`),
    user: counterKey("login-username", user),
    address: counterKey("login-address", address),
  };
  const shared = [
    { key: keys.user, windowSeconds: perUsername.windowSeconds },
    { key: keys.address, windowSeconds: perAddress.windowSeconds },
  ];
  const at = Date.now();
  if (!rateLimitsOn()) return { pairKey: keys.pair, shared: [], at, knownKey: keys.known };
  const states = await hitCounters(db, [{ key: keys.pair, windowSeconds: perPair.windowSeconds }, ...shared], at);
  const pair = states.get(keys.pair)!;
  const userState = states.get(keys.user)!;
  const addressState = states.get(keys.address)!;
  const newHere = pair.estimate <= perPairUnderAttack;
  // The account's cap is read on the username's counter (the same hour); the mark is read only past it.
  const capped =
    userState.estimate > perAccount.limit &&
    (await readCounter(db, keys.known, knownAddressSeconds, at)).estimate <= 0 &&
    userState;
  const over =
    (pair.estimate > perPair.limit && pair) ||
    (addressState.estimate > perAddress.limit && addressState) ||
    capped ||
    (userState.estimate > perUsername.limit && !newHere && userState);
  if (over) {
    // A refused try is not a failure: it takes its hit back, so it neither counts nor prolongs a lock.
    await refundCounters(db, [{ key: keys.pair, windowSeconds: perPair.windowSeconds }, ...shared], at);
    throw tooManyTries(over.resetSeconds);
  }
  return { pairKey: keys.pair, shared, at, knownKey: keys.known };
}

/** A try that was not evaluated after all (the comparisons were busy) takes its hits back. */
export async function loginNotEvaluated(db: Kysely<Database>, ticket: LoginTicket): Promise<void> {
  if (!rateLimitsOn()) return;
  await refundCounters(
    db,
    [{ key: ticket.pairKey, windowSeconds: LIMITS.login.perPair.windowSeconds }, ...ticket.shared],
    ticket.at,
  );
}

/**
 * After a successful sign-in: the address's earlier tries for this username are forgotten, and the
 * address is known to the account (evaluated past the account's cap) for knownAddressSeconds.
 */
export async function loginSucceeded(db: Kysely<Database>, ticket: LoginTicket): Promise<void> {
  await clearCounters(db, [ticket.pairKey]);
  await refundCounters(db, ticket.shared, ticket.at);
  if (rateLimitsOn())
    await hitCounters(db, [{ key: ticket.knownKey, windowSeconds: LIMITS.login.knownAddressSeconds }], ticket.at);
}

/** A second-factor code's try: the account's code counter, and when it was taken. */
export interface CodeTicket {
  key: string;
  at: number;
}

/**
 * Takes a code try for the account (TOTP or recovery code, at sign-in or to confirm who this is),
 * or throws 429: counted per account, so a right password in between gives no fresh tries.
 */
export async function takeCodeTry(db: Kysely<Database>, userId: number): Promise<CodeTicket> {
  const { limit, windowSeconds } = LIMITS.login.codesPerAccount;
  const ticket = { key: counterKey("login-code", String(userId)), at: Date.now() };
  if (!rateLimitsOn()) return ticket;
  const state = (await hitCounters(db, [{ key: ticket.key, windowSeconds }], ticket.at)).get(ticket.key)!;
  if (state.estimate > limit) {
    await refundCounters(db, [{ key: ticket.key, windowSeconds }], ticket.at);
    throw tooManyTries(state.resetSeconds);
  }
  return ticket;
}

/** A right code: the account's wrong codes are forgotten. */
export async function codeSucceeded(db: Kysely<Database>, ticket: CodeTicket): Promise<void> {
  await clearCounters(db, [ticket.key]);
}
