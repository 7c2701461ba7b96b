import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { showToast } from "#src/stores/toasts.ts";
import {
  deleteEnquiry,
  enquiryPage,
  exportUrl,
  fetchCurrentUser,
  goToLogin,
  LOGIN_PATH,
  AVAILABILITY_PATH,
  TEXTS_PATH,
  logout,
  meetingPage,
  setEnquiryProcessed,
  setMeetingConfirmed,
} from "./api";
import { type EnquiryFilters, filtersToParams, isFiltered, type MeetingFilters } from "#shared/admin-lists.ts";
import type { AdminEnquiry } from "#shared/api/enquiries.ts";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import type { CurrentUser } from "#shared/api/people.ts";
import type { ServiceNames } from "#shared/services.ts";
import { BreakerBanner } from "./BreakerBanner";
import ContentEditor from "./editor/ContentEditor";
import { EnquiryCard, MeetingCard } from "./cards";
import { PeoplePanel } from "./PeoplePanel";
import { PrivacyPanel } from "./PrivacyPanel";
import { showFlashToast } from "./flash";
import { EnquiryFiltersBar, MeetingFiltersBar } from "./ListFilters";
import { StatsBar } from "./StatsBar";
import { StatusList, type StatusListTexts } from "./StatusList";
import { Icon, iconPaths, PageSpinner, Spinner } from "./ui";
import { readView, type TabKey, type View, viewSearch } from "./view-url";

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

// The enquiries tab is called "submissions" to the company's staff.
const enquiryTexts: StatusListTexts = {
  loading: "Loading submissions…",
  summary: (total, pending, more) =>
    `${plural(total, "submission")}${more ? " loaded" : ""} · ${pending} pending${more ? " · more below" : ""}`,
  errorTitle: "Error loading submissions",
  emptyTitle: "No submissions found",
  emptyText: "There are no contact form submissions yet.",
  emptyFilteredText: "No contact form submissions match this search and these filters.",
  noun: "submissions",
  updated: { title: "Status updated", description: "The submission status has been updated successfully." },
  failed: { title: "Update failed", description: "There was a problem updating the submission status." },
  removed: { title: "Enquiry deleted", description: "The enquiry and its emails have been deleted." },
  removeFailed: { title: "Delete failed", description: "There was a problem deleting the enquiry." },
};

const meetingTexts: StatusListTexts = {
  loading: "Loading meetings…",
  summary: (total, pending, more) =>
    `${plural(total, "meeting")}${more ? " loaded" : ""} · ${pending} pending${more ? " · more below" : ""}`,
  errorTitle: "Error loading meetings",
  emptyTitle: "No meetings found",
  emptyText: "There are no meeting reservations yet.",
  emptyFilteredText: "No meeting reservations match this search and these filters.",
  noun: "meetings",
  updated: { title: "Meeting status updated", description: "The meeting status has been updated successfully." },
  failed: { title: "Update failed", description: "There was a problem updating the meeting status." },
};

const enquiryPending = (item: AdminEnquiry) => !item.isProcessed;
const meetingPending = (item: AdminMeeting) => !item.isConfirmed && !item.cancelledAt;
const toggleEnquiry = (item: AdminEnquiry) => setEnquiryProcessed(item.id, !item.isProcessed);
const removeEnquiry = (item: AdminEnquiry) => deleteEnquiry(item.id);
const toggleMeeting = (item: AdminMeeting) => setMeetingConfirmed(item.id, !item.isConfirmed);

const TABS = [
  { key: "enquiries", label: "Contact Submissions", icon: iconPaths.inbox },
  { key: "meetings", label: "Meeting Reservations", icon: iconPaths.calendar },
] as const satisfies readonly { key: TabKey; label: string; icon: string }[];

/** A stable key for a set of filters: a list is remounted (and starts again) when it changes. */
const filterKey = (filters: EnquiryFilters | MeetingFilters) => filtersToParams(filters).toString();

/** The protected dashboard: a session check, then the two lists in tabs. */
/** `serviceNames`: the catalogue's English names, read from the locale file by the page. */
export default function AdminDashboard({ serviceNames }: { serviceNames: ServiceNames }) {
  const [user, setUser] = useState<CurrentUser | null>(null);

  useEffect(() => {
    let active = true;
    fetchCurrentUser()
      .then((found) => {
        if (!active) return;
        if (!found) return void goToLogin();
        setUser(found);
        showFlashToast();
      })
      .catch(() => active && void goToLogin());
    return () => {
      active = false;
    };
  }, []);

  if (!user) return <PageSpinner label="Checking your session…" />;
  if (user.role !== "admin") return <EditorHome user={user} />;
  return <Dashboard user={user} serviceNames={serviceNames} />;
}

/** An editor's dashboard is the content editor: no lead, meeting, subscriber or privacy tool. */
function EditorHome({ user }: { user: CurrentUser }) {
  return <ContentEditor user={user} />;
}

function Dashboard({ user, serviceNames }: { user: CurrentUser; serviceNames: ServiceNames }) {
  // The address names the tab and its filters; the other tab keeps its own filters while the page lives.
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
  const tabRefs = useRef<Record<TabKey, HTMLButtonElement | null>>({ enquiries: null, meetings: null });
  const [leaving, setLeaving] = useState(false);
  const [statsVersion, setStatsVersion] = useState(0);

  /** Shows a view and records it in the address (a new history entry, so Back returns to the last one). */
  const show = (view: View) => {
    setTab(view.tab);
    setOpened((keys) => (keys.has(view.tab) ? keys : new Set(keys).add(view.tab)));
    if (view.tab === "enquiries") setEnquiryFilters(view.filters);
    else setMeetingFilters(view.filters);
    const address = `${window.location.pathname}${viewSearch(view)}`;
    if (address !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, "", address);
  };

  useEffect(() => {
    const onPopState = () => {
      const view = readView(window.location.search);
      setTab(view.tab);
      setOpened((keys) => (keys.has(view.tab) ? keys : new Set(keys).add(view.tab)));
      if (view.tab === "enquiries") setEnquiryFilters(view.filters);
      else setMeetingFilters(view.filters);
    };
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, []);

  const select = (key: TabKey, focus = false) => {
    show(key === "enquiries" ? { tab: key, filters: enquiryFilters } : { tab: key, filters: meetingFilters });
    if (focus) tabRefs.current[key]?.focus();
  };

  const loadEnquiries = useCallback((next: string | null) => enquiryPage(enquiryFilters, next), [enquiryFilters]);
  const loadMeetings = useCallback((next: string | null) => meetingPage(meetingFilters, next), [meetingFilters]);
  const toggleEnquiryAndCount = useCallback(async (item: AdminEnquiry) => {
    const updated = await toggleEnquiry(item);
    setStatsVersion((v) => v + 1);
    return updated;
  }, []);
  const removeEnquiryAndCount = useCallback(async (item: AdminEnquiry) => {
    await removeEnquiry(item);
    setStatsVersion((v) => v + 1);
  }, []);
  const toggleMeetingAndCount = useCallback(async (item: AdminMeeting) => {
    const updated = await toggleMeeting(item);
    setStatsVersion((v) => v + 1);
    return updated;
  }, []);

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

  const onLogout = async () => {
    setLeaving(true);
    try {
      await logout();
      window.location.assign(LOGIN_PATH);
    } catch (error) {
      setLeaving(false);
      showToast({
        title: "Logout failed",
        description: error instanceof Error && error.message ? error.message : "Please try again.",
        variant: "destructive",
      });
    }
  };

  return (
    <div className="container-page py-8 sm:py-12">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm text-muted">
            Signed in as <span className="font-semibold text-ink">{user.username}</span>
          </p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">Admin Dashboard</h1>
        </div>
        <div className="flex flex-wrap gap-3">
          <a href={TEXTS_PATH} className="btn btn-secondary">
            <Icon path={iconPaths.pencil} />
            Site texts
          </a>
          <a href={AVAILABILITY_PATH} className="btn btn-secondary">
            <Icon path={iconPaths.calendar} />
            Availability
          </a>
          <a href="/admin/sources" className="btn btn-secondary">
            Sources
          </a>
          <a href="/" className="btn btn-secondary">
            <Icon path={iconPaths.arrowLeft} />
            Back to Website
          </a>
          <button
            type="button"
            onClick={onLogout}
            disabled={leaving}
            className="btn btn-secondary disabled:cursor-not-allowed disabled:opacity-70"
          >
            {leaving ? <Spinner className="size-4" /> : <Icon path={iconPaths.logout} />}
            Log out
          </button>
        </div>
      </div>

      <BreakerBanner />

      <StatsBar version={statsVersion} />

      <div
        role="tablist"
        aria-label="Admin lists"
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
              {t.label}
            </button>
          );
        })}
      </div>

      <div
        role="tabpanel"
        id="panel-enquiries"
        aria-labelledby="tab-enquiries"
        tabIndex={0}
        hidden={tab !== "enquiries"}
        className="mt-6 rounded-card"
      >
        {opened.has("enquiries") && (
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
              toggle={toggleEnquiryAndCount}
              remove={removeEnquiryAndCount}
              texts={enquiryTexts}
              emptyIcon={iconPaths.inbox}
              renderCard={(item, controls, replace) => (
                <EnquiryCard item={item} controls={controls} replace={replace} serviceNames={serviceNames} />
              )}
            />
          </>
        )}
      </div>
      <div
        role="tabpanel"
        id="panel-meetings"
        aria-labelledby="tab-meetings"
        tabIndex={0}
        hidden={tab !== "meetings"}
        className="mt-6 rounded-card"
      >
        {opened.has("meetings") && (
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
              toggle={toggleMeetingAndCount}
              texts={meetingTexts}
              emptyIcon={iconPaths.calendar}
              renderCard={(item, controls, replace) => (
                <MeetingCard
                  item={item}
                  controls={controls}
                  replace={replace}
                  onOutcome={() => setStatsVersion((v) => v + 1)}
                />
              )}
            />
          </>
        )}
      </div>

      <PrivacyPanel />

      <PeoplePanel />
    </div>
  );
}
