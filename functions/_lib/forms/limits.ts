/**
 * The abuse limits of the public forms (numbers in src/shared/limits.ts), counted in PostgreSQL by
 * db/rate-limits.repository.ts. A real visitor never loses an enquiry to them: over a soft limit the
 * enquiry is stored and the company told, only the visitor's acknowledgement is skipped; only a
 * blatant flood is refused (429, Retry-After, a code the forms translate).
 */
import { createHmac } from "node:crypto";
import { isIP } from "node:net";
import type { Kysely } from "kysely";
import { admit, type Admission, type AdmissionRequest, type OnceKey } from "#db/admission.repository.ts";
import {
  hitCounters,
  lockEmail,
  normaliseEmail,
  normaliseMailbox,
  pendingMeetingsFor,
  readCounter,
  type CounterState,
} from "#db/rate-limits.repository.ts";
import type { Database } from "#db/types.ts";
import { LIMITS } from "#shared/limits.ts";
import { guardKey, rateLimitsOn } from "#server/config.ts";
import type { AdminAlertsAnswer } from "#shared/api/stats.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";
import { HttpError } from "../http/http.ts";

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

/**
 * What a submission's admission decided: its form token was used before (nothing was counted), or
 * whether the visitor's acknowledgement goes out, with the id reserved for its record (when asked).
 * Past the flood limit it throws 429 instead.
 */
export type SubmissionVerdict =
  { tokenUsed: true } | { tokenUsed: false; acknowledge: boolean; id: number | null; at: Date };

const breakerHit = () => ({ key: BREAKER_KEY, windowSeconds: LIMITS.breaker.windowSeconds });

const breakerOk = (states: Map<string, CounterState>) =>
  (states.get(BREAKER_KEY)?.estimate ?? 0) <= LIMITS.breaker.limit;

/** Runs the admission; 429 when its gate refused. */
async function verdictOf(
  db: Kysely<Database>,
  request: AdmissionRequest,
  acknowledge: (admitted: Extract<Admission, { tokenUsed: false }>) => boolean,
): Promise<SubmissionVerdict> {
  const admitted = await admit(db, request);
  if (admitted.tokenUsed) return admitted;
  if (admitted.refusedBy) throw tooMany(admitted.refusedBy);
  return { tokenUsed: false, acknowledge: acknowledge(admitted), id: admitted.id, at: admitted.at };
}

/**
 * Before an enquiry is stored, in one statement: its form token used up; then 429 past the flood
 * limit of its address; otherwise whether to acknowledge it (the address under its soft limit, the
 * recipient not acknowledged in the last 24 hours, the breaker not tripped) and its reserved id.
 */
export async function enquiryVerdict(
  db: Kysely<Database>,
  { ip, email, token }: { ip: string; email: string; token: OnceKey },
): Promise<SubmissionVerdict> {
  if (!rateLimitsOn()) return verdictOf(db, { once: token, reserveIdOf: "enquiries" }, () => true);
  const { soft, flood, windowSeconds } = LIMITS.enquiryPerAddress;
  const recipientKey = counterKey("enquiry-acknowledgement", normaliseEmail(email));
  return verdictOf(
    db,
    {
      once: token,
      gate: { key: counterKey("enquiry-address", addressKey(ip)), windowSeconds, refuseAbove: flood, softAbove: soft },
      following: [
        // Over the soft limit the recipient is not acknowledged, so it is not counted either.
        { key: recipientKey, windowSeconds: LIMITS.acknowledgementPerRecipient.windowSeconds, onlyUnderSoft: true },
        breakerHit(),
      ],
      reserveIdOf: "enquiries",
    },
    ({ underSoft, states }) =>
      underSoft &&
      (states.get(recipientKey)?.estimate ?? 0) <= LIMITS.acknowledgementPerRecipient.limit &&
      breakerOk(states),
  );
}

/**
 * Before a booking is stored, in one statement: its form token used up; then 429 past the bookings
 * of its address (each holds a slot). Its acknowledgement (with the invite) pauses only while the
 * breaker is tripped; the pending meetings per email address (checked in the booking's
 * transaction) bound the rest.
 */
export async function bookingVerdict(
  db: Kysely<Database>,
  { ip, token }: { ip: string; token: OnceKey },
): Promise<SubmissionVerdict> {
  if (!rateLimitsOn()) return verdictOf(db, { once: token }, () => true);
  const { limit, windowSeconds } = LIMITS.bookingPerAddress;
  const gate = { key: counterKey("booking-address", addressKey(ip)), windowSeconds, refuseAbove: limit };
  return verdictOf(db, { once: token, gate, following: [breakerHit()] }, ({ states }) => breakerOk(states));
}

/** 429 signUpsPaused: the breaker is tripped, so no sign-up is taken (nor its confirmation mailed) until it falls back. */
const signUpsPaused = (state: CounterState) =>
  new HttpError(
    429,
    `Sign-ups are paused for a few minutes. Please try again in ${wait(state.resetSeconds)}.`,
    { code: GUARD_CODES.paused },
    { "Retry-After": String(state.resetSeconds) },
  );

/**
 * Before a newsletter sign-up is stored, in one statement: its form token used up; then 429 past the
 * sign-ups of its address; otherwise its mailbox counted (normaliseMailbox: one person's spellings
 * count together), and 429 signUpsPaused when the breaker is tripped. `acknowledge` says whether
 * its confirmation may be mailed: the mailbox is within LIMITS.newsletterConfirmationPerMailbox.
 */
export async function newsletterVerdict(
  db: Kysely<Database>,
  { ip, email, token }: { ip: string; email: string; token: OnceKey },
): Promise<SubmissionVerdict> {
  if (!rateLimitsOn()) return verdictOf(db, { once: token }, () => true);
  const { limit, windowSeconds } = LIMITS.newsletterPerAddress;
  const gate = { key: counterKey("newsletter-address", addressKey(ip)), windowSeconds, refuseAbove: limit };
  const mailbox = counterKey("newsletter-mailbox", normaliseMailbox(email));
  const perMailbox = LIMITS.newsletterConfirmationPerMailbox;
  const following = [breakerHit(), { key: mailbox, windowSeconds: perMailbox.windowSeconds }];
  return verdictOf(db, { once: token, gate, following }, ({ states }) => {
    if (!breakerOk(states)) throw signUpsPaused(states.get(BREAKER_KEY)!);
    return (states.get(mailbox)?.estimate ?? 0) <= perMailbox.limit;
  });
}

/**
 * Inside a manage-link change's transaction (a move or a cancellation), just before the change: one
 * change counted for the meeting and the client address; 429 (code tooManyChanges, Retry-After) past
 * either limit. The hits are in the caller's transaction, so a refused or failed change (429, a slot
 * taken) counts nothing and hammering does not prolong a wait. After the commit, `manageChangeDone`
 * counts it for the breaker.
 */
export async function takeManageChange(
  trx: Kysely<Database>,
  { meetingId, ip }: { meetingId: number; ip: string },
): Promise<void> {
  if (!rateLimitsOn()) return;
  const { perMeeting, perAddress } = LIMITS.manageChanges;
  const meeting = { key: counterKey("manage-meeting", String(meetingId)), ...perMeeting };
  const address = { key: counterKey("manage-address", addressKey(ip)), ...perAddress };
  const states = await hitCounters(trx, [
    { key: meeting.key, windowSeconds: meeting.windowSeconds },
    { key: address.key, windowSeconds: address.windowSeconds },
  ]);
  const over = [meeting, address]
    .map((rate) => ({ rate, state: states.get(rate.key)! }))
    .find(({ rate, state }) => state.estimate > rate.limit);
  if (!over) return;
  throw new HttpError(
    429,
    GUARD_CODES.tooManyChanges,
    { code: GUARD_CODES.tooManyChanges },
    { "Retry-After": String(over.state.resetSeconds) },
  );
}

/**
 * A manage-link change, committed, counted by the breaker (after the commit, so the breaker's one row
 * is never held locked through another transaction).
 */
export async function manageChangeDone(db: Kysely<Database>): Promise<void> {
  if (rateLimitsOn()) await hitCounters(db, [breakerHit()]);
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
