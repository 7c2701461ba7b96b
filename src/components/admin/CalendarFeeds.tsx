import { useId, useState } from "react";
import type { CalendarFeed, CalendarFeedsAnswer, CalendarFetchAnswer } from "#shared/api/calendars.ts";
import { fill, ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { AdminOnly } from "./AdminOnly";
import { adminRequest } from "./api";
import { AddFeedForm } from "./calendars/AddFeedForm";
import { MeetingsFeed } from "./calendars/MeetingsFeed";
import { OwnerNote } from "./calendars/Owner";
import { fetchSummary } from "./calendars/summary";
import { useCopy } from "./copy";
import {
  Badge,
  BusyButton,
  ConfirmAction,
  ErrorNote,
  iconPaths,
  Loading,
  problem,
  RowList,
  Section,
  useResource,
} from "./ui";

/**
 * The availability page's calendar sections: the connected calendars whose busy times keep visitors
 * out (add, test, refresh, remove), and the private address of the meetings feed the team
 * subscribes to. Its own island, beside the office hours editor.
 */
export default function CalendarFeeds() {
  // Quiet: the office hours' island above tells an editor the page is for admins.
  return (
    <AdminOnly quiet>
      {() => (
        <div className="container-page grid gap-8 pb-8 sm:pb-12">
          <ConnectedCalendars />
          <MeetingsFeed />
        </div>
      )}
    </AdminOnly>
  );
}

const loadFeeds = () => adminRequest<CalendarFeedsAnswer>("GET", ROUTES.admin.calendars).then((a) => a.data);

function ConnectedCalendars() {
  const { copy, f } = useCopy();
  const c = copy.calendarFeeds;
  const feeds = useResource(loadFeeds);
  const staleHours = feeds.data?.staleAfterHours ?? 24;
  const reload = async () => {
    await feeds.reload();
  };
  const list = feeds.data?.feeds;

  return (
    <Section title={c.title} intro={f(c.intro, { hours: staleHours })} data-testid="calendar-feeds">
      {feeds.failed ? (
        <ErrorNote className="mt-5">{c.loadError}</ErrorNote>
      ) : !list ? (
        <Loading>{c.loading}</Loading>
      ) : list.length ? (
        <RowList>
          {list.map((feed) => (
            <FeedRow
              key={feed.id}
              feed={feed}
              staleHours={staleHours}
              onChange={reload}
              onRemoved={() => feeds.set({ ...feeds.data!, feeds: list.filter((x) => x.id !== feed.id) })}
            />
          ))}
        </RowList>
      ) : (
        <p className="mt-5 text-muted">{c.none}</p>
      )}
      {/* After the list has loaded: a form typed into before hydration would lose its text. */}
      {list && <AddFeedForm onAdded={reload} />}
    </Section>
  );
}

function FeedRow({
  feed,
  staleHours,
  onChange,
  onRemoved,
}: {
  feed: CalendarFeed;
  staleHours: number;
  onChange: () => Promise<void>;
  onRemoved: () => void;
}) {
  const texts = useCopy();
  const { copy, f, p, dateTime } = texts;
  const c = copy.calendarFeeds;
  const titleId = useId();
  const [refreshing, setRefreshing] = useState(false);
  const [result, setResult] = useState<string | null>(null);

  const refresh = async () => {
    setRefreshing(true);
    setResult(null);
    try {
      const route = fill(ROUTES.admin.calendarRefresh, { id: feed.id });
      const answer = await adminRequest<CalendarFetchAnswer>("POST", route);
      setResult(fetchSummary(texts, answer.data));
      await onChange();
    } catch (e) {
      setResult(problem(e, c.refreshError));
    } finally {
      setRefreshing(false);
    }
  };

  const remove = async () => {
    try {
      await adminRequest("DELETE", fill(ROUTES.admin.calendar, { id: feed.id }));
      onRemoved();
      showToast({ title: c.removed, description: f(c.removedText, { name: feed.name }), variant: "success" });
      return true;
    } catch (e) {
      const description = problem(e, copy.common.tryAgain);
      showToast({ title: copy.common.removeFailed, description, variant: "destructive" });
      return false;
    }
  };

  return (
    <li className="grid gap-3 px-4 py-4 sm:grid-cols-[1fr_auto] sm:items-start" data-feed={feed.name}>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span id={titleId} className="font-semibold text-ink [overflow-wrap:anywhere]" translate="no">
            {feed.name}
          </span>
          {feed.failingSince ? (
            <Badge tone="pending">{feed.stale ? c.failingStale : c.failing}</Badge>
          ) : feed.lastOkAt ? (
            <Badge tone="done">{c.working}</Badge>
          ) : (
            <Badge tone="off">{c.notRead}</Badge>
          )}
          {feed.fromEnv && <Badge tone="off">{c.fromEnv}</Badge>}
        </p>
        <p className="mt-1 text-sm text-muted [overflow-wrap:anywhere]">
          <span dir="ltr" translate="no">
            {feed.address}
          </span>
          {feed.hasCredentials && ` · ${c.withCredentials}`}
        </p>
        {feed.ownerEmail && <OwnerNote email={feed.ownerEmail} />}
        <p className="mt-1 text-sm text-ink">
          {feed.lastOkAt
            ? f(c.lastRead, { date: dateTime(feed.lastOkAt), busy: p(c.busyTimes, feed.eventCount) })
            : c.neverRead}
        </p>
        {feed.failingSince && (
          <p className="mt-1 text-sm font-medium text-red-800">
            {f(c.cannotRead, { date: dateTime(feed.failingSince), error: feed.lastError ?? "" })}{" "}
            {f(feed.stale ? c.staleText : c.notStaleText, { hours: staleHours })}
          </p>
        )}
        <p role="status" className="mt-1 text-sm text-ink empty:hidden">
          {result}
        </p>
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        <BusyButton
          busy={refreshing}
          label={c.refresh}
          busyLabel={c.refreshing}
          icon={iconPaths.undo}
          onClick={() => void refresh()}
          describedBy={titleId}
          className="min-h-11"
        />
        {!feed.fromEnv && (
          <ConfirmAction
            label={copy.common.remove}
            question={f(c.removeQuestion, { name: feed.name })}
            confirmLabel={c.removeConfirm}
            busyLabel={copy.common.removing}
            icon={iconPaths.trash}
            describedBy={titleId}
            onConfirm={remove}
          />
        )}
      </div>
    </li>
  );
}
