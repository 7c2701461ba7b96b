/** The admin's lists: the lead desk (on /admin/leads) or the meetings (/admin/meetings), each with its filters in the address. */
import { useCallback, useEffect, useState } from "react";
import { type EnquiryFilters, filtersToParams, isFiltered, type MeetingFilters } from "#shared/admin-lists.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import type { ServiceNames } from "#shared/services.ts";
import { exportUrl, meetingPage, setMeetingConfirmed } from "./api";
import { MeetingCard } from "./cards";
import { useCopy } from "./copy";
import { LeadDesk } from "./leads/LeadDesk";
import { MeetingFiltersBar } from "./MeetingFiltersBar";
import { listTexts } from "./list-texts";
import { StatusList } from "./StatusList";
import { iconPaths } from "./ui";
import { type DeskView, readView, type TabKey, type View, viewSearch } from "./view-url";

const meetingPending = (item: AdminMeeting) => !item.isConfirmed && !item.cancelledAt;
/** A stable key for a set of filters: a list is remounted (and starts again) when it changes. */
const filterKey = (filters: EnquiryFilters | MeetingFilters) => filtersToParams(filters).toString();

/** The view in the address (the list's filters), kept in step with Back and Forward. */
function useView(tab: TabKey) {
  const [initial] = useState<View>(() => readView(window.location.search, tab));
  const [enquiryFilters, setEnquiryFilters] = useState<EnquiryFilters>(
    initial.tab === "enquiries" ? initial.filters : {},
  );
  const [meetingFilters, setMeetingFilters] = useState<MeetingFilters>(
    initial.tab === "meetings" ? initial.filters : {},
  );
  const [desk, setDesk] = useState<DeskView | undefined>(initial.tab === "enquiries" ? initial.desk : undefined);
  const apply = (view: View) => {
    if (view.tab === "enquiries") {
      setEnquiryFilters(view.filters);
      setDesk(view.desk);
    } else setMeetingFilters(view.filters);
  };
  /** Shows a view and records it in the address (a new history entry, so Back returns to the last one). */
  const show = (view: View) => {
    apply(view);
    const address = `${window.location.pathname}${viewSearch(view)}`;
    if (address !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, "", address);
  };
  useEffect(() => {
    const onPopState = () => apply(readView(window.location.search, tab));
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, [tab]);
  return { enquiryFilters, meetingFilters, desk, show };
}

/** One list with its filters: the enquiries (`kind` "enquiries") or the meetings, each on a page of its own. */
export function DashboardLists({
  kind,
  serviceNames,
  onCounted,
}: {
  kind: TabKey;
  serviceNames: ServiceNames;
  onCounted: () => void;
}) {
  const texts = useCopy();
  const { enquiryFilters, meetingFilters, desk, show } = useView(kind);
  const loadMeetings = useCallback((next: string | null) => meetingPage(meetingFilters, next), [meetingFilters]);
  const counting = useCallback(
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
      async (...args: A) => {
        const result = await fn(...args);
        onCounted();
        return result;
      },
    [onCounted],
  );

  const panel = (key: TabKey, body: () => React.ReactNode) => key === kind && <div className="mt-6">{body()}</div>;

  return (
    <>
      {panel("enquiries", () => (
        <LeadDesk
          serviceNames={serviceNames}
          filters={enquiryFilters}
          onFiltersChange={(filters) => show({ tab: "enquiries", filters, desk })}
          view={desk}
          onViewChange={(view) => show({ tab: "enquiries", filters: enquiryFilters, desk: view })}
          onChanged={onCounted}
        />
      ))}
      {panel("meetings", () => (
        <>
          <MeetingFiltersBar
            filters={meetingFilters}
            onChange={(filters) => show({ tab: "meetings", filters })}
            exportHref={exportUrl("meetings", meetingFilters)}
          />
          <StatusList
            key={filterKey(meetingFilters)}
            isPending={meetingPending}
            loadPage={loadMeetings}
            filtered={isFiltered(meetingFilters)}
            toggle={counting((item: AdminMeeting) => setMeetingConfirmed(item.id, !item.isConfirmed))}
            texts={listTexts(texts, "meetings")}
            emptyIcon={iconPaths.calendar}
            renderCard={(item, controls, replace) => (
              <MeetingCard item={item} controls={controls} replace={replace} onOutcome={onCounted} />
            )}
          />
        </>
      ))}
    </>
  );
}
