/**
 * /admin/meetings: the meetings booked, with their filters in the address; admins only (AdminOnly).
 * An account that is a consultant opens on its own meetings ("mine": `?consultant=<their id>`);
 * "All consultants" is `?consultant=all`, so either view can be bookmarked.
 */
import { useEffect, useState } from "react";
import { ALL_CONSULTANTS } from "#shared/admin-lists.ts";
import type { Language } from "#shared/languages.ts";
import type { ServiceNames } from "#shared/services.ts";
import { AdminOnly } from "./AdminOnly";
import { loadConsultants } from "./consultants/store";
import { useCopy } from "./copy";
import { DashboardLists } from "./DashboardLists";
import { PageSpinner, PageTitle } from "./ui";

const nothing = () => {};

export default function MeetingsPage({ serviceNames }: { serviceNames: Record<Language, ServiceNames> }) {
  return <AdminOnly>{() => <Meetings serviceNames={serviceNames} />}</AdminOnly>;
}

/**
 * Puts the signed-in consultant's own filter in the address when the page opens bare (replacing, not
 * adding, a history entry). An address with filters of its own (a link from an email, a bookmark,
 * the old dashboard's) keeps meaning every consultant's meetings.
 */
async function openOnMine(): Promise<void> {
  const consultants = await loadConsultants();
  const params = new URLSearchParams(window.location.search);
  if ([...params.keys()].length) return;
  const mine = consultants.find((c) => c.mine);
  params.set("consultant", mine ? mine.id : ALL_CONSULTANTS);
  window.history.replaceState(null, "", `${window.location.pathname}?${params}`);
}

function Meetings({ serviceNames }: { serviceNames: Record<Language, ServiceNames> }) {
  const { copy, lang } = useCopy();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    void openOnMine().then(() => setReady(true));
  }, []);
  return (
    <div className="container-page py-8 sm:py-12">
      <PageTitle title={copy.layout.titles.meetings} />
      {ready ? (
        <DashboardLists kind="meetings" serviceNames={serviceNames[lang]} onCounted={nothing} />
      ) : (
        <PageSpinner />
      )}
    </div>
  );
}
