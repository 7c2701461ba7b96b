/**
 * The one rule for a password an account may set (ASVS 2.1.1, 2.1.7), wherever it is set: the
 * password change, an accepted invitation, `npm run admin:create` and ADMIN_PASSWORD. The panel
 * checks it before sending; the server checks it again.
 */
import { COMMON_PASSWORDS } from "./common-passwords.ts";
import { hasControlCharacter } from "./text.ts";

/** Shortest password, in characters (as a person counts them: "گذرواژه" is 7). */
export const PASSWORD_MIN = 12;
/** Longest password, in UTF-8 bytes: bcrypt reads only the first 72 and would silently cut the rest. */
export const PASSWORD_MAX_BYTES = 72;

const common = new Set(COMMON_PASSWORDS);

/** What is wrong with a new password, as the name of its text (admin.security.password.*). */
export type PasswordRuleProblem = "tooShort" | "tooLong" | "invalid" | "common";

/** The first problem of `password` as a new password, or null when it may be set. */
export function passwordRuleProblem(password: string): PasswordRuleProblem | null {
  if ([...password].length < PASSWORD_MIN) return "tooShort";
  if (new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES) return "tooLong";
  // A tab may be typed (it is compared, never shown); no other control character.
  if (hasControlCharacter(password.replaceAll("\t", ""))) return "invalid";
  if (common.has(password.trim().toLowerCase())) return "common";
  return null;
}

/** The English sentence of each problem, for the API's field errors and the command line. */
export const PASSWORD_RULE_MESSAGES: Record<PasswordRuleProblem, string> = {
  tooShort: `The password must be at least ${PASSWORD_MIN} characters.`,
  tooLong: `The password must be at most ${PASSWORD_MAX_BYTES} bytes (bcrypt ignores the rest).`,
  invalid: "The password contains invalid characters.",
  common: "This password is one of the most common ones: choose another.",
};
