/** The admin's lists: enquiries ("submissions" to the staff, on /admin/leads) or meetings (/admin/meetings), with their filters. */
import { useCallback, useEffect, useState } from "react";
import { type EnquiryFilters, filtersToParams, isFiltered, type MeetingFilters } from "#shared/admin-lists.ts";
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import type { ServiceNames } from "#shared/services.ts";
import { deleteEnquiry, enquiryPage, exportUrl, meetingPage, changeLead, setMeetingConfirmed } from "./api";
import { EnquiryCard, MeetingCard } from "./cards";
import { useCopy, type AdminText } from "./copy";
import { EnquiryFiltersBar, MeetingFiltersBar } from "./ListFilters";
import { StatusList, type StatusListTexts } from "./StatusList";
import { iconPaths } from "./ui";
import { readView, type TabKey, type View, viewSearch } from "./view-url";

/** A list's words, from the admin texts of the dashboard. */
function listTexts({ copy, f, p }: AdminText, kind: "enquiries" | "meetings"): StatusListTexts {
  const c = copy.dashboard[kind];
  const toast = (title: string, description: string) => ({ title, description });
  return {
    loading: c.loading,
    summary: (total, pending, more) =>
      [
        `${p(c.count, total)}${more ? ` ${copy.dashboard.loaded}` : ""}`,
        f(copy.dashboard.pending, { count: pending }),
        ...(more ? [copy.dashboard.moreBelow] : []),
      ].join(" · "),
    errorTitle: c.errorTitle,
    emptyTitle: c.emptyTitle,
    emptyText: c.emptyText,
    emptyFilteredText: c.emptyFilteredText,
    loadMore: c.loadMore,
    updated: toast(c.updated, c.updatedText),
    failed: toast(c.failed, c.failedText),
    ...("removed" in c && {
      removed: toast(c.removed, c.removedText),
      removeFailed: toast(c.removeFailed, c.removeFailedText),
    }),
  };
}

const enquiryPending = (item: AdminEnquiry) => item.stage === "new";
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
  const apply = (view: View) => {
    if (view.tab === "enquiries") setEnquiryFilters(view.filters);
    else setMeetingFilters(view.filters);
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
  return { enquiryFilters, meetingFilters, show };
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
  const { enquiryFilters, meetingFilters, show } = useView(kind);
  const loadEnquiries = useCallback((next: string | null) => enquiryPage(enquiryFilters, next), [enquiryFilters]);
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
        <>
          <EnquiryFiltersBar
            filters={enquiryFilters}
            onChange={(filters) => show({ tab: "enquiries", filters })}
            exportHref={exportUrl("submissions", enquiryFilters)}
            serviceNames={serviceNames}
          />
          <StatusList
            key={filterKey(enquiryFilters)}
            isPending={enquiryPending}
            loadPage={loadEnquiries}
            filtered={isFiltered(enquiryFilters)}
            toggle={counting((item: AdminEnquiry) =>
              changeLead(item, { stage: item.stage === "new" ? "replied" : "new" }),
            )}
            remove={counting((item: AdminEnquiry) => deleteEnquiry(item.id))}
            texts={listTexts(texts, "enquiries")}
            emptyIcon={iconPaths.inbox}
            renderCard={(item, controls, replace) => (
              <EnquiryCard item={item} controls={controls} replace={replace} serviceNames={serviceNames} />
            )}
          />
        </>
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
