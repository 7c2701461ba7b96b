/**
 * The Security page's sections tell each other when sessions changed (a password change ended the
 * others, an admin ended one of yours): each list reloads when this number moves.
 */
import { atom } from "nanostores";

export const $sessionsVersion = atom(0);

/** Says that sessions changed: the lists of the page reload. */
export function sessionsChanged(): void {
  $sessionsVersion.set($sessionsVersion.get() + 1);
}
