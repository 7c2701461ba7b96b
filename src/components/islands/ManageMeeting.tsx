import { useEffect, useRef } from "react";
import type { Language } from "#shared/languages.ts";
import type { MeetingPlaceKind } from "#shared/office.ts";
import { Spinner } from "../ui/Spinner";
import MeetingDetails from "./MeetingDetails";
import { useManagedMeeting, type ManageActionLabels, type ManagedMeetingState } from "#src/lib/use-managed-meeting.ts";
import SlotPicker, { type SlotPickerLabels } from "./SlotPicker";

export interface ManageLabels extends SlotPickerLabels, ManageActionLabels {
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
  bookAgain: string;
  linkInvalid: string;
  linkExpired: string;
  linkReplaced: string;
  /** Why the link no longer moves or cancels: contains {{cutoff}}; then how to reach the office. */
  changesClosed: string;
  changesContact: string;
  /** The office's phone as shown, its tel: link, and its email address (src/config/site.ts). */
  phone: string;
  phoneHref: string;
  email: string;
  processing: string;
  /** The meeting's day and time, as the emails write it: contains {{date}}, {{start}} and {{end}}. */
  slot: string;
  /** From the booking dialog, like the date and time fields. */
  loadingCalendar: string;
  /** "Consultant" and "How we meet", the rows that name them, and each place as the dialog names it. */
  consultant: string;
  place: string;
  places: Record<MeetingPlaceKind, string>;
  /** A 409 consultantBusy: the meeting's consultant is not free at the new time. */
  consultantBusy: string;
}

export interface ManageMeetingProps {
  lang: Language;
  labels: ManageLabels;
  /** Where "book a new meeting" leads: the contact section of the home page. */
  bookUrl: string;
  /** The team's names by id (team.json), for the consultant the meeting is with. */
  consultants: readonly { id: string; name: string }[];
}

/**
 * The page a visitor's manage link opens (/{lang}/meeting/#token): their meeting in their
 * language (Jalali and Gregorian dates in Persian), and the two things they can do with it: move
 * it to another free slot (the same date picker as the booking dialog, fed by the same API) or
 * cancel it, each confirmed first.
 */
export default function ManageMeeting({ lang, labels, bookUrl, consultants }: ManageMeetingProps) {
  const state = useManagedMeeting(labels);
  const { meeting, problem, view, done } = state;

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

  const changeable = meeting.status !== "cancelled" && meeting.changeable;
  return (
    <div className="grid gap-6">
      {done && <DoneNotice text={done} />}
      <MeetingDetails
        lang={lang}
        labels={labels}
        bookUrl={bookUrl}
        meeting={meeting}
        state={state}
        consultants={consultants}
      />
      {view === "cancel" && changeable && <CancelQuestion labels={labels} state={state} />}
      {view === "move" && changeable && <MoveForm lang={lang} labels={labels} state={state} />}
    </div>
  );
}

/**
 * "Moved" or "cancelled": after a move the form the visitor used is gone and the page is shorter, so
 * the view would rest on the footer; the notice is scrolled to and takes focus, as the booking
 * dialog's toast is read out (a screen reader then reads the notice, and Tab goes on from it).
 */
function DoneNotice({ text }: { text: string }) {
  const notice = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const element = notice.current;
    if (!element) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    element.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
    element.focus({ preventScroll: true });
  }, [text]);
  return (
    <p
      ref={notice}
      role="status"
      tabIndex={-1}
      className="rounded-2xl bg-teal-50 px-5 py-4 font-medium text-teal-900 ring-1 ring-inset ring-teal-600/30 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      {text}
    </p>
  );
}

export interface PartProps {
  lang: Language;
  labels: ManageLabels;
  state: ManagedMeetingState;
}

/** "Cancel this meeting?": confirm, or keep it. */
function CancelQuestion({ labels, state: { busy, cancel, setView } }: Omit<PartProps, "lang">) {
  return (
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
  );
}

/** Another day and time for the meeting: the booking dialog's picker, then confirm or go back. */
function MoveForm({ lang, labels, state: { picker, busy, move, setView } }: PartProps) {
  const { calendar, date, time, slots, loadingSlots } = picker;
  return (
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
              <button type="button" onClick={() => setView("details")} disabled={busy} className="btn btn-secondary">
                {labels.back}
              </button>
            </div>
          </SlotPicker>
        </form>
      )}
    </section>
  );
}
