import { useEffect, useMemo, useState, type SubmitEvent } from "react";
import { ApiError, apiRequest } from "#src/lib/api-client.ts";
import type { ManagedMeeting, ManagedMeetingAnswer, MovedMeetingAnswer } from "#shared/api/meetings.ts";
import { toMinutes, toTime } from "#shared/dates.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";
import { formatDate, formatNumber, formatTime } from "#shared/format.ts";
import type { Language } from "#shared/languages.ts";
import { MEETING_MINUTES } from "#shared/office.ts";
import { showToast } from "#src/stores/toasts.ts";
import { Spinner } from "../ui/Spinner";
import { useOfficeCalendar, visitorTime, type SlotsFailureLabels } from "#src/lib/use-office-calendar.ts";
import SlotPicker, { type SlotPickerLabels } from "./SlotPicker";
import { ROUTES } from "#shared/routes.ts";

export interface ManageLabels extends SlotPickerLabels, SlotsFailureLabels {
  title: string;
  intro: string;
  loading: string;
  reference: string;
  when: string;
  status: string;
  statusPending: string;
  statusConfirmed: string;
  statusCancelled: string;
  move: string;
  cancelMeeting: string;
  moveTitle: string;
  confirmMove: string;
  back: string;
  cancelTitle: string;
  cancelText: string;
  confirmCancel: string;
  keep: string;
  moved: string;
  cancelled: string;
  bookAgain: string;
  linkInvalid: string;
  linkExpired: string;
  linkReplaced: string;
  /** A 429 tooManyChanges: the link changed the meeting too often for now. */
  tooManyChanges: string;
  error: string;
  slotTaken: string;
  /** The day reached its cap of meetings meanwhile. */
  dayFull: string;
  /** Why the link no longer moves or cancels: contains {{cutoff}}; then how to reach the office. */
  changesClosed: string;
  changesContact: string;
  /** The office's phone as shown, its tel: link, and its email address (src/config/site.ts). */
  phone: string;
  phoneHref: string;
  email: string;
  errorTitle: string;
  processing: string;
  /** The meeting's day and time, as the emails write it: contains {{date}}, {{start}} and {{end}}. */
  slot: string;
  /** From the booking dialog, like the date and time fields. */
  loadingCalendar: string;
}

export interface ManageMeetingProps {
  lang: Language;
  labels: ManageLabels;
  /** Where "book a new meeting" leads: the contact section of the home page. */
  bookUrl: string;
}

type Problem = "linkInvalid" | "linkExpired" | "linkReplaced" | "error";
type View = "details" | "move" | "cancel";

const PROBLEMS: readonly Problem[] = ["linkInvalid", "linkExpired", "linkReplaced"];

/** The token of the link: the URL fragment (never sent to any server), `#<token>`. */
const tokenFromUrl = () => (typeof window === "undefined" ? "" : decodeURIComponent(window.location.hash.slice(1)));

const problemOf = (error: unknown): Problem =>
  error instanceof ApiError && PROBLEMS.includes(error.message as Problem) ? (error.message as Problem) : "error";

/**
 * The page a visitor's manage link opens (/{lang}/meeting/#token): their meeting in their
 * language (Jalali and Gregorian dates in Persian), and the two things they can do with it: move
 * it to another free slot (the same date picker as the booking dialog, fed by the same API) or
 * cancel it, each confirmed first.
 */
export default function ManageMeeting({ lang, labels, bookUrl }: ManageMeetingProps) {
  const [token, setToken] = useState("");
  const [meeting, setMeeting] = useState<ManagedMeeting | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [view, setView] = useState<View>("details");
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const auth = useMemo(() => ({ authorization: `Bearer ${token}` }), [token]);
  const picker = useOfficeCalendar(labels, "", auth);
  const { calendar, date, time, slots, loadingSlots, loadSlots, start } = picker;

  useEffect(() => {
    const found = tokenFromUrl();
    const load = found
      ? apiRequest<ManagedMeetingAnswer>("GET", ROUTES.meetings.manage, {
          headers: { authorization: `Bearer ${found}` },
        }).then((answer) => {
          setToken(found);
          setMeeting(answer.data);
        })
      : Promise.reject(new ApiError("linkInvalid", 403, null));
    load.catch((error: unknown) => setProblem(problemOf(error)));
  }, []);

  /** The move view, on the meeting's own day when it can still be chosen, else on today. */
  const startMove = async () => {
    setView("move");
    setDone(null);
    const started = await start((rules) =>
      meeting && meeting.date >= rules.today && meeting.date <= rules.lastDate ? meeting.date : rules.today,
    );
    if (!started) setView("details");
  };

  const fail = (error: unknown) => {
    const message = error instanceof ApiError ? error.message : "";
    if (PROBLEMS.includes(message as Problem)) return setProblem(message as Problem);
    // Cancelled meanwhile (by the office, or in another tab): show it as it is now.
    if (message === "meetingCancelled") {
      setMeeting((m) => m && { ...m, status: "cancelled" });
      return setView("details");
    }
    // The cut-off passed while the page was open: show why, and how to reach the office.
    if (message === "changesClosed") {
      setMeeting((m) => m && { ...m, changeable: false });
      return setView("details");
    }
    const description =
      message === "timeSlotOccupied"
        ? labels.slotTaken
        : message === "dailyLimitReached"
          ? labels.dayFull
          : message === GUARD_CODES.tooManyChanges
            ? labels.tooManyChanges
            : labels.error;
    showToast({ title: labels.errorTitle, description, variant: "destructive" });
  };

  const move = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!date || !time || busy) return;
    setBusy(true);
    try {
      const answer = await apiRequest<MovedMeetingAnswer>("POST", ROUTES.meetings.manageMove, {
        body: { date, time },
        headers: auth,
      });
      const { token: next, ...moved } = answer.data;
      setMeeting(moved);
      setToken(next);
      // The old link is retired: the address bar (and a bookmark made now) holds the new one.
      history.replaceState(null, "", `#${next}`);
      setView("details");
      setDone(labels.moved);
    } catch (error) {
      fail(error);
      if (date) void loadSlots(date, true);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    setBusy(true);
    try {
      const answer = await apiRequest<ManagedMeetingAnswer>("POST", ROUTES.meetings.manageCancel, { headers: auth });
      setMeeting(answer.data);
      setView("details");
      setDone(labels.cancelled);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  if (problem) {
    return (
      <div role="alert" className="card p-6 sm:p-8">
        <p className="text-lg font-semibold text-red-800">{labels[problem]}</p>
        <a href={bookUrl} className="btn btn-secondary mt-6">
          {labels.bookAgain}
        </a>
      </div>
    );
  }
  if (!meeting) {
    return (
      <div role="status" className="card flex items-center gap-3 p-6 text-muted sm:p-8">
        <Spinner className="size-5 text-brand-600" />
        {labels.loading}
      </div>
    );
  }

  const end = toTime(toMinutes(meeting.time) + MEETING_MINUTES);
  const local = calendar ? visitorTime(lang, meeting.date, meeting.time, calendar.timeZone) : null;
  const statusText = {
    pending: labels.statusPending,
    confirmed: labels.statusConfirmed,
    cancelled: labels.statusCancelled,
  }[meeting.status];
  const statusTone = {
    pending: "bg-amber-50 text-amber-900 ring-amber-500/40",
    confirmed: "bg-teal-50 text-teal-800 ring-teal-600/30",
    cancelled: "bg-slate-100 text-slate-700 ring-slate-400/40",
  }[meeting.status];

  return (
    <div className="grid gap-6">
      {done && (
        <p
          role="status"
          className="rounded-2xl bg-teal-50 px-5 py-4 font-medium text-teal-900 ring-1 ring-inset ring-teal-600/30"
        >
          {done}
        </p>
      )}
      <section aria-labelledby="meeting-details" className="card p-6 sm:p-8">
        <h2 id="meeting-details" className="sr-only">
          {labels.title}
        </h2>
        <dl className="grid gap-5 sm:grid-cols-[auto_1fr] sm:gap-x-8">
          <dt className="text-sm font-semibold text-muted">{labels.when}</dt>
          <dd
            className={`-mt-4 text-lg font-semibold text-brand-950 sm:mt-0 ${meeting.status === "cancelled" ? "line-through decoration-2" : ""}`}
          >
            <span data-testid="meeting-when">
              {labels.slot
                .replace("{{date}}", formatDate(lang, meeting.date))
                .replace("{{start}}", formatTime(lang, meeting.time))
                .replace("{{end}}", formatTime(lang, end))}
            </span>
            <span className="block text-sm font-normal text-muted">{labels.officeTime}</span>
            {local && (
              <span className="block text-sm font-medium text-brand-800">
                {labels.localTime.replace("{{time}}", local)}
              </span>
            )}
          </dd>
          <dt className="text-sm font-semibold text-muted">{labels.status}</dt>
          <dd className="-mt-4 sm:mt-0">
            <span
              className={`inline-flex rounded-full px-3 py-1 text-sm font-semibold ring-1 ring-inset ${statusTone}`}
              data-testid="meeting-status"
            >
              {statusText}
            </span>
          </dd>
          <dt className="text-sm font-semibold text-muted">{labels.reference}</dt>
          <dd className="-mt-4 font-medium sm:mt-0">
            <bdi>{meeting.reference}</bdi>
          </dd>
        </dl>
        {meeting.status !== "cancelled" && !meeting.changeable && (
          <ChangesClosed lang={lang} labels={labels} cutoffMinutes={meeting.changeCutoffMinutes} />
        )}
        {meeting.status !== "cancelled" && meeting.changeable && view === "details" && (
          <div className="mt-8 flex flex-col gap-3 border-t border-line pt-6 sm:flex-row">
            <button type="button" onClick={() => void startMove()} className="btn btn-primary">
              {labels.move}
            </button>
            <button type="button" onClick={() => setView("cancel")} className="btn btn-secondary">
              {labels.cancelMeeting}
            </button>
          </div>
        )}
        {meeting.status === "cancelled" && (
          <a href={bookUrl} className="btn btn-secondary mt-8">
            {labels.bookAgain}
          </a>
        )}
      </section>

      {view === "cancel" && meeting.status !== "cancelled" && meeting.changeable && (
        <section aria-labelledby="cancel-title" className="card border-red-200 p-6 sm:p-8">
          <h2 id="cancel-title" className="text-xl font-bold text-brand-950">
            {labels.cancelTitle}
          </h2>
          <p className="mt-2 text-muted">{labels.cancelText}</p>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row">
            <button
              type="button"
              onClick={() => void cancel()}
              disabled={busy}
              className="btn bg-red-700 text-white hover:bg-red-800 disabled:opacity-60"
            >
              {busy && <Spinner className="size-4" />}
              {busy ? labels.processing : labels.confirmCancel}
            </button>
            <button type="button" onClick={() => setView("details")} disabled={busy} className="btn btn-secondary">
              {labels.keep}
            </button>
          </div>
        </section>
      )}

      {view === "move" && meeting.status !== "cancelled" && meeting.changeable && (
        <section aria-labelledby="move-title" className="card p-6 sm:p-8">
          <h2 id="move-title" className="text-xl font-bold text-brand-950">
            {labels.moveTitle}
          </h2>
          {!calendar || !date ? (
            <p role="status" className="mt-4 flex items-center gap-3 text-muted">
              <Spinner className="size-5 text-brand-600" />
              {labels.loadingCalendar}
            </p>
          ) : (
            <form onSubmit={move} className="mt-4 grid gap-6 md:grid-cols-[auto_1fr]">
              <SlotPicker lang={lang} labels={labels} picker={picker} idPrefix="mm" ready>
                <div className="flex flex-col gap-3 sm:flex-row">
                  <button
                    type="submit"
                    disabled={busy || loadingSlots || !slots.length || !time}
                    className="btn btn-primary disabled:cursor-not-allowed disabled:opacity-60"
                  >
                    {busy && <Spinner className="size-4" />}
                    {busy ? labels.processing : labels.confirmMove}
                  </button>
                  <button
                    type="button"
                    onClick={() => setView("details")}
                    disabled={busy}
                    className="btn btn-secondary"
                  >
                    {labels.back}
                  </button>
                </div>
              </SlotPicker>
            </form>
          )}
        </section>
      )}
    </div>
  );
}

/** The cut-off as words: whole days as days ("7 days", "۷ روز"), whole hours as hours, else minutes. */
function duration(lang: Language, minutes: number): string {
  const [value, unit] =
    minutes % 1440 === 0 ? [minutes / 1440, "day"] : minutes % 60 === 0 ? [minutes / 60, "hour"] : [minutes, "minute"];
  return formatNumber(lang, value, { style: "unit", unit, unitDisplay: "long" });
}

/** Past the admin's cut-off: why the page no longer moves or cancels, and how to reach the office. */
function ChangesClosed({
  lang,
  labels,
  cutoffMinutes,
}: {
  lang: Language;
  labels: ManageLabels;
  cutoffMinutes: number;
}) {
  return (
    <div className="mt-8 border-t border-line pt-6" data-testid="changes-closed">
      <p className="font-medium text-brand-950">
        {labels.changesClosed.replace("{{cutoff}}", duration(lang, cutoffMinutes))}
      </p>
      <p className="mt-2 text-muted">{labels.changesContact}</p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row">
        <a href={labels.phoneHref} className="btn btn-primary">
          <bdi dir="ltr">{labels.phone}</bdi>
        </a>
        <a href={`mailto:${labels.email}`} className="btn btn-secondary">
          <bdi>{labels.email}</bdi>
        </a>
      </div>
    </div>
  );
}
