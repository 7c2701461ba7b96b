/**
 * The bot traps of the public forms, shared by the islands and the functions: the honeypot field
 * (hidden from people; a bot that fills it is refused), the field of the signed "form shown at"
 * token, and the codes of the refusals the forms translate.
 */

/** The honeypot: visually hidden, out of the tab order, aria-hidden; a person leaves it empty. */
export const HONEYPOT_FIELD = "website";

/** The signed token (GET /api/form-token), in a JSON body or as a hidden form field. */
export const TOKEN_FIELD = "formToken";

/** Codes of the refusals (`code` of the error answer). */
export const GUARD_CODES = {
  /** Past a flood limit: 429 with Retry-After. */
  tooMany: "tooManyRequests",
  /** The email address already has the most pending meetings allowed: 429. */
  tooManyPending: "tooManyPendingMeetings",
  /** Newsletter sign-ups wait while the breaker is tripped (too many submissions site-wide): 429. */
  paused: "signUpsPaused",
  /** A manage link changed its meeting too often (functions/meeting-manage.ts): 429. */
  tooManyChanges: "tooManyChanges",
  /** The token is missing, forged, too fast, too old or used: 400 (the form gets a fresh one). */
  token: "formTokenInvalid",
  /** The honeypot was filled: 400. */
  honeypot: "spamSuspected",
  /** A post from another site: 403. */
  crossSite: "crossSiteRefused",
} as const;
