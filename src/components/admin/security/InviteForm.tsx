import { useId, useState, type SubmitEvent } from "react";
import type { InvitedUser } from "#shared/api/people.ts";
import type { Language } from "#shared/languages.ts";
import { ROLES, type Role } from "#shared/roles.ts";
import { inviteUser } from "../api";
import { apiErrorText } from "../api-errors";
import { PANEL_LANGUAGES, useCopy } from "../copy";
import { BusyButton, ErrorNote, Field, inputClass } from "../ui";

/**
 * Invites a person as an admin or an editor (the Accounts section): they get a single-use link
 * (72 hours) to choose their own password. Where mail is configured the link goes to their address;
 * elsewhere it is shown here once, for the admin to hand over in person or by phone. Inviting needs
 * a fresh proof: the step-up dialog asks, and the form keeps what was typed meanwhile.
 */
export function InviteForm({ onInvited }: { onInvited: () => void }) {
  const { copy, f, lang, dateTime, languageName } = useCopy();
  const c = copy.people;
  const titleId = useId();
  const [username, setUsername] = useState("");
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const [language, setLanguage] = useState<Language>(lang);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [invited, setInvited] = useState<InvitedUser | null>(null);
  const [copied, setCopied] = useState(false);

  const onInvite = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = username.trim();
    setBusy(true);
    setError(null);
    setInvited(null);
    setCopied(false);
    try {
      setInvited(await inviteUser({ username: name, role, email: email.trim(), language }));
      setUsername("");
      setEmail("");
      onInvited();
    } catch (failure) {
      setError(apiErrorText(failure, copy.apiErrors, { 409: f(copy.security.accounts.taken, { name }) }));
    } finally {
      setBusy(false);
    }
  };

  const copyLink = async (link: string) => {
    await navigator.clipboard.writeText(link).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  const done = invited && {
    name: invited.user.username,
    role: copy.common.roles[invited.user.role],
    until: dateTime(invited.expiresAt),
  };

  return (
    <section id="people" aria-labelledby={titleId} className="mt-8 border-t border-line pt-6">
      <h3 id={titleId} className="text-lg font-semibold text-brand-950">
        {copy.security.accounts.inviteTitle}
      </h3>
      <p className="mt-1 max-w-3xl text-sm text-muted">{c.intro}</p>
      <form
        onSubmit={onInvite}
        className="mt-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1.4fr_auto_auto_auto] lg:items-end"
      >
        <Field label={c.username}>
          {(props) => (
            <input
              {...props}
              required
              autoComplete="off"
              value={username}
              onChange={(event) => setUsername(event.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Field label={c.email}>
          {(props) => (
            <input
              {...props}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              className={inputClass}
              dir="ltr"
            />
          )}
        </Field>
        <Field label={c.role}>
          {(props) => (
            <select
              {...props}
              value={role}
              onChange={(event) => setRole(event.target.value as Role)}
              className={inputClass}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {c.roles[r]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={c.language}>
          {(props) => (
            <select
              {...props}
              value={language}
              onChange={(event) => setLanguage(event.target.value as Language)}
              className={inputClass}
            >
              {PANEL_LANGUAGES.map((code) => (
                <option key={code} value={code}>
                  {languageName(code)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <BusyButton type="submit" primary busy={busy} label={c.invite} busyLabel={c.inviting} />
      </form>
      <p className="mt-2 text-sm text-muted">{c.emailHelp}</p>
      <ErrorNote className="mt-3">{error}</ErrorNote>
      <div role="status" className="mt-3 min-h-5 text-sm text-ink">
        {invited && done && (invited.emailed || !invited.link) && <p>{f(c.emailed, done)}</p>}
        {invited && done && invited.link && (
          <div className="grid gap-2">
            <p>{f(c.linkShown, done)}</p>
            <code className="rounded bg-brand-50 px-1.5 py-1 font-mono text-sm break-all" translate="no" dir="ltr">
              {invited.link}
            </code>
            <button
              type="button"
              onClick={() => void copyLink(invited.link!)}
              className="btn btn-secondary justify-self-start"
            >
              {copied ? c.copied : c.copyLink}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
