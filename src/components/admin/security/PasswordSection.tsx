/** The Security page's "Your password": the current one, the new one twice; the other sessions end. */
import { useState, type SubmitEvent } from "react";
import { sessionsChanged } from "#src/stores/sessions.ts";
import { ApiError } from "#src/lib/api-client.ts";
import { apiErrorText } from "../api-errors";
import { useAdminCopy } from "../copy";
import { useSignedIn } from "../session";
import { BusyButton, ErrorNote, Field, iconPaths, inputClass, Section } from "../ui";
import { changePassword } from "./security-api";
import { passwordProblems, PASSWORD_MAX_BYTES, PASSWORD_MIN, type PasswordForm } from "./password-rules";

const EMPTY: PasswordForm = { current: "", next: "", repeat: "" };

export default function PasswordSection() {
  const texts = useAdminCopy();
  const user = useSignedIn();
  const [form, setForm] = useState(EMPTY);
  const [shown, setShown] = useState<Partial<Record<keyof PasswordForm, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!texts || !user) return null;
  const { copy, f } = texts;
  const c = copy.security.password;
  const message = (problem: string) =>
    f(c[problem as keyof typeof c] as string, { min: PASSWORD_MIN, max: PASSWORD_MAX_BYTES });

  // After the errors render: the first field that has one.
  const focusFirstProblem = (formElement: HTMLFormElement) =>
    requestAnimationFrame(() => formElement.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    const formElement = event.currentTarget;
    event.preventDefault();
    setDone(false);
    setError(null);
    const problems = passwordProblems(form);
    setShown(Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, message(problem)])));
    if (Object.keys(problems).length > 0) {
      focusFirstProblem(formElement);
      return;
    }
    setBusy(true);
    try {
      await changePassword(form.current, form.next);
      setForm(EMPTY);
      setShown({});
      setDone(true);
      sessionsChanged();
    } catch (failure) {
      // A wrong current password is 403 with that field's error; 429 is the sign-in throttle.
      if (
        failure instanceof ApiError &&
        failure.status === 403 &&
        failure.data &&
        typeof failure.data === "object" &&
        "errors" in failure.data
      ) {
        setShown({ current: c.currentWrong });
        focusFirstProblem(formElement);
      } else setError(apiErrorText(failure, copy.apiErrors, { 429: c.tooMany }));
    } finally {
      setBusy(false);
    }
  };

  const field = (name: keyof PasswordForm, label: string, autoComplete: string, help?: string) => (
    <Field label={label} help={help} error={shown[name]}>
      {(props) => (
        <input
          {...props}
          name={name}
          type="password"
          autoComplete={autoComplete}
          value={form[name]}
          onChange={(event) => setForm((was) => ({ ...was, [name]: event.target.value }))}
          className={inputClass}
          dir="ltr"
        />
      )}
    </Field>
  );

  return (
    <Section id="password" title={c.title} intro={c.intro} icon={iconPaths.shield}>
      <form noValidate onSubmit={onSubmit} className="mt-5 grid max-w-xl gap-4">
        {/* The username, for password managers: they file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={user.username} readOnly hidden />
        {field("current", c.current, "current-password")}
        {field("next", c.new, "new-password", f(c.help, { min: PASSWORD_MIN }))}
        {field("repeat", c.repeat, "new-password")}
        <ErrorNote>{error}</ErrorNote>
        {/* Under the fields, at their start edge (not the end of a wide card), with its outcome beside it. */}
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <BusyButton type="submit" primary busy={busy} label={c.submit} busyLabel={c.busy} />
          <p role="status" className="text-sm font-medium text-teal-800">
            {done ? c.done : ""}
          </p>
        </div>
      </form>
    </Section>
  );
}
