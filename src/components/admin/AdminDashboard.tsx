/** /admin/submissions: the admin's dashboard (an editor is told it is for admins: AdminOnly). */
import { useEffect, useState } from "react";
import { AdminOnly } from "./AdminOnly";
import type { Language } from "#shared/languages.ts";
import type { ServiceNames } from "#shared/services.ts";
import type { PanelUser } from "#shared/api/panel-language.ts";
import { AVAILABILITY_PATH, SOURCES_PATH, TEXTS_PATH } from "./api";
import { LogoutButton } from "./LogoutButton";
import { BreakerBanner } from "./BreakerBanner";
import { useCopy } from "./copy";
import { DashboardLists } from "./DashboardLists";
import { DuePanel } from "./leads/DuePanel";
import { showFlashToast } from "./flash";
import { PrivacyPanel } from "./PrivacyPanel";
import { StatsBar } from "./StatsBar";
import { Icon, iconPaths } from "./ui";
import { AUDIT_PATH, SECURITY_PATH } from "./security/security-api";

/** `serviceNames`: the catalogue's names in every language, read from the locale files by the page. */
export default function AdminDashboard({ serviceNames }: { serviceNames: Record<Language, ServiceNames> }) {
  return <AdminOnly>{(user) => <Dashboard user={user} serviceNames={serviceNames} />}</AdminOnly>;
}

function Dashboard({ user, serviceNames }: { user: PanelUser; serviceNames: Record<Language, ServiceNames> }) {
  const { copy, f, lang } = useCopy();
  useEffect(() => showFlashToast(), []);
  const [statsVersion, setStatsVersion] = useState(0);
  const counted = () => setStatsVersion((v) => v + 1);
  return (
    <div className="container-page py-8 sm:py-12">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm text-muted">{f(copy.common.signedInAs, { name: user.username })}</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">{copy.dashboard.title}</h1>
        </div>
        <div className="flex flex-wrap gap-3">
          <a href={TEXTS_PATH} className="btn btn-secondary">
            <Icon path={iconPaths.pencil} />
            {copy.common.siteTexts}
          </a>
          <a href={AVAILABILITY_PATH} className="btn btn-secondary">
            <Icon path={iconPaths.calendar} />
            {copy.common.availability}
          </a>
          <a href={SOURCES_PATH} className="btn btn-secondary">
            {copy.layout.titles.sources}
          </a>
          <a href={SECURITY_PATH} className="btn btn-secondary">
            <Icon path={iconPaths.shield} />
            {copy.security.link}
          </a>
          <a href={AUDIT_PATH} className="btn btn-secondary">
            {copy.security.auditLink}
          </a>
          <a href="/" className="btn btn-secondary">
            <Icon path={iconPaths.arrowLeft} className="size-4 rtl:-scale-x-100" />
            {copy.common.backToWebsite}
          </a>
          <LogoutButton />
        </div>
      </div>
      <BreakerBanner />
      <DuePanel />
      <StatsBar version={statsVersion} />
      <DashboardLists serviceNames={serviceNames[lang]} onCounted={counted} />
      <PrivacyPanel />
    </div>
  );
}
