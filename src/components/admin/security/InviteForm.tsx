import { useId, useState, type SubmitEvent } from "react";
import type { InvitedUser } from "#shared/api/people.ts";
import { ROLES, type Role } from "#shared/roles.ts";
import { inviteUser } from "../api";
import { apiErrorText } from "../api-errors";
import { useCopy } from "../copy";
import { BusyButton, ErrorNote, Field, inputClass } from "../ui";

/**
 * Invites a person as an admin or an editor (the Accounts section). The new account's password is
 * shown here once, for the admin to hand over in person or by phone: it is never mailed, and nobody
 * can read it again later.
 */
export function InviteForm({ onInvited }: { onInvited: () => void }) {
  const { copy, f } = useCopy();
  const c = copy.people;
  const titleId = useId();
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [invited, setInvited] = useState<InvitedUser | null>(null);

  const onInvite = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = username.trim();
    setBusy(true);
    setError(null);
    setInvited(null);
    try {
      setInvited(await inviteUser(name, role));
      setUsername("");
      onInvited();
    } catch (failure) {
      setError(apiErrorText(failure, copy.apiErrors, { 409: f(copy.security.accounts.taken, { name }) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section id="people" aria-labelledby={titleId} className="mt-8 border-t border-line pt-6">
      <h3 id={titleId} className="text-lg font-semibold text-brand-950">
        {copy.security.accounts.inviteTitle}
      </h3>
      <p className="mt-1 max-w-3xl text-sm text-muted">{c.intro}</p>
      <form onSubmit={onInvite} className="mt-5 flex flex-col gap-3 lg:flex-row lg:items-end">
        <Field label={c.username} className="flex-1">
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
        <BusyButton type="submit" primary busy={busy} label={c.invite} busyLabel={c.inviting} />
      </form>
      <ErrorNote className="mt-3">{error}</ErrorNote>
      <div role="status" className="mt-3 min-h-5 text-sm text-ink">
        {invited && (
          <p>
            {f(c.invited, { name: invited.user.username, role: copy.common.roles[invited.user.role] })}{" "}
            <code className="rounded bg-brand-50 px-1.5 py-0.5 font-mono break-all" translate="no" dir="ltr">
              {invited.password}
            </code>
          </p>
        )}
      </div>
    </section>
  );
}
