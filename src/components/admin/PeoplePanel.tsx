import { useId, useState, type SubmitEvent } from "react";
import type { InvitedUser } from "#shared/api/people.ts";
import { ROLES, type Role } from "#shared/roles.ts";
import { showToast } from "../../stores/toasts";
import { inviteUser } from "./api";
import { Icon, iconPaths, Spinner } from "./ui";

const ROLE_LABELS: Record<Role, string> = {
  admin: "Admin: the whole dashboard",
  editor: "Editor: the site's texts only",
};

/**
 * Invites a person as an admin or an editor. The new account's password is shown here once, for the
 * admin to hand over in person or by phone: it is never mailed, and nobody can read it again later.
 */
export function PeoplePanel() {
  const headingId = useId();
  const nameId = useId();
  const roleId = useId();
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
      showToast({
        title: "Invitation failed",
        description: failure instanceof Error && failure.message ? failure.message : "Please try again.",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section id="people" aria-labelledby={headingId} className="card mt-10 p-5 sm:p-6">
      <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold text-brand-950">
        <Icon path={iconPaths.shield} className="size-5 text-brand-700" />
        People
      </h2>
      <p className="mt-1.5 max-w-2xl text-sm text-muted">
        Give someone an account. An editor signs in here too and may change the site&apos;s texts only; an admin sees
        everything. The password appears once: hand it over in person or by phone, never by email.
      </p>
      <form onSubmit={onInvite} className="mt-5 flex flex-col gap-3 lg:flex-row lg:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor={nameId} className="text-sm font-semibold text-ink">
            Username
          </label>
          <input
            id={nameId}
            required
            autoComplete="off"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            className="mt-1.5 w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-ink focus:border-brand-500 focus:outline-none"
          />
        </div>
        <div className="min-w-0">
          <label htmlFor={roleId} className="text-sm font-semibold text-ink">
            Role
          </label>
          <select
            id={roleId}
            value={role}
            onChange={(event) => setRole(event.target.value as Role)}
            className="mt-1.5 w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-ink focus:border-brand-500 focus:outline-none"
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={busy} className="btn btn-primary disabled:cursor-wait disabled:opacity-70">
          {busy && <Spinner className="size-4" />}
          {busy ? "Inviting…" : "Invite"}
        </button>
      </form>
      <div role="status" className="mt-3 min-h-5 text-sm text-ink">
        {invited && (
          <p>
            <span className="font-semibold">{invited.user.username}</span> ({invited.user.role}) can sign in with the
            password <code className="rounded bg-brand-50 px-1.5 py-0.5 font-mono break-all">{invited.password}</code>
          </p>
        )}
      </div>
    </section>
  );
}
