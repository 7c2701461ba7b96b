/** Accounts: who is signed in (GET /api/user) and the admin's invitations. */
import type { Role } from "../roles.ts";

export interface CurrentUser {
  id: number;
  username: string;
  /** What the dashboard shows: everything (admin) or the content editor only (editor). */
  role: Role;
}

/** POST /api/admin/users: the new account and its one-time password, shown once to the inviting admin. */
export interface InvitedUser {
  user: CurrentUser;
  password: string;
}

/** GET /api/user */
export interface CurrentUserAnswer {
  success: true;
  user: CurrentUser;
}
