/**
 * /admin/leads: where an admin works (homeOf): the warnings, the figures and the enquiries. An editor
 * is told the page is for admins (AdminOnly).
 */
import { useEffect, useState } from "react";
import type { Language } from "#shared/languages.ts";
import type { ServiceNames } from "#shared/services.ts";
import { AdminOnly } from "./AdminOnly";
import { BreakerBanner } from "./BreakerBanner";
import { DashboardLists } from "./DashboardLists";
import { DuePanel } from "./leads/DuePanel";
import { LostReasons } from "./leads/LostReasons";
import { useCopy } from "./copy";
import { showFlashToast } from "./flash";
import { StatsBar } from "./StatsBar";
import { PageTitle } from "./ui";

/** `serviceNames`: the catalogue's names in every language, read from the locale files by the page. */
export default function LeadsPage({ serviceNames }: { serviceNames: Record<Language, ServiceNames> }) {
  return <AdminOnly>{() => <Leads serviceNames={serviceNames} />}</AdminOnly>;
}

function Leads({ serviceNames }: { serviceNames: Record<Language, ServiceNames> }) {
  const { copy, lang } = useCopy();
  // The welcome after signing in: an admin lands here.
  useEffect(() => showFlashToast(), []);
  const [statsVersion, setStatsVersion] = useState(0);
  const counted = () => setStatsVersion((v) => v + 1);
  return (
    <div className="container-page py-8 sm:py-12">
      <PageTitle title={copy.layout.titles.leads} />
      <BreakerBanner />
      <DuePanel />
      <StatsBar version={statsVersion} />
      <DashboardLists kind="enquiries" serviceNames={serviceNames[lang]} onCounted={counted} />
      <LostReasons />
    </div>
  );
}
