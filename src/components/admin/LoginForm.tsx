import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { loginSchema } from "#shared/schemas/people.ts";
import { showToast } from "#src/stores/toasts.ts";
import type { ErrorAnswer } from "#shared/api/common.ts";
import type { LoginAnswer } from "#shared/api/factors.ts";
import { ApiError, fetchCurrentUser, homeOf, login } from "./api";
import { useAdminCopy, type AdminText } from "./copy";
import { showToastAcrossNavigation } from "./flash";
import { secondStep, signInWithPasskey } from "./security/factors-api";
import { BusyButton, ErrorNote, Field, PageSpinner } from "./ui";
import { useState, type SubmitEvent } from "react";

type LoginInput = z.input<typeof loginSchema>;
type LoginOutput = z.output<typeof loginSchema>;

/** A 401 from /api/login (or its second step) is an answer (wrong credentials), not a failed request. */
const isLoginAnswer = (error: unknown): error is ApiError & { data: ErrorAnswer } =>
  error instanceof ApiError &&
  error.status === 401 &&
  typeof error.data === "object" &&
  error.data !== null &&
  (error.data as ErrorAnswer).success === false;

const inputClass =
  "block w-full rounded-xl border border-slate-500 bg-white px-4 py-3 text-base text-ink shadow-sm transition-colors placeholder:text-slate-500 hover:border-slate-600 focus:border-brand-600 focus:outline-none focus:ring-3 focus:ring-brand-500/30 aria-[invalid=true]:border-red-700 aria-[invalid=true]:focus:ring-red-600/25";

/** The admin sign-in card, in the panel's language; a spinner until React has taken over. */
export default function LoginForm() {
  const texts = useAdminCopy();
  // Already signed in: nothing to do here.
  useEffect(() => {
    let active = true;
    fetchCurrentUser()
      .then((user) => active && user && window.location.replace(homeOf(user)))
      .catch(() => {
        // No answer: the visitor can still sign in.
      });
    return () => {
      active = false;
    };
  }, []);
  return texts ? <Form texts={texts} /> : <PageSpinner />;
}

/** Signed in: on to where the person works (or to the second factor's set-up), the button kept busy. */
async function enter(c: AdminText["copy"]["login"]): Promise<void> {
  showToastAcrossNavigation({ title: c.success, description: c.welcome, variant: "success" });
  const user = await fetchCurrentUser().catch(() => null);
  window.location.assign(homeOf(user ?? { role: "admin" }));
  // Keep the button in its sending state until the next page loads.
  await new Promise(() => {});
}

function Form({ texts }: { texts: AdminText }) {
  const { copy } = texts;
  const c = copy.login;
  const [formError, setFormError] = useState<string | null>(null);
  const [second, setSecond] = useState<LoginAnswer["methods"] | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput, unknown, LoginOutput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: "", password: "" },
  });

  const onSubmit = async (values: LoginOutput) => {
    setFormError(null);
    try {
      const answer = await login(values);
      if (!answer?.success) return setFormError(answer?.message || c.failed);
      if (answer.next === "second-factor") return setSecond(answer.methods ?? ["totp"]);
      await enter(c);
    } catch (error) {
      if (isLoginAnswer(error)) return setFormError(error.data.message || c.failed);
      const message = error instanceof Error ? error.message : "";
      setFormError(message || c.failedRetry);
      showToast({ title: c.failed, description: message || c.errorOccurred, variant: "destructive" });
    }
  };

  if (second) return <SecondStep texts={texts} methods={second} onRestart={() => setSecond(null)} />;

  return (
    <div className="card w-full max-w-md p-6 sm:p-8">
      <h1 className="text-2xl font-bold tracking-tight text-brand-950">{c.title}</h1>
      <p className="mt-2 text-muted">{c.intro}</p>
      <form method="post" className="mt-7 min-w-0 space-y-5" noValidate onSubmit={handleSubmit(onSubmit)}>
        <Field label={c.username} error={errors.username && c.usernameRequired}>
          {(props) => (
            <input
              {...register("username")}
              {...props}
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              placeholder={c.usernamePlaceholder}
              className={inputClass}
            />
          )}
        </Field>
        <Field label={c.password} error={errors.password && c.passwordRequired}>
          {(props) => (
            <input
              {...register("password")}
              {...props}
              type="password"
              autoComplete="current-password"
              placeholder={c.passwordPlaceholder}
              className={inputClass}
            />
          )}
        </Field>
        {formError && (
          <div data-testid="login-error">
            <ErrorNote>{formError}</ErrorNote>
          </div>
        )}
        <BusyButton
          type="submit"
          primary
          busy={isSubmitting}
          label={c.submit}
          busyLabel={c.submitting}
          className="w-full"
        />
      </form>
      <PasskeyButton texts={texts} />
    </div>
  );
}

/** "Sign in with a passkey": no username or password, the browser offers this site's passkeys. */
function PasskeyButton({ texts: { copy } }: { texts: AdminText }) {
  const c = copy.login.second;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (typeof window === "undefined" || !("PublicKeyCredential" in window)) return null;
  const onClick = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await signInWithPasskey();
      await enter(copy.login);
    } catch (error) {
      const cancelled = error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError");
      setProblem(
        cancelled
          ? c.passkeyCancelled
          : error instanceof ApiError && error.status === 429
            ? error.message
            : c.passkeyFailed,
      );
      setBusy(false);
    }
  };
  return (
    <div className="mt-5 border-t border-line pt-5">
      <BusyButton busy={busy} label={c.passkey} busyLabel={c.passkeyBusy} onClick={onClick} className="w-full" />
      {problem && <ErrorNote className="mt-3">{problem}</ErrorNote>}
    </div>
  );
}

/** The sign-in's second step: the app's six digits, or a recovery code, or a passkey. */
function SecondStep({
  texts,
  methods,
  onRestart,
}: {
  texts: AdminText;
  methods: NonNullable<LoginAnswer["methods"]>;
  onRestart: () => void;
}) {
  const { copy } = texts;
  const c = copy.login.second;
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const totp = methods.includes("totp");

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = value.trim();
    if (!typed) return setProblem(recovery ? c.recoveryRequired : c.codeRequired);
    setBusy(true);
    setProblem(null);
    try {
      await secondStep(recovery ? { recoveryCode: typed } : { code: typed });
      await enter(copy.login);
    } catch (error) {
      const code = error instanceof ApiError ? (error.data as { code?: string } | null)?.code : undefined;
      if (code === "secondStepExpired") setProblem(c.expired);
      else if (isLoginAnswer(error)) setProblem(recovery ? c.wrongRecovery : c.wrongCode);
      else if (error instanceof ApiError && error.status === 429) setProblem(error.message);
      else if (error instanceof ApiError && error.status === 400)
        setProblem(recovery ? c.recoveryRequired : c.codeRequired);
      else setProblem(copy.login.failedRetry);
      setBusy(false);
    }
  };

  return (
    <div className="card w-full max-w-md p-6 sm:p-8" data-testid="second-step">
      <h1 className="text-2xl font-bold tracking-tight text-brand-950">{c.title}</h1>
      <p className="mt-2 text-muted">{totp ? (recovery ? c.recoveryIntro : c.intro) : c.passkeyOnly}</p>
      {totp && (
        <form method="post" className="mt-7 min-w-0 space-y-5" noValidate onSubmit={onSubmit}>
          <Field label={recovery ? c.recoveryCode : c.code} error={problem}>
            {(props) =>
              recovery ? (
                <input
                  {...props}
                  key="recovery"
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  dir="ltr"
                  maxLength={20}
                  className={`${inputClass} font-mono`}
                />
              ) : (
                <input
                  {...props}
                  key="code"
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  pattern="[0-9 ]*"
                  maxLength={7}
                  dir="ltr"
                  // The field the person came here for: this step shows nothing else to type.
                  // eslint-disable-next-line jsx-a11y/no-autofocus
                  autoFocus
                  className={`${inputClass} font-mono tracking-widest`}
                />
              )
            }
          </Field>
          <BusyButton type="submit" primary busy={busy} label={c.verify} busyLabel={c.verifying} className="w-full" />
          <button
            type="button"
            className="text-sm font-semibold text-brand-700 underline"
            onClick={() => {
              setRecovery(!recovery);
              setValue("");
              setProblem(null);
            }}
          >
            {recovery ? c.useApp : c.useRecovery}
          </button>
        </form>
      )}
      {!totp && problem && <ErrorNote className="mt-3">{problem}</ErrorNote>}
      {methods.includes("passkey") && <PasskeyButton texts={texts} />}
      <button type="button" className="mt-5 text-sm text-muted underline" onClick={onRestart}>
        {c.restart}
      </button>
    </div>
  );
}
