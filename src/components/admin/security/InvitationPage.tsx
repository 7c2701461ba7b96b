/**
 * The invitation link's page (/admin/invitation?lang=…#token): in the invitation's language, it
 * names the account, then takes the invitee's own password (twice, the password change's rules)
 * and sends them to the sign-in. The token stays in the URL's fragment (never sent to a server log)
 * until it is spent, so a reload loses nothing. A link that is forged, used or expired is a clear
 * sentence, never an error page.
 */
import { useEffect, useState, type SubmitEvent } from "react";
import type { InvitationAnswer } from "#shared/api/people.ts";
import { isLanguage } from "#shared/languages.ts";
import { ROUTES } from "#shared/routes.ts";
import { INVITATION_TOKEN } from "#shared/schemas/invitations.ts";
import { ApiError, apiRequest } from "#src/lib/api-client.ts";
import { LOGIN_PATH } from "../api";
import { apiErrorText } from "../api-errors";
import { showPanelIn, useAdminCopy } from "../copy";
import { BusyButton, ErrorNote, Field, iconPaths, inputClass, PageSpinner, Section } from "../ui";
import { passwordProblems, PASSWORD_MAX_BYTES, PASSWORD_MIN, type PasswordForm } from "./password-rules";

type Refusal = "unknown" | "used" | "expired" | "missing";
type State =
  | { stage: "loading" }
  | { stage: "refused"; why: Refusal }
  | { stage: "open"; invitation: InvitationAnswer }
  | { stage: "done" };

const REFUSALS: Record<string, Refusal> = {
  invitationUnknown: "unknown",
  invitationUsed: "used",
  invitationExpired: "expired",
};

/** Why the server refused the link, or null when it was another failure. */
const refusalOf = (error: unknown): Refusal | null =>
  error instanceof ApiError && typeof error.data === "object" && error.data !== null
    ? (REFUSALS[(error.data as { code?: string }).code ?? ""] ?? (error.status === 400 ? "unknown" : null))
    : null;

const tokenOf = () => window.location.hash.slice(1);

export default function InvitationPage() {
  const texts = useAdminCopy();
  const [state, setState] = useState<State>({ stage: "loading" });
  const [form, setForm] = useState({ next: "", repeat: "" });
  const [shown, setShown] = useState<Partial<Record<keyof PasswordForm, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const lang = new URLSearchParams(window.location.search).get("lang");
    if (isLanguage(lang)) showPanelIn(lang);
    const token = tokenOf();
    const lookup = INVITATION_TOKEN.test(token)
      ? apiRequest<InvitationAnswer>("POST", ROUTES.invitation, { body: { token } }).then(
          (invitation): State => ({ stage: "open", invitation }),
          (failure: unknown): State => ({ stage: "refused", why: refusalOf(failure) ?? "unknown" }),
        )
      : Promise.resolve<State>({ stage: "refused", why: "missing" });
    void lookup.then(setState);
  }, []);

  if (!texts) return <PageSpinner />;
  const { copy, f, dateTime } = texts;
  const c = copy.invitation;
  const p = copy.security.password;

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const problems = passwordProblems({ current: "-", ...form });
    setShown(
      Object.fromEntries(
        Object.entries(problems).map(([field, problem]) => [
          field,
          f(p[problem as keyof typeof p] as string, { min: PASSWORD_MIN, max: PASSWORD_MAX_BYTES }),
        ]),
      ),
    );
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      await apiRequest("POST", ROUTES.invitationAccept, { body: { token: tokenOf(), password: form.next } });
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
      setState({ stage: "done" });
    } catch (failure) {
      const why = refusalOf(failure);
      if (why && why !== "unknown") setState({ stage: "refused", why });
      else setError(apiErrorText(failure, copy.apiErrors));
    } finally {
      setBusy(false);
    }
  };

  const field = (name: "next" | "repeat", label: string, help?: string) => (
    <Field label={label} help={help} error={shown[name]}>
      {(props) => (
        <input
          {...props}
          type="password"
          autoComplete="new-password"
          value={form[name]}
          onChange={(event) => setForm((was) => ({ ...was, [name]: event.target.value }))}
          className={inputClass}
          dir="ltr"
        />
      )}
    </Field>
  );

  const signInLink = (
    <a href={LOGIN_PATH} className="btn btn-primary mt-5 justify-self-start">
      {c.signIn}
    </a>
  );

  return (
    <div className="container-page flex flex-1 flex-col items-center py-8 sm:py-12">
      <Section title={c.title} icon={iconPaths.shield} className="grid w-full max-w-xl">
        {state.stage === "loading" && (
          <p role="status" className="mt-3 text-sm text-muted">
            {c.loading}
          </p>
        )}
        {state.stage === "refused" && (
          <>
            <p role="alert" className="mt-3 text-base text-ink">
              {c[state.why]}
            </p>
            {state.why === "used" && signInLink}
          </>
        )}
        {state.stage === "done" && (
          <>
            <p role="status" className="mt-3 text-base font-medium text-teal-800">
              {c.done}
            </p>
            {signInLink}
          </>
        )}
        {state.stage === "open" && (
          <form noValidate onSubmit={onSubmit} className="mt-3 grid gap-4">
            <p className="text-sm text-muted">
              {f(c.intro, { name: state.invitation.username })}{" "}
              {f(c.until, { until: dateTime(state.invitation.expiresAt) })}
            </p>
            {/* The username, for password managers: they file the new password under the right account. */}
            <input
              type="text"
              name="username"
              autoComplete="username"
              value={state.invitation.username}
              readOnly
              hidden
            />
            {field("next", p.new, f(p.help, { min: PASSWORD_MIN }))}
            {field("repeat", p.repeat)}
            <ErrorNote>{error}</ErrorNote>
            <BusyButton
              type="submit"
              primary
              busy={busy}
              label={c.submit}
              busyLabel={c.busy}
              className="justify-self-start"
            />
          </form>
        )}
      </Section>
    </div>
  );
}
