/** Accounts: who is signed in (GET /api/user) and the admin's invitations. */
import type { Role } from "../roles.ts";

export interface CurrentUser {
  id: number;
  username: string;
  /** What the dashboard shows: everything (admin) or the content editor only (editor). */
  role: Role;
}

/**
 * POST /api/admin/users: the new account and its invitation: emailed (`emailed`), or, where no mail
 * is configured, its single-use `link`, shown this once to the inviting admin to hand over.
 */
export interface InvitedUser {
  user: CurrentUser;
  emailed: boolean;
  link?: string;
  /** When the link stops working (ISO). */
  expiresAt: string;
}

/** POST /api/invitation: what the invitation page shows before the invitee chooses a password. */
export interface InvitationAnswer {
  success: true;
  username: string;
  language: string;
  expiresAt: string;
}

/** GET /api/user */
export interface CurrentUserAnswer {
  success: true;
  user: CurrentUser;
}
