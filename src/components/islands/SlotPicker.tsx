import type { ReactNode } from "react";
import { formatDate, formatTime } from "#shared/format.ts";
import type { Language } from "#shared/languages.ts";
import { visitorTime, type OfficeCalendarState } from "#src/lib/use-office-calendar.ts";
import BookingCalendar, { type CalendarLabels } from "./BookingCalendar";
import { Spinner } from "../ui/Spinner";

export interface SlotPickerLabels extends CalendarLabels {
  date: string;
  time: string;
  officeTime: string;
  /** Contains {{time}}. */
  localTime: string;
  /** Contains {{date}}. */
  selectedDate: string;
  loadingSlots: string;
  noSlots: string;
  noSlotsOption: string;
}

export interface SlotPickerProps {
  lang: Language;
  labels: SlotPickerLabels;
  /** The state of useOfficeCalendar. */
  picker: OfficeCalendarState;
  /** Prefix of the time field's id (`<idPrefix>-time`). */
  idPrefix: string;
  /** Whether the calendar is there to show; until then `placeholder` holds its place. */
  ready: boolean;
  placeholder?: ReactNode;
  /** What follows the time field in its column (the visitor's details, the buttons). */
  children?: ReactNode;
}

export const inputClass =
  "mt-1.5 block w-full rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 text-base text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-700 disabled:bg-slate-50";

/**
 * The date and time fields of the booking dialog and the manage page, as two columns of the
 * caller's grid: the month grid with the chosen day, then the time select (office time, with the
 * visitor's own time beneath when their zone differs) followed by `children`.
 */
export default function SlotPicker({ lang, labels, picker, idPrefix, ready, placeholder, children }: SlotPickerProps) {
  const { calendar, date, time, setTime, slots, loadingSlots, isOpenDay, choose } = picker;
  const shown = ready && !!calendar && !!date;
  const slotsShown = shown && !loadingSlots;
  const offered = slotsShown && slots.length > 0;
  const local = calendar && offered ? visitorTime(lang, date, time, calendar.timeZone) : null;
  const timeId = `${idPrefix}-time`;

  return (
    <>
      <fieldset className="min-w-0">
        <legend className="text-sm font-semibold text-brand-950">{labels.date}</legend>
        <div className={placeholder ? "mt-1.5 min-h-[21.5rem]" : "mt-1.5"}>
          {shown ? (
            <BookingCalendar
              lang={lang}
              selected={date}
              onSelect={choose}
              isOpen={isOpenDay}
              min={calendar.today}
              max={calendar.lastDate}
              labels={labels}
            />
          ) : (
            placeholder
          )}
        </div>
        {shown && (
          <p className="mt-2 text-sm font-medium text-brand-900" aria-live="polite">
            {labels.selectedDate.replace("{{date}}", formatDate(lang, date))}
          </p>
        )}
      </fieldset>

      <div className="grid content-start gap-4">
        <div>
          <label htmlFor={timeId} className="block text-sm font-semibold text-brand-950">
            {labels.time}
          </label>
          <select
            id={timeId}
            value={offered ? time : ""}
            onChange={(e) => setTime(e.target.value)}
            disabled={!offered}
            aria-describedby={`${timeId}-help`}
            className={inputClass}
          >
            {offered ? (
              slots.map((slot) => (
                <option key={slot} value={slot}>
                  {formatTime(lang, slot)}
                </option>
              ))
            ) : (
              <option value="" disabled>
                {slotsShown ? labels.noSlotsOption : labels.loadingSlots}
              </option>
            )}
          </select>
          <p id={`${timeId}-help`} className="mt-1.5 text-sm text-muted">
            {labels.officeTime}
            {local && (
              <span className="block font-medium text-brand-800">{labels.localTime.replace("{{time}}", local)}</span>
            )}
          </p>
          {slotsShown && !slots.length && <p className="mt-2 text-sm font-medium text-red-700">{labels.noSlots}</p>}
        </div>
        {children}
      </div>
    </>
  );
}

/** Where the calendar will be, while it loads: the same size, so nothing moves when it arrives. */
export function CalendarLoading({ text }: { text: string }) {
  return (
    <div
      className="flex h-[21.5rem] w-full max-w-[21rem] flex-col items-center justify-center gap-3 rounded-2xl bg-surface text-muted md:w-[21rem]"
      role="status"
    >
      <Spinner className="size-7 text-brand-600" />
      <span className="text-sm font-medium">{text}</span>
    </div>
  );
}
