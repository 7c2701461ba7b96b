import type { ManagedMeeting } from "#shared/api/meetings.ts";
import { toMinutes, toTime } from "#shared/dates.ts";
import { formatDate, formatNumber, formatTime } from "#shared/format.ts";
import type { Language } from "#shared/languages.ts";
import { MEETING_MINUTES } from "#shared/office.ts";
import { consultantName, placeOfMeeting, type MeetingChoices } from "#src/lib/consultant-choice.ts";
import { visitorTime } from "#src/lib/use-office-calendar.ts";
import type { ManageLabels, PartProps } from "./ManageMeeting";

const STATUS_TONES: Record<ManagedMeeting["status"], string> = {
  pending: "bg-amber-50 text-amber-900 ring-amber-500/40",
  confirmed: "bg-teal-50 text-teal-800 ring-teal-600/30",
  cancelled: "bg-slate-100 text-slate-700 ring-slate-400/40",
};

/** The meeting as it is (when, status, reference) and what can be done with it from here. */
export default function MeetingDetails({
  lang,
  labels,
  bookUrl,
  meeting,
  state,
  consultants,
}: PartProps & {
  bookUrl: string;
  meeting: ManagedMeeting & MeetingChoices;
  consultants: readonly { id: string; name: string }[];
}) {
  const { calendar } = state.picker;
  const end = toTime(toMinutes(meeting.time) + MEETING_MINUTES);
  const local = calendar ? visitorTime(lang, meeting.date, meeting.time, calendar.timeZone) : null;
  const statusText = {
    pending: labels.statusPending,
    confirmed: labels.statusConfirmed,
    cancelled: labels.statusCancelled,
  }[meeting.status];
  const withWhom = consultantName(meeting.consultant, consultants);
  const place = placeOfMeeting(meeting);

  return (
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
        {withWhom && (
          <>
            <dt className="text-sm font-semibold text-muted">{labels.consultant}</dt>
            <dd className="-mt-4 font-medium text-brand-950 sm:mt-0" data-testid="meeting-consultant">
              {withWhom}
            </dd>
          </>
        )}
        {place && (
          <>
            <dt className="text-sm font-semibold text-muted">{labels.place}</dt>
            <dd className="-mt-4 font-medium text-brand-950 sm:mt-0" data-testid="meeting-place">
              {labels.places[place]}
            </dd>
          </>
        )}
        <dt className="text-sm font-semibold text-muted">{labels.status}</dt>
        <dd className="-mt-4 sm:mt-0">
          <span
            className={`inline-flex rounded-full px-3 py-1 text-sm font-semibold ring-1 ring-inset ${STATUS_TONES[meeting.status]}`}
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
      {meeting.status !== "cancelled" && meeting.changeable && state.view === "details" && (
        <div className="mt-8 flex flex-col gap-3 border-t border-line pt-6 sm:flex-row">
          <button type="button" onClick={() => void state.startMove()} className="btn btn-primary">
            {labels.move}
          </button>
          <button type="button" onClick={() => state.setView("cancel")} className="btn btn-secondary">
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
