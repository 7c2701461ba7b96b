/** The Security page's heading and links: back to where the person works, the audit record for admins. */
import { DASHBOARD_PATH, TEXTS_PATH } from "../api";
import { useAdminCopy } from "../copy";
import { LogoutButton } from "../LogoutButton";
import { useSignedIn } from "../session";
import { Icon, iconPaths, PageSpinner } from "../ui";
import { AUDIT_PATH } from "./security-api";

export default function SecurityHeader() {
  const texts = useAdminCopy();
  const user = useSignedIn();
  if (!texts || !user) return <PageSpinner label={texts?.copy.common.checkingSession} />;
  const { copy, f } = texts;
  const admin = user.role === "admin";
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <p className="text-sm text-muted">
          {f(copy.common.signedInAsRole, { name: user.username, role: copy.common.roles[user.role] })}
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">{copy.security.title}</h1>
        <p className="mt-2 max-w-2xl text-muted">{copy.security.intro}</p>
      </div>
      <nav aria-label={copy.security.title} className="flex flex-wrap gap-3">
        <a href={admin ? DASHBOARD_PATH : TEXTS_PATH} className="btn btn-secondary">
          <Icon path={iconPaths.arrowLeft} className="size-4 rtl:-scale-x-100" />
          {admin ? copy.common.backToDashboard : copy.common.siteTexts}
        </a>
        {admin && (
          <a href={AUDIT_PATH} className="btn btn-secondary">
            {copy.security.auditLink}
          </a>
        )}
        <LogoutButton />
      </nav>
    </div>
  );
}
