/** /admin/meetings: the meetings booked, with their filters in the address; admins only (AdminOnly). */
import type { Language } from "#shared/languages.ts";
import type { ServiceNames } from "#shared/services.ts";
import { AdminOnly } from "./AdminOnly";
import { useCopy } from "./copy";
import { DashboardLists } from "./DashboardLists";
import { PageTitle } from "./ui";

const nothing = () => {};

export default function MeetingsPage({ serviceNames }: { serviceNames: Record<Language, ServiceNames> }) {
  return <AdminOnly>{() => <Meetings serviceNames={serviceNames} />}</AdminOnly>;
}

function Meetings({ serviceNames }: { serviceNames: Record<Language, ServiceNames> }) {
  const { copy, lang } = useCopy();
  return (
    <div className="container-page py-8 sm:py-12">
      <PageTitle title={copy.layout.titles.meetings} />
      <DashboardLists kind="meetings" serviceNames={serviceNames[lang]} onCounted={nothing} />
    </div>
  );
}
