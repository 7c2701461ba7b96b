import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { loginSchema } from "#shared/schemas/people.ts";
import { showToast } from "#src/stores/toasts.ts";
import type { ErrorAnswer } from "#shared/api/common.ts";
import { ApiError, fetchCurrentUser, homeOf, login } from "./api";
import { useAdminCopy, type AdminText } from "./copy";
import { showToastAcrossNavigation } from "./flash";
import { BusyButton, ErrorNote, Field, PageSpinner } from "./ui";
import { useState } from "react";

type LoginInput = z.input<typeof loginSchema>;
type LoginOutput = z.output<typeof loginSchema>;

/** A 401 from /api/login is an answer (wrong credentials), not a failed request. */
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

function Form({ texts: { copy } }: { texts: AdminText }) {
  const c = copy.login;
  const [formError, setFormError] = useState<string | null>(null);
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
      showToastAcrossNavigation({ title: c.success, description: c.welcome, variant: "success" });
      const user = await fetchCurrentUser().catch(() => null);
      window.location.assign(homeOf(user ?? { role: "admin" }));
      // Keep the button in its sending state until the next page loads.
      await new Promise(() => {});
    } catch (error) {
      if (isLoginAnswer(error)) return setFormError(error.data.message || c.failed);
      const message = error instanceof Error ? error.message : "";
      setFormError(message || c.failedRetry);
      showToast({ title: c.failed, description: message || c.errorOccurred, variant: "destructive" });
    }
  };

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
    </div>
  );
}
