import { useEffect, useId, useState, type SubmitEvent } from "react";
import type {
  CalendarFeed,
  CalendarFeedsAnswer,
  CalendarFetchAnswer,
  CalendarFetchResult,
  MeetingsFeedAnswer,
} from "#shared/api/calendars.ts";
import { fill, ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest, ApiError } from "./api";
import { ConfirmAction } from "./ConfirmAction";
import { OwnerEmailField, OwnerNote } from "./CalendarOwner";
import { formatDateTime } from "./format";
import { Badge, Icon, iconPaths, Spinner } from "./ui";

const inputClass =
  "block w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

const problem = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a fetch found, in plain words. */
export function fetchSummary(result: CalendarFetchResult): string {
  if (!result.ok) return `Could not read the calendar: ${result.error ?? "unknown reason"}.`;
  const events = plural(result.events ?? 0, "event", "events");
  const busy = plural(result.intervals ?? 0, "busy time", "busy times");
  return `Read the calendar: ${events}, making ${busy} within the booking period.`;
}

/**
 * The availability page's calendar sections: the connected calendars whose busy times keep visitors
 * out (add, test, refresh, remove), and the private address of the meetings feed the team
 * subscribes to. Its own island, beside the office hours editor.
 */
export default function CalendarFeeds() {
  return (
    <div className="container-page grid gap-8 pb-8 sm:pb-12">
      <ConnectedCalendars />
      <MeetingsFeed />
    </div>
  );
}

function ConnectedCalendars() {
  const [feeds, setFeeds] = useState<CalendarFeed[] | null>(null);
  const [staleHours, setStaleHours] = useState(24);
  const [failed, setFailed] = useState(false);

  const load = () =>
    adminRequest<CalendarFeedsAnswer>("GET", ROUTES.admin.calendars).then(
      (answer) => {
        setFeeds(answer.data.feeds);
        setStaleHours(answer.data.staleAfterHours);
        setFailed(false);
      },
      () => setFailed(true),
    );
  const reload = async () => {
    await load();
  };
  useEffect(() => {
    void load();
  }, []);

  return (
    <section aria-labelledby="calendars-title" className="card p-5 sm:p-6" data-testid="calendar-feeds">
      <h2 id="calendars-title" className="text-xl font-bold text-brand-950">
        Connected calendars
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted">
        The team&apos;s own calendars (Google, Outlook, iCloud or any CalDAV calendar): a time that is busy in any of
        them is not offered to visitors. They are read every 15 minutes. A calendar that cannot be read keeps its last
        good copy for {staleHours} hours; after that no slot is offered until it works again or is removed.
      </p>
      {failed ? (
        <p role="alert" className="mt-5 rounded-xl bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          The connected calendars could not be loaded. Please reload the page.
        </p>
      ) : feeds === null ? (
        <p className="mt-5 flex items-center gap-2 text-muted">
          <Spinner className="size-4" /> Loading calendars…
        </p>
      ) : feeds.length ? (
        <ul role="list" className="mt-5 divide-y divide-line rounded-xl ring-1 ring-line">
          {feeds.map((feed) => (
            <FeedRow
              key={feed.id}
              feed={feed}
              staleHours={staleHours}
              onChange={reload}
              onRemoved={() => setFeeds(feeds.filter((f) => f.id !== feed.id))}
            />
          ))}
        </ul>
      ) : (
        <p className="mt-5 text-muted">No calendar connected yet.</p>
      )}
      {/* After the list has loaded: a form typed into before hydration would lose its text. */}
      {feeds !== null && <AddFeedForm onAdded={reload} />}
    </section>
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
  const titleId = useId();
  const [refreshing, setRefreshing] = useState(false);
  const [result, setResult] = useState<string | null>(null);

  const refresh = async () => {
    setRefreshing(true);
    setResult(null);
    try {
      const answer = await adminRequest<CalendarFetchAnswer>(
        "POST",
        fill(ROUTES.admin.calendarRefresh, { id: feed.id }),
      );
      setResult(fetchSummary(answer.data));
      await onChange();
    } catch (e) {
      setResult(problem(e, "The calendar could not be refreshed. Please try again."));
    } finally {
      setRefreshing(false);
    }
  };

  const remove = async () => {
    try {
      await adminRequest("DELETE", fill(ROUTES.admin.calendar, { id: feed.id }));
      onRemoved();
      showToast({
        title: "Calendar removed",
        description: `${feed.name} no longer blocks any time.`,
        variant: "success",
      });
      return true;
    } catch (e) {
      showToast({ title: "Remove failed", description: problem(e, "Please try again."), variant: "destructive" });
      return false;
    }
  };

  return (
    <li className="grid gap-3 px-4 py-4 sm:grid-cols-[1fr_auto] sm:items-start" data-feed={feed.name}>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <span id={titleId} className="font-semibold text-ink [overflow-wrap:anywhere]">
            {feed.name}
          </span>
          {feed.failingSince ? (
            <Badge tone="pending">{feed.stale ? "Failing: no slots offered" : "Failing"}</Badge>
          ) : feed.lastOkAt ? (
            <Badge tone="done">Working</Badge>
          ) : (
            <Badge tone="off">Not read yet</Badge>
          )}
          {feed.fromEnv && <Badge tone="off">Set by BUSY_CALENDARS</Badge>}
        </p>
        <p className="mt-1 text-sm text-muted [overflow-wrap:anywhere]">
          <span dir="ltr">{feed.address}</span>
          {feed.hasCredentials && " · with user name and password"}
        </p>
        {feed.ownerEmail && <OwnerNote email={feed.ownerEmail} />}
        <p className="mt-1 text-sm text-ink">
          {feed.lastOkAt
            ? `Last read ${formatDateTime(feed.lastOkAt)}: ${plural(feed.eventCount, "busy time", "busy times")}.`
            : "Never read successfully."}
        </p>
        {feed.failingSince && (
          <p className="mt-1 text-sm font-medium text-red-800">
            Cannot be read since {formatDateTime(feed.failingSince)}: {feed.lastError}.{" "}
            {feed.stale
              ? `After ${staleHours} hours the last copy no longer counts: no slot is offered until this calendar works again or is removed.`
              : `Its last copy keeps blocking its busy times for up to ${staleHours} hours.`}
          </p>
        )}
        <p role="status" className="mt-1 text-sm text-ink empty:hidden">
          {result}
        </p>
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        <button
          type="button"
          onClick={() => void refresh()}
          disabled={refreshing}
          aria-describedby={titleId}
          className="btn btn-secondary min-h-11 disabled:opacity-70"
        >
          {refreshing ? <Spinner className="size-4" /> : <Icon path={iconPaths.undo} />}
          {refreshing ? "Refreshing…" : "Refresh"}
        </button>
        {!feed.fromEnv && (
          <ConfirmAction
            label="Remove"
            question={`Remove ${feed.name}? Its busy times stop blocking slots at once.`}
            confirmLabel="Remove calendar"
            busyLabel="Removing…"
            icon={iconPaths.trash}
            describedBy={titleId}
            onConfirm={remove}
          />
        )}
      </div>
    </li>
  );
}

function AddFeedForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [ownerEmail, setOwnerEmail] = useState("");
  const [busy, setBusy] = useState<"test" | "add" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tested, setTested] = useState<CalendarFetchResult | null>(null);

  const payload = () => ({
    name: name.trim() || "Calendar",
    url: url.trim(),
    ...(username && { username }),
    ...(password && { password }),
    ...(ownerEmail.trim() && { ownerEmail: ownerEmail.trim() }),
  });
  const missing = () => {
    if (!url.trim()) return "Enter the calendar's ICS address.";
    if (!/^(https?|webcal):\/\/\S+$/i.test(url.trim()))
      return "The address must start with https://, http:// or webcal://.";
    return null;
  };

  const test = async () => {
    setError(null);
    setTested(null);
    const wrong = missing();
    if (wrong) return setError(wrong);
    setBusy("test");
    try {
      const answer = await adminRequest<CalendarFetchAnswer>("POST", ROUTES.admin.calendarTest, payload());
      setTested(answer.data);
    } catch (e) {
      setError(problem(e, "The calendar could not be tested. Please try again."));
    } finally {
      setBusy(null);
    }
  };

  const add = async (event: SubmitEvent) => {
    event.preventDefault();
    setError(null);
    setTested(null);
    const wrong = missing() ?? (name.trim() ? null : "Give the calendar a name.");
    if (wrong) return setError(wrong);
    setBusy("add");
    try {
      const answer = await adminRequest<CalendarFetchAnswer>("POST", ROUTES.admin.calendars, payload());
      await onAdded();
      setName("");
      setUrl("");
      setUsername("");
      setPassword("");
      setOwnerEmail("");
      showToast({
        title: "Calendar connected",
        description: fetchSummary(answer.data),
        variant: answer.data.ok ? "success" : "destructive",
      });
    } catch (e) {
      setError(problem(e, "The calendar could not be added."));
    } finally {
      setBusy(null);
    }
  };

  return (
    <form onSubmit={add} aria-labelledby="add-calendar-title" className="mt-6 border-t border-line pt-5" noValidate>
      <h3 id="add-calendar-title" className="font-semibold text-ink">
        Connect a calendar
      </h3>
      <p className="mt-1 text-sm text-muted">
        Google: &ldquo;Secret address in iCal format&rdquo;. Outlook: a published calendar&apos;s ICS link. iCloud: a
        public calendar&apos;s link. CalDAV: the calendar&apos;s address, with a user name and an app password. The
        address and password are stored encrypted and never shown again.
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <label className="grid gap-1.5 text-sm font-semibold text-ink">
          Name
          <input
            type="text"
            value={name}
            maxLength={80}
            onChange={(e) => setName(e.target.value)}
            className={inputClass}
            placeholder="e.g. Sara's work calendar"
            required
          />
        </label>
        <label className="grid gap-1.5 text-sm font-semibold text-ink">
          ICS address
          <input
            type="url"
            dir="ltr"
            value={url}
            maxLength={2000}
            onChange={(e) => setUrl(e.target.value)}
            className={inputClass}
            placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
            autoComplete="off"
            spellCheck={false}
            required
          />
        </label>
        <label className="grid gap-1.5 text-sm font-semibold text-ink">
          <span>
            User name <span className="font-normal text-muted">(optional, for CalDAV)</span>
          </span>
          <input
            type="text"
            dir="ltr"
            value={username}
            maxLength={200}
            onChange={(e) => setUsername(e.target.value)}
            className={inputClass}
            autoComplete="off"
          />
        </label>
        <label className="grid gap-1.5 text-sm font-semibold text-ink">
          <span>
            Password <span className="font-normal text-muted">(optional)</span>
          </span>
          <input
            type="password"
            dir="ltr"
            value={password}
            maxLength={500}
            onChange={(e) => setPassword(e.target.value)}
            className={inputClass}
            autoComplete="new-password"
          />
        </label>
        <OwnerEmailField value={ownerEmail} onChange={setOwnerEmail} className={inputClass} />
      </div>
      <p role="status" className="mt-4 text-sm empty:hidden" data-testid="calendar-test-result">
        {tested && (
          <span className={tested.ok ? "font-medium text-green-800" : "font-medium text-red-800"}>
            {fetchSummary(tested)}
          </span>
        )}
      </p>
      {error && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          onClick={() => void test()}
          disabled={busy !== null}
          className="btn btn-secondary disabled:opacity-70"
        >
          {busy === "test" ? <Spinner className="size-4" /> : <Icon path={iconPaths.check} />}
          {busy === "test" ? "Testing…" : "Test"}
        </button>
        <button type="submit" disabled={busy !== null} className="btn btn-primary disabled:opacity-70">
          {busy === "add" ? <Spinner className="size-4" /> : <Icon path="M12 5v14M5 12h14" />}
          {busy === "add" ? "Connecting…" : "Add calendar"}
        </button>
      </div>
    </form>
  );
}

function MeetingsFeed() {
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const [making, setMaking] = useState(false);

  useEffect(() => {
    adminRequest<MeetingsFeedAnswer>("GET", ROUTES.admin.meetingsFeed)
      .then((answer) => setUrl(answer.data.url))
      .catch(() => setFailed(true));
  }, []);

  const make = async () => {
    setMaking(true);
    try {
      const answer = await adminRequest<MeetingsFeedAnswer>("POST", ROUTES.admin.meetingsFeed);
      const replaced = Boolean(url);
      setUrl(answer.data.url);
      showToast({
        title: replaced ? "New address made" : "Address made",
        description: replaced
          ? "The old address no longer works: subscribe to the new one."
          : "Subscribe to it in your calendar app.",
        variant: "success",
      });
      return true;
    } catch (e) {
      showToast({ title: "Failed", description: problem(e, "Please try again."), variant: "destructive" });
      return false;
    } finally {
      setMaking(false);
    }
  };

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      showToast({ title: "Address copied", description: "Paste it into your calendar app.", variant: "success" });
    } catch {
      showToast({ title: "Copy failed", description: "Select the address and copy it.", variant: "destructive" });
    }
  };

  return (
    <section aria-labelledby="meetings-feed-title" className="card p-5 sm:p-6" data-testid="meetings-feed">
      <h2 id="meetings-feed-title" className="text-xl font-bold text-brand-950">
        Meetings in your calendar
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-muted">
        A private address your calendar app subscribes to (Google: Other calendars → From URL; Outlook: Subscribe from
        web; Apple: New Calendar Subscription). It shows every meeting with the visitor&apos;s name, contact, language
        and a link to it in this admin (none that can change it); moves and cancellations follow. Anyone with the
        address can read these details: share it only with the team, and make a new one if it leaks.
      </p>
      {failed ? (
        <p role="alert" className="mt-5 rounded-xl bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          The address could not be loaded. Please reload the page.
        </p>
      ) : url === undefined ? (
        <p className="mt-5 flex items-center gap-2 text-muted">
          <Spinner className="size-4" /> Loading…
        </p>
      ) : url ? (
        <div className="mt-5 grid gap-3">
          <label className="grid gap-1.5 text-sm font-semibold text-ink">
            Subscription address
            <input
              type="text"
              dir="ltr"
              readOnly
              value={url}
              onFocus={(e) => e.target.select()}
              className={`${inputClass} font-mono text-sm`}
              data-testid="meetings-feed-url"
            />
          </label>
          <div className="flex flex-wrap gap-2">
            <button type="button" onClick={() => void copy()} className="btn btn-secondary">
              <Icon path={iconPaths.download} />
              Copy address
            </button>
            <ConfirmAction
              label="Make a new address"
              question="Make a new address? The current one stops working at once: every calendar subscribed to it must subscribe to the new one."
              confirmLabel="Make a new address"
              busyLabel="Making…"
              icon={iconPaths.shield}
              onConfirm={make}
            />
          </div>
        </div>
      ) : (
        <div className="mt-5">
          <button
            type="button"
            onClick={() => void make()}
            disabled={making}
            className="btn btn-primary disabled:opacity-70"
          >
            {making ? <Spinner className="size-4" /> : <Icon path={iconPaths.calendar} />}
            Create the address
          </button>
        </div>
      )}
    </section>
  );
}
