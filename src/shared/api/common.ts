/** Answers every endpoint shares: errors, plain messages, and the small public endpoints (language, form token). */
import type { Language } from "../languages.ts";
import type { AdminEnquiry } from "./enquiries.ts";

/** Every error answer: the message, and each field's messages on a 400. */
export interface ErrorAnswer {
  success: false;
  message: string;
  errors?: Record<string, string[]>;
  /** What the forms translate: one of GUARD_CODES (src/shared/form-guard.ts), when the refusal is one of those. */
  code?: string;
  /** PUT /api/content/texts, 409: the texts another editor changed since they were loaded. */
  conflicts?: (TextAddress & { yours: string; theirs: string })[];
  /** PATCH /api/admin/submissions/{id}, 409 leadChanged: the lead as it is now, and who changed it last. */
  current?: AdminEnquiry;
  by?: string | null;
}

/**
 * How a record's notification emails are doing: "sent" when all went out, "pending" while one
 * waits for its first try or a retry is under way, "failing" when one has failed; null when the
 * record has none (stored before notifications existed).
 */
export type EmailStatus = "sent" | "pending" | "failing";

/** GET /api/detect-language */
export interface DetectLanguageAnswer {
  language: Language;
}
/** POST /api/newsletter (201 new, 200 already subscribed), POST /api/login, POST /api/logout */
export interface MessageAnswer {
  success: true;
  message: string;
}

/** GET /api/form-token: a signed "form shown at" token for the next submission of a public form. */
export interface FormTokenAnswer {
  success: true;
  token: string;
  /** Milliseconds from now until the token is accepted (a person needs a moment to fill a form). */
  validInMs: number;
  /** Milliseconds from now until it is refused as stale. */
  expiresInMs: number;
}

/** A text's address: its language and key ("hero.title"; "testimonials:sara-rahimi.content" in a content file). */
export interface TextAddress {
  lang: string;
  key: string;
}
