/** The password form's own check, before anything is sent: the server's rules (src/shared/schemas/security.ts). */
import { PASSWORD_MAX_BYTES, PASSWORD_MIN } from "#shared/schemas/security.ts";
import { hasControlCharacter } from "#shared/text.ts";

export interface PasswordForm {
  current: string;
  next: string;
  repeat: string;
}

/** What is wrong with a field, as the name of its text (admin.security.password). */
export type PasswordProblem = "currentMissing" | "tooShort" | "tooLong" | "invalid" | "mismatch";

/** Each field's first problem (none: the form may be sent). Length counts characters, as the server does. */
export function passwordProblems(form: PasswordForm): Partial<Record<keyof PasswordForm, PasswordProblem>> {
  const problems: Partial<Record<keyof PasswordForm, PasswordProblem>> = {};
  if (form.current.length === 0) problems.current = "currentMissing";
  if (form.next.length < PASSWORD_MIN) problems.next = "tooShort";
  else if (new TextEncoder().encode(form.next).length > PASSWORD_MAX_BYTES) problems.next = "tooLong";
  else if (hasControlCharacter(form.next.replaceAll("\t", ""))) problems.next = "invalid";
  if (!problems.next && form.repeat !== form.next) problems.repeat = "mismatch";
  return problems;
}

export { PASSWORD_MAX_BYTES, PASSWORD_MIN };
