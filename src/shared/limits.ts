/**
 * Every abuse limit of the public forms and the admin login, in one place (docs/operator.md's "Limits and bot traps"
 * table lists them). Counted in PostgreSQL (db/rate-limits.repository.ts), so they hold across
 * function instances; `RATE_LIMIT=off` (server/config.ts) switches the counted limits off for
 * load tests and benchmarks. To change a limit, change it here.
 *
 * Two kinds of limit: over a `soft` one a submission is still stored and the company still told,
 * only the visitor's acknowledgement email is skipped (a real person never loses an enquiry); over
 * a `flood` one the answer is 429 with Retry-After and a translated message, and nothing is stored.
 */

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A count allowed per window (sliding: see db/rate-limits.repository.ts). */
export interface Rate {
  limit: number;
  windowSeconds: number;
}

export const LIMITS = {
  /**
   * Counted page views per client address: past it views are silently not counted (the answer is
   * the same), so a script cannot fill the Sources view. A person reading pages stays far below.
   */
  viewsPerAddress: { limit: 60, windowSeconds: MINUTE } satisfies Rate,
  /** Enquiries per client address (IPv4, or an IPv6 /64). */
  enquiryPerAddress: { soft: 5, flood: 20, windowSeconds: HOUR },
  /** Bookings per client address: each holds a slot, so over this the answer is 429. */
  bookingPerAddress: { limit: 3, windowSeconds: DAY } satisfies Rate,
  /** Meetings still pending (not confirmed, today or later) per email address; one more is 429. */
  pendingMeetingsPerEmail: 2,
  /** Newsletter sign-ups per client address. */
  newsletterPerAddress: { limit: 10, windowSeconds: HOUR } satisfies Rate,
  /**
   * Newsletter sign-ups per mailbox (lower case, `+tag` removed, Gmail's dots removed: normaliseMailbox
   * in db/rate-limits.repository.ts) that may mail a confirmation. Past it the sign-up is still
   * recorded and answered as always (202, which never tells whether an address signed up before),
   * without an email. Counted in the sign-up's admission, so parallel spellings each see their own count.
   */
  newsletterConfirmationPerMailbox: { limit: 3, windowSeconds: DAY } satisfies Rate,
  /**
   * Changes (moves and cancellations) through a visitor's manage link; each sends an email to the
   * company and one to the visitor. Past either, the answer is 429 and nothing changes. A refused
   * change is not counted. Each change also counts towards the breaker (it still mails: the
   * visitor's calendar must hold the new time).
   */
  manageChanges: {
    /** Per meeting, whichever link of it is used. */
    perMeeting: { limit: 5, windowSeconds: DAY } satisfies Rate,
    /** Per client address, over all the meetings it manages. */
    perAddress: { limit: 10, windowSeconds: HOUR } satisfies Rate,
  },
  /** Acknowledgements of enquiries to one recipient (normalised address); past it, skipped. */
  acknowledgementPerRecipient: { limit: 1, windowSeconds: DAY } satisfies Rate,
  /**
   * The circuit breaker: public submissions (enquiries, bookings, sign-ups, manage-link changes) from all addresses
   * together. Past it, acknowledgements pause (leads are still stored and the company told),
   * newsletter sign-ups are refused (429 signUpsPaused: a sign-up mails a confirmation and stores
   * nothing else of value) and the admin dashboard shows a banner until the rate falls back.
   */
  breaker: { limit: 100, windowSeconds: 10 * MINUTE } satisfies Rate,
  login: {
    /** Tries for one username from one address. */
    perPair: { limit: 5, windowSeconds: 15 * MINUTE } satisfies Rate,
    /** Tries for one username from all addresses. Past it only an address's first try is evaluated. */
    perUsername: { limit: 20, windowSeconds: HOUR } satisfies Rate,
    /** Past perUsername, the tries still evaluated for an address that is new to this username (the owner's typo, then the right password). */
    perPairUnderAttack: 3,
    /**
     * Tries for one account from all addresses, whatever the address: past it only an address where
     * the account signed in within `knownAddressSeconds` is evaluated (the owner's way in).
     */
    perAccount: { limit: 100, windowSeconds: HOUR } satisfies Rate,
    /** How long an address where the account's password, code or passkey was right stays known to it. */
    knownAddressSeconds: 30 * DAY,
    /** Wrong second-factor codes (TOTP or recovery) for one account, whatever the password step did. */
    codesPerAccount: { limit: 5, windowSeconds: 15 * MINUTE } satisfies Rate,
    /**
     * bcrypt comparisons in one process run one at a time, each address in turn (db/admins.ts).
     * An address may have `perAddress` waiting or running and the process `waiting` in all; past
     * either the answer is 429 before bcrypt runs. At ~0.3 s a comparison, the owner waits at most
     * about (waiting + 1) × 0.3 s whatever other addresses do.
     */
    comparisons: { perAddress: 2, waiting: 6 },
    /** Tries from one address, whatever the usernames. */
    perAddress: { limit: 30, windowSeconds: 15 * MINUTE } satisfies Rate,
    /** Passkey sign-in challenges one address may ask for (each is a row until it expires). */
    passkeyChallenges: { limit: 30, windowSeconds: 15 * MINUTE } satisfies Rate,
  },
  /** The signed "form shown at" token of the public forms. */
  formToken: {
    /** Younger than this, a submission is refused as too fast for a person. */
    minAgeSeconds: 2,
    /** Older than this it is refused as stale (the forms fetch a fresh one; the no-JS path confirms). */
    maxAgeSeconds: 2 * HOUR,
  },
} as const;
