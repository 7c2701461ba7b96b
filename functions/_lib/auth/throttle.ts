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
 *   taken), even when the refund runs after that window has ended.
 * Unknown usernames are counted the same way (they cost a bcrypt comparison too).
 */
import type { Kysely } from "kysely";
import { clearCounters, hitCounters, refundCounters } from "#db/rate-limits.repository.ts";
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
}

/** Takes a try for (username, ip), or throws 429 with Retry-After when none is left. */
export async function takeLoginTry(db: Kysely<Database>, username: string, ip: string): Promise<LoginTicket> {
  const user = username.trim().toLowerCase();
  const address = addressKey(ip);
  const { perPair, perUsername, perAddress, perPairUnderAttack } = LIMITS.login;
  const keys = {
    pair: counterKey("login-pair", `${user}\n${address}`),
    user: counterKey("login-username", user),
    address: counterKey("login-address", address),
  };
  const shared = [
    { key: keys.user, windowSeconds: perUsername.windowSeconds },
    { key: keys.address, windowSeconds: perAddress.windowSeconds },
  ];
  const at = Date.now();
  if (!rateLimitsOn()) return { pairKey: keys.pair, shared: [], at };
  const states = await hitCounters(db, [{ key: keys.pair, windowSeconds: perPair.windowSeconds }, ...shared], at);
  const pair = states.get(keys.pair)!;
  const userState = states.get(keys.user)!;
  const addressState = states.get(keys.address)!;
  const newHere = pair.estimate <= perPairUnderAttack;
  const over =
    (pair.estimate > perPair.limit && pair) ||
    (addressState.estimate > perAddress.limit && addressState) ||
    (userState.estimate > perUsername.limit && !newHere && userState);
  if (over) {
    // A refused try is not a failure: it takes its hit back, so it neither counts nor prolongs a lock.
    await refundCounters(db, [{ key: keys.pair, windowSeconds: perPair.windowSeconds }, ...shared], at);
    const minutes = Math.ceil(over.resetSeconds / 60);
    throw new HttpError(
      429,
      `Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
      {},
      { "Retry-After": String(over.resetSeconds) },
    );
  }
  return { pairKey: keys.pair, shared, at };
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

/** After a successful sign-in: the address's earlier tries for this username are forgotten. */
export async function loginSucceeded(db: Kysely<Database>, ticket: LoginTicket): Promise<void> {
  await clearCounters(db, [ticket.pairKey]);
  await refundCounters(db, ticket.shared, ticket.at);
}
