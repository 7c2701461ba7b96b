/** The dashboard's two lists in tabs: enquiries ("submissions" to the staff) and meetings, each with its filters. */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { type EnquiryFilters, filtersToParams, isFiltered, type MeetingFilters } from "#shared/admin-lists.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import type { ServiceNames } from "#shared/services.ts";
import { exportUrl, meetingPage, setMeetingConfirmed } from "./api";
import { MeetingCard } from "./cards";
import { LeadDesk } from "./leads/LeadDesk";
import { listTexts } from "./list-texts";
import { useCopy } from "./copy";
import { MeetingFiltersBar } from "./ListFilters";
import { StatusList } from "./StatusList";
import { Icon, iconPaths } from "./ui";
import { readView, type TabKey, type View, viewSearch } from "./view-url";

const TABS = [
  { key: "enquiries", icon: iconPaths.inbox },
  { key: "meetings", icon: iconPaths.calendar },
] as const satisfies readonly { key: TabKey; icon: string }[];

const meetingPending = (item: AdminMeeting) => !item.isConfirmed && !item.cancelledAt;
/** A stable key for a set of filters: a list is remounted (and starts again) when it changes. */
const filterKey = (filters: EnquiryFilters | MeetingFilters) => filtersToParams(filters).toString();

/** The view in the address (tab and filters), kept in step with Back and Forward. */
function useView() {
  const [initial] = useState<View>(() => readView(window.location.search));
  const [tab, setTab] = useState<TabKey>(initial.tab);
  const [enquiryFilters, setEnquiryFilters] = useState<EnquiryFilters>(
    initial.tab === "enquiries" ? initial.filters : {},
  );
  const [meetingFilters, setMeetingFilters] = useState<MeetingFilters>(
    initial.tab === "meetings" ? initial.filters : {},
  );
  // A tab's list loads the first time it is shown and then stays (no refetch on switching back).
  const [opened, setOpened] = useState<ReadonlySet<TabKey>>(new Set([initial.tab]));
  const apply = (view: View) => {
    setTab(view.tab);
    setOpened((keys) => (keys.has(view.tab) ? keys : new Set(keys).add(view.tab)));
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
    const onPopState = () => apply(readView(window.location.search));
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, []);
  return { tab, opened, enquiryFilters, meetingFilters, show };
}

export function DashboardLists({ serviceNames, onCounted }: { serviceNames: ServiceNames; onCounted: () => void }) {
  const texts = useCopy();
  const { copy } = texts;
  const { tab, opened, enquiryFilters, meetingFilters, show } = useView();
  const tabRefs = useRef<Record<TabKey, HTMLButtonElement | null>>({ enquiries: null, meetings: null });

  const select = (key: TabKey, focus = false) => {
    show(key === "enquiries" ? { tab: key, filters: enquiryFilters } : { tab: key, filters: meetingFilters });
    if (focus) tabRefs.current[key]?.focus();
  };
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

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((t) => t.key === tab);
    const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1 }[event.key];
    let next: number | null = null;
    if (step) next = (index + step + TABS.length) % TABS.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = TABS.length - 1;
    if (next === null) return;
    event.preventDefault();
    select(TABS[next].key, true);
  };

  const panel = (key: TabKey, body: () => React.ReactNode) => (
    <div
      role="tabpanel"
      id={`panel-${key}`}
      aria-labelledby={`tab-${key}`}
      tabIndex={0}
      hidden={tab !== key}
      className="mt-6 rounded-card"
    >
      {opened.has(key) && body()}
    </div>
  );

  return (
    <>
      <div
        role="tablist"
        aria-label={copy.dashboard.listsLabel}
        className="mt-8 grid w-full grid-cols-2 gap-1 rounded-2xl bg-slate-100 p-1 sm:inline-grid sm:w-auto sm:p-1.5"
      >
        {TABS.map((t) => {
          const selected = t.key === tab;
          return (
            <button
              key={t.key}
              ref={(el) => {
                tabRefs.current[t.key] = el;
              }}
              type="button"
              role="tab"
              id={`tab-${t.key}`}
              aria-selected={selected}
              aria-controls={`panel-${t.key}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(t.key)}
              onKeyDown={onTabKey}
              className={`flex min-h-11 items-center justify-center gap-2 rounded-xl px-2 py-2 text-center text-sm font-semibold transition-colors sm:px-5 ${
                selected ? "bg-white text-brand-800 shadow-card" : "text-slate-700 hover:bg-white/60 hover:text-ink"
              }`}
            >
              <Icon path={t.icon} className="hidden size-4 sm:block" />
              {copy.dashboard.tabs[t.key]}
            </button>
          );
        })}
      </div>
      {panel("enquiries", () => (
        <LeadDesk
          serviceNames={serviceNames}
          filters={enquiryFilters}
          onFiltersChange={(filters) => show({ tab: "enquiries", filters })}
          onChanged={onCounted}
          initialView="list"
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
