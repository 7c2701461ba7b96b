/**
 * The abuse limits of the public forms (numbers in src/config/limits.ts), counted in PostgreSQL by
 * db/rate-limits.repository.ts. A real visitor never loses an enquiry to them: over a soft limit the
 * enquiry is stored and the company told, only the visitor's acknowledgement is skipped; only a
 * blatant flood is refused (429, Retry-After, a code the forms translate).
 */
import { createHmac } from "node:crypto";
import { isIP } from "node:net";
import type { Kysely } from "kysely";
import {
  hitCounters,
  lockEmail,
  normaliseEmail,
  pendingMeetingsFor,
  readCounter,
  type CounterState,
} from "../../db/rate-limits.repository.ts";
import type { Database } from "../../db/types.ts";
import { LIMITS } from "../../src/config/limits.ts";
import { guardKey, rateLimitsOn } from "../../src/config/server.ts";
import type { AdminAlertsAnswer } from "../../src/shared/api.ts";
import { GUARD_CODES } from "../../src/shared/form-guard.ts";
import { HttpError } from "./http.ts";

/**
 * The address a limit counts: an IPv4 address as it is, an IPv6 address by its /64 (one household
 * or server gets a whole /64, so counting single IPv6 addresses would count nothing).
 */
export function addressKey(ip: string): string {
  const address = ip.trim().replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::1.2.3.4) is two groups; only the first four groups matter here.
  const groups = address.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** A counter's key: its kind and an HMAC of its subject, so no address or username is stored in clear. */
export function counterKey(kind: string, subject: string): string {
  return `${kind}:${createHmac("sha256", guardKey()).update(`${kind}\n${subject}`).digest("base64url").slice(0, 27)}`;
}

const BREAKER_KEY = "breaker:submissions";

/** "45 minutes", "3 hours": how long until a window ends, for the English message (the header says it exactly). */
const wait = (seconds: number) =>
  seconds > 90 * 60 ? `${Math.ceil(seconds / 3600)} hours` : `${Math.max(1, Math.ceil(seconds / 60))} minutes`;

const tooMany = (state: CounterState) =>
  new HttpError(
    429,
    `Too many submissions from your network. Please try again in ${wait(state.resetSeconds)}.`,
    { code: GUARD_CODES.tooMany },
    { "Retry-After": String(state.resetSeconds) },
  );

/** What the counters decided about a stored submission. */
export interface SubmissionVerdict {
  /** Whether the visitor's acknowledgement goes out. */
  acknowledge: boolean;
}

/** A counter's state as hitCounters answered it (every hit key is answered; a missing one counts as nothing). */
const counted = (state: CounterState | undefined) => state ?? { key: "", current: 0, estimate: 0, resetSeconds: 1 };

/**
 * Before an enquiry is stored: 429 past the flood limit of its address; otherwise whether to
 * acknowledge it (the address under its soft limit, the recipient not acknowledged in the last
 * 24 hours, the breaker not tripped).
 */
export async function enquiryVerdict(db: Kysely<Database>, ip: string, email: string): Promise<SubmissionVerdict> {
  if (!rateLimitsOn()) return { acknowledge: true };
  const { soft, flood, windowSeconds } = LIMITS.enquiryPerAddress;
  const addressHit = { key: counterKey("enquiry-address", addressKey(ip)), windowSeconds };
  const address = counted((await hitCounters(db, [addressHit])).get(addressHit.key));
  if (address.estimate > flood) throw tooMany(address);
  const underSoft = address.estimate <= soft;
  const recipient = {
    key: counterKey("enquiry-acknowledgement", normaliseEmail(email)),
    windowSeconds: LIMITS.acknowledgementPerRecipient.windowSeconds,
    by: underSoft ? 1 : 0,
  };
  const states = await hitCounters(db, [recipient, { key: BREAKER_KEY, windowSeconds: LIMITS.breaker.windowSeconds }]);
  const recipientOk = counted(states.get(recipient.key)).estimate <= LIMITS.acknowledgementPerRecipient.limit;
  const breakerOk = counted(states.get(BREAKER_KEY)).estimate <= LIMITS.breaker.limit;
  return { acknowledge: underSoft && recipientOk && breakerOk };
}

/**
 * Before a booking is stored: 429 past the bookings of its address (each holds a slot). Its
 * acknowledgement (with the invite) pauses only while the breaker is tripped; the pending
 * meetings per email address (checked in the booking's transaction) bound the rest.
 */
export async function bookingVerdict(db: Kysely<Database>, ip: string): Promise<SubmissionVerdict> {
  if (!rateLimitsOn()) return { acknowledge: true };
  const { limit, windowSeconds } = LIMITS.bookingPerAddress;
  const addressHit = { key: counterKey("booking-address", addressKey(ip)), windowSeconds };
  const address = counted((await hitCounters(db, [addressHit])).get(addressHit.key));
  if (address.estimate > limit) throw tooMany(address);
  return { acknowledge: await breakerAllows(db) };
}

/** Before a newsletter sign-up is stored: 429 past the sign-ups of its address. */
export async function newsletterVerdict(db: Kysely<Database>, ip: string): Promise<SubmissionVerdict> {
  if (!rateLimitsOn()) return { acknowledge: true };
  const { limit, windowSeconds } = LIMITS.newsletterPerAddress;
  const addressHit = { key: counterKey("newsletter-address", addressKey(ip)), windowSeconds };
  const address = counted((await hitCounters(db, [addressHit])).get(addressHit.key));
  if (address.estimate > limit) throw tooMany(address);
  return { acknowledge: await breakerAllows(db) };
}

/** Counts one accepted submission towards the breaker; false while it is tripped. */
async function breakerAllows(db: Kysely<Database>): Promise<boolean> {
  const states = await hitCounters(db, [{ key: BREAKER_KEY, windowSeconds: LIMITS.breaker.windowSeconds }]);
  return counted(states.get(BREAKER_KEY)).estimate <= LIMITS.breaker.limit;
}

/**
 * Inside a booking's transaction: 429 (code tooManyPendingMeetings) when the email address already
 * has the most pending meetings allowed. Holds a lock on the address until the transaction ends,
 * so two bookings for it cannot both see room for one more.
 */
export async function assertRoomForBooking(trx: Kysely<Database>, email: string, today: string): Promise<void> {
  if (!rateLimitsOn()) return;
  await lockEmail(trx, email);
  if ((await pendingMeetingsFor(trx, email, today)) < LIMITS.pendingMeetingsPerEmail) return;
  throw new HttpError(
    429,
    "This email address already has meetings waiting for confirmation. We will contact you about them soon.",
    { code: GUARD_CODES.tooManyPending },
    { "Retry-After": String(24 * 60 * 60) },
  );
}

/** The breaker's state for the admin dashboard's banner. */
export async function breakerStatus(db: Kysely<Database>): Promise<AdminAlertsAnswer["data"]["breaker"]> {
  const { limit, windowSeconds } = LIMITS.breaker;
  const state = await readCounter(db, BREAKER_KEY, windowSeconds);
  const submissions = Math.round(state.estimate);
  return { tripped: rateLimitsOn() && state.estimate > limit, submissions, limit, windowMinutes: windowSeconds / 60 };
}
