/** Answer types of the admin's Security page: sessions, accounts and the audit record. */
import type { CurrentUser } from "./people.ts";

/** A live session as its lists show it (ISO times). */
export interface SessionInfo {
  id: string;
  userId: number;
  username: string;
  createdAt: string;
  lastSeenAt: string;
  /** Device and browser families ("" when the browser named none), e.g. "Mac", "Firefox". */
  device: string;
  browser: string;
  /** Where it started: the platform's country code (ISO 3166, "NL"), "" when unknown. */
  country: string;
  /** The session this request came with. */
  current: boolean;
}

/** GET /api/account/sessions, GET /api/admin/sessions */
export interface SessionsAnswer {
  success: true;
  sessions: SessionInfo[];
}

/**
 * GET /api/admin/users: each account, with its last sign-in (ISO; null when the audit record holds
 * none) and its second factors (an authenticator app's codes, passkeys).
 */
export interface AccountInfo extends CurrentUser {
  lastSignInAt: string | null;
  totp: boolean;
  passkeys: number;
}

/** PATCH /api/admin/users/:id */
export interface UserAnswer {
  success: true;
  user: CurrentUser;
}

/** One entry of the audit record. */
export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  place: string;
  action: string;
  target: string;
  /** Whom the entry is about (a visitor's address, a typed username); null once erased. */
  subject: string | null;
  detail: Record<string, unknown>;
}

/** GET /api/admin/audit */
export interface AuditAnswer {
  success: true;
  entries: AuditEntry[];
  /** Pass as `before` for the next (older) page; null on the last. */
  next: string | null;
}
