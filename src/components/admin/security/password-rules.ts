/** The password form's own check, before anything is sent: the server's rule (src/shared/passwords.ts). */
import { PASSWORD_MAX_BYTES, PASSWORD_MIN, passwordRuleProblem, type PasswordRuleProblem } from "#shared/passwords.ts";

export interface PasswordForm {
  current: string;
  next: string;
  repeat: string;
}

/** What is wrong with a field, as the name of its text (admin.security.password). */
export type PasswordProblem = "currentMissing" | PasswordRuleProblem | "mismatch";

/** Each field's first problem (none: the form may be sent). */
export function passwordProblems(form: PasswordForm): Partial<Record<keyof PasswordForm, PasswordProblem>> {
  const problems: Partial<Record<keyof PasswordForm, PasswordProblem>> = {};
  if (form.current.length === 0) problems.current = "currentMissing";
  const rule = passwordRuleProblem(form.next);
  if (rule) problems.next = rule;
  if (!problems.next && form.repeat !== form.next) problems.repeat = "mismatch";
  return problems;
}

export { PASSWORD_MAX_BYTES, PASSWORD_MIN };
