import { useEffect, useId, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { loginSchema } from "#shared/schemas/people.ts";
import { showToast } from "#src/stores/toasts.ts";
import type { ErrorAnswer } from "#shared/api/common.ts";
import { ApiError, DASHBOARD_PATH, fetchCurrentUser, login } from "./api";
import { showToastAcrossNavigation } from "./flash";
import { Spinner } from "./ui";

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

/** The admin sign-in card. */
export default function LoginForm() {
  const id = useId();
  const [formError, setFormError] = useState<string | null>(null);
  // Until React has taken over, the form stays disabled: a native submission would do nothing useful.
  const [hydrated, setHydrated] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput, unknown, LoginOutput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: "", password: "" },
  });

  // Already signed in: nothing to do here.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- marks hydration: the form is usable from here on
    setHydrated(true);
    let active = true;
    fetchCurrentUser()
      .then((user) => {
        if (active && user) window.location.replace(DASHBOARD_PATH);
      })
      .catch(() => {
        // No answer: the visitor can still sign in.
      });
    return () => {
      active = false;
    };
  }, []);

  const onSubmit = async (values: LoginOutput) => {
    setFormError(null);
    try {
      const answer = await login(values);
      if (!answer?.success) {
        setFormError(answer?.message || "Login failed");
        return;
      }
      showToastAcrossNavigation({
        title: "Login successful",
        description: "Welcome to the admin panel.",
        variant: "success",
      });
      window.location.assign(DASHBOARD_PATH);
      // Keep the button in its sending state until the dashboard loads.
      await new Promise(() => {});
    } catch (error) {
      if (isLoginAnswer(error)) {
        setFormError(error.data.message || "Login failed");
        return;
      }
      const message = error instanceof Error ? error.message : "";
      setFormError(message || "Login failed. Please try again.");
      showToast({
        title: "Login failed",
        description: message || "An error occurred during login.",
        variant: "destructive",
      });
    }
  };

  const field = (name: keyof LoginInput) => {
    const error = errors[name]?.message;
    return {
      id: `${id}-${name}`,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? `${id}-${name}-error` : undefined,
      error,
    };
  };
  const username = field("username");
  const password = field("password");

  return (
    <div className="card w-full max-w-md p-6 sm:p-8">
      <h1 className="text-2xl font-bold tracking-tight text-brand-950">Admin Login</h1>
      <p className="mt-2 text-muted">Enter your credentials to access the admin panel</p>

      <form method="post" className="mt-7" noValidate onSubmit={handleSubmit(onSubmit)}>
        <fieldset disabled={!hydrated} className="min-w-0 space-y-5">
          <div>
            <label htmlFor={username.id} className="mb-1.5 block text-sm font-semibold text-ink">
              Username
            </label>
            <input
              {...register("username")}
              id={username.id}
              type="text"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="Enter username"
              aria-invalid={username["aria-invalid"]}
              aria-describedby={username["aria-describedby"]}
              className={inputClass}
            />
            {username.error && (
              <p id={`${id}-username-error`} className="mt-1.5 text-sm font-medium text-red-700">
                {username.error}
              </p>
            )}
          </div>

          <div>
            <label htmlFor={password.id} className="mb-1.5 block text-sm font-semibold text-ink">
              Password
            </label>
            <input
              {...register("password")}
              id={password.id}
              type="password"
              autoComplete="current-password"
              placeholder="Enter password"
              aria-invalid={password["aria-invalid"]}
              aria-describedby={password["aria-describedby"]}
              className={inputClass}
            />
            {password.error && (
              <p id={`${id}-password-error`} className="mt-1.5 text-sm font-medium text-red-700">
                {password.error}
              </p>
            )}
          </div>

          {formError && (
            <p
              role="alert"
              data-testid="login-error"
              className="flex items-start gap-2 rounded-xl border border-red-200 bg-red-50 px-3.5 py-2.5 text-sm font-medium text-red-800"
            >
              <svg
                className="mt-0.5 size-4 shrink-0"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth={2}
                strokeLinecap="round"
                aria-hidden="true"
                focusable="false"
              >
                <circle cx="12" cy="12" r="9" />
                <path d="M12 7.5v5m0 3.5v.01" />
              </svg>
              <span>{formError}</span>
            </p>
          )}

          <button
            type="submit"
            disabled={isSubmitting}
            className="btn btn-primary w-full disabled:cursor-not-allowed disabled:opacity-75"
          >
            {isSubmitting && <Spinner className="size-4" />}
            {isSubmitting ? "Logging in..." : "Login"}
          </button>
        </fieldset>
      </form>
    </div>
  );
}
