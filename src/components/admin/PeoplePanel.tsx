import { useState, type SubmitEvent } from "react";
import type { InvitedUser } from "#shared/api/people.ts";
import { ROLES, type Role } from "#shared/roles.ts";
import { showToast } from "#src/stores/toasts.ts";
import { inviteUser } from "./api";
import { useCopy } from "./copy";
import { BusyButton, Field, iconPaths, Section } from "./ui";

const inputClass =
  "w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-ink focus:border-brand-500 focus:outline-none";

/**
 * Invites a person as an admin or an editor. The new account's password is shown here once, for the
 * admin to hand over in person or by phone: it is never mailed, and nobody can read it again later.
 */
export function PeoplePanel() {
  const { copy, f } = useCopy();
  const c = copy.people;
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const [busy, setBusy] = useState(false);
  const [invited, setInvited] = useState<InvitedUser | null>(null);

  const onInvite = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setInvited(null);
    try {
      setInvited(await inviteUser(username.trim(), role));
      setUsername("");
    } catch (failure) {
      const description = failure instanceof Error && failure.message ? failure.message : copy.common.tryAgain;
      showToast({ title: c.failed, description, variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section id="people" title={c.title} intro={c.intro} icon={iconPaths.shield} className="mt-10">
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
    </Section>
  );
}
