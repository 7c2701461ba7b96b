/**
 * The Security page's "Accounts", for admins (an editor sees nothing of it): every account with its
 * role, last sign-in and second factors; change a role, remove an account, end its sessions; invite
 * someone. The server keeps the last admin (409): that row offers neither (account-actions.ts), and
 * a refusal after a race is said in the panel's words.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import type { AccountInfo, SessionInfo } from "#shared/api/security.ts";
import type { PanelUser } from "#shared/api/panel-language.ts";
import type { Role } from "#shared/roles.ts";
import { ApiError } from "#src/lib/api-client.ts";
import { $sessionsVersion, sessionsChanged } from "#src/stores/sessions.ts";
import { showToast } from "#src/stores/toasts.ts";
import { goToLogin, homeOf } from "../api";
import { apiErrorText } from "../api-errors";
import { useAdminCopy, useCopy } from "../copy";
import { useSignedIn } from "../session";
import { Badge, ConfirmAction, ErrorNote, iconPaths, Loading, Section } from "../ui";
import { InviteForm } from "./InviteForm";
import { AccountFactors } from "./AccountFactors";
import { rowActions, type RowActions } from "./account-actions";
import { RoleChange } from "./RoleChange";
import { allSessions, changeAccountRole, endAnySession, listAccounts, removeAccount } from "./security-api";
import { SessionList } from "./SessionList";

interface Loaded {
  accounts: AccountInfo[];
  sessions: SessionInfo[];
}

export default function AccountsSection() {
  const texts = useAdminCopy();
  const user = useSignedIn();
  if (!texts || user?.role !== "admin") return null;
  return <Accounts me={user} />;
}

function Accounts({ me }: { me: PanelUser }) {
  const { copy, f } = useCopy();
  const c = copy.security.accounts;
  const version = useStore($sessionsVersion);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([listAccounts(), allSessions()]).then(
      ([accounts, sessions]) => {
        if (!live) return;
        setLoaded({ accounts, sessions });
        setLoadFailed(false);
      },
      () => live && setLoadFailed(true),
    );
    return () => {
      live = false;
    };
  }, [version, reloads]);
  const reload = () => setReloads((n) => n + 1);

  /** The panel's words for a refusal: the last admin, an account gone meanwhile, else by status. */
  const refusal = (failure: unknown) => {
    if (failure instanceof ApiError && failure.status === 404) reload();
    return apiErrorText(failure, copy.apiErrors, { 409: c.lastAdmin, 404: c.gone });
  };

  const onRoleChanged = async (account: AccountInfo, role: Role): Promise<boolean> => {
    setError(null);
    try {
      await changeAccountRole(account.id, role);
    } catch (failure) {
      setError(refusal(failure));
      return false;
    }
    // Someone who made themselves an editor has no Security accounts, dashboard or audit any more.
    if (account.id === me.id && role !== "admin") {
      window.location.assign(homeOf({ role }));
      return true;
    }
    showToast({
      title: f(c.roleChanged, { name: account.username, role: copy.common.roles[role] }),
      variant: "success",
    });
    sessionsChanged();
    return true;
  };

  const onRemove = async (account: AccountInfo): Promise<boolean> => {
    setError(null);
    try {
      await removeAccount(account.id);
    } catch (failure) {
      setError(refusal(failure));
      return false;
    }
    if (account.id === me.id) await goToLogin();
    showToast({ title: f(c.removed, { name: account.username }), variant: "success" });
    sessionsChanged();
    return true;
  };

  return (
    <Section id="accounts" title={c.title} intro={c.intro} icon={iconPaths.shield}>
      {loadFailed ? (
        <ErrorNote className="mt-4">{c.loadError}</ErrorNote>
      ) : !loaded ? (
        <Loading>{copy.security.loading}</Loading>
      ) : (
        <ul role="list" className="mt-5 grid gap-4">
          {loaded.accounts.map((account) => (
            <AccountRow
              // A new role from the server starts the row afresh (its menu shows that role).
              key={`${account.id}-${account.role}`}
              account={account}
              isMe={account.id === me.id}
              actions={rowActions(account, loaded.accounts)}
              sessions={loaded.sessions.filter((s) => s.userId === account.id)}
              onRole={(role) => onRoleChanged(account, role)}
              onRemove={() => onRemove(account)}
              onError={(failure) => setError(refusal(failure))}
            />
          ))}
        </ul>
      )}
      <ErrorNote className="mt-4">{error}</ErrorNote>
      <InviteForm onInvited={reload} />
    </Section>
  );
}

function AccountRow({
  account,
  isMe,
  actions,
  sessions,
  onRole,
  onRemove,
  onError,
}: {
  account: AccountInfo;
  isMe: boolean;
  actions: RowActions;
  sessions: SessionInfo[];
  onRole: (role: Role) => Promise<boolean>;
  onRemove: () => Promise<boolean>;
  onError: (failure: unknown) => void;
}) {
  const { copy, f, p, dateTime } = useCopy();
  const c = copy.security.accounts;
  const [ending, setEnding] = useState<string | null>(null);
  const nameId = `account-${account.id}`;

  const endOne = async (session: SessionInfo) => {
    setEnding(session.id);
    try {
      await endAnySession(session.id);
      showToast({ title: copy.security.sessions.ended, variant: "success" });
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.status === 404)) onError(failure);
    } finally {
      setEnding(null);
      sessionsChanged();
    }
  };

  return (
    <li data-testid="account" className="rounded-xl p-4 ring-1 ring-line">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span id={nameId} className="text-lg font-semibold break-words text-ink" translate="no">
              {account.username}
            </span>
            <Badge tone={account.role === "admin" ? "done" : "off"}>{copy.common.roles[account.role]}</Badge>
            {isMe && <span className="text-sm text-muted">({c.you})</span>}
          </p>
          <p className="mt-1 text-sm text-muted">
            {account.lastSignInAt ? f(c.lastSignIn, { when: dateTime(account.lastSignInAt) }) : c.neverSignedIn}
          </p>
          <AccountFactors account={account} />
        </div>
        <div className="flex flex-wrap items-center gap-3 lg:max-w-xl lg:justify-end">
          {actions.changeRole && <RoleChange account={account} nameId={nameId} onRole={onRole} />}
          {actions.remove && (
            <ConfirmAction
              label={c.remove}
              question={f(c.removeQuestion, { name: account.username })}
              confirmLabel={c.remove}
              busyLabel={c.removing}
              icon={iconPaths.trash}
              describedBy={nameId}
              onConfirm={onRemove}
            />
          )}
          {/* Only what the server allows: on the last admin's row, why there is nothing. */}
          {!actions.changeRole && !actions.remove && <p className="text-sm text-muted lg:max-w-xs">{c.lastAdmin}</p>}
        </div>
      </div>
      {sessions.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{c.noSessions}</p>
      ) : (
        <details className="mt-3">
          <summary className="inline-flex min-h-11 cursor-pointer items-center text-sm font-semibold text-brand-700">
            {p(c.liveSessions, sessions.length)}
          </summary>
          <SessionList
            sessions={sessions}
            ending={ending}
            label={f(c.sessionsOf, { name: account.username })}
            onEnd={(session) => void endOne(session)}
          />
        </details>
      )}
    </li>
  );
}
