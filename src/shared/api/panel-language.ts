/** The signed-in person as GET /api/user and PATCH /api/user answer: who they are and their panel's language. */
import type { CurrentUser } from "./people.ts";
import type { Language } from "../languages.ts";

/** The signed-in person, with the language they read the admin panel in (null until they choose one). */
export interface PanelUser extends CurrentUser {
  language: Language | null;
  /** Signed in only to set up a second factor: every other page waits until one is set up. */
  setup?: true;
}

/** GET /api/user, PATCH /api/user */
export interface PanelUserAnswer {
  success: true;
  user: PanelUser;
}
