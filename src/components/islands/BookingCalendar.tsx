import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { addDays } from "#shared/dates.ts";
import { LANGUAGE_INFO, type Language } from "#shared/languages.ts";
import { calendarParts, formatDate, formatMonth, localizeDigits, weekdayNames } from "#shared/format.ts";
import { monthBounds, monthWeeks, shiftMonth } from "#src/lib/month-grid.ts";
import { StrokeIcon } from "../ui/StrokeIcon";

export interface CalendarLabels {
  previousMonth: string;
  nextMonth: string;
}

export interface BookingCalendarProps {
  lang: Language;
  /** The chosen day (`yyyy-MM-dd`), or "" while none is chosen. */
  selected: string;
  onSelect: (date: string) => void;
  /** Whether a day can be booked at all (office weekday, not closed, within the range). */
  isOpen: (date: string) => boolean;
  /** First and last day that may be shown and chosen. */
  min: string;
  max: string;
  labels: CalendarLabels;
}

/**
 * The month grid of the booking dialog (the WAI-ARIA date grid pattern): one Tab stop, arrow keys
 * move by day and week (mirrored right to left), Home/End to the week's ends, Page Up/Down by
 * month, Enter or Space chooses. Persian visitors get the Solar Hijri calendar: Jalali months,
 * weeks from Saturday with the initials ش ی د س چ پ ج, each day's Jalali number with the Gregorian
 * one beneath it, all in Persian digits.
 */
export default function BookingCalendar({ lang, selected, onSelect, isOpen, min, max, labels }: BookingCalendarProps) {
  const { calendar: system, weekStart, dir } = LANGUAGE_INFO[lang];
  const rtl = dir === "rtl";
  const titleId = useId();
  const [focused, setFocused] = useState(selected || min);
  const [view, setView] = useState(() => monthBounds(selected || min, system).first);
  const grid = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);

  // A day chosen from outside (the first free day, once found) brings its month into view.
  const [shown, setShown] = useState(selected);
  if (selected && selected !== shown) {
    setShown(selected);
    setFocused(selected);
    setView(monthBounds(selected, system).first);
  }

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-date="${focused}"]`)?.focus();
  }, [focused, view]);

  const bounds = useMemo(() => monthBounds(view, system), [view, system]);
  const weeks = useMemo(() => monthWeeks(view, system, weekStart), [view, system, weekStart]);
  const month = useMemo(() => formatMonth(lang, bounds.first, bounds.last), [lang, bounds]);
  const weekdays = useMemo(() => weekdayNames(lang, weekStart % 7), [lang, weekStart]);
  const canGoBack = bounds.first > min;
  const canGoForward = bounds.last < max;

  const clamp = (date: string) => (date < min ? min : date > max ? max : date);
  const goTo = (date: string, focus = true) => {
    const next = clamp(date);
    moveFocus.current = focus;
    setFocused(next);
    if (next < bounds.first || next > bounds.last) setView(monthBounds(next, system).first);
  };
  const showMonth = (delta: number) => {
    const first = shiftMonth(view, system, delta);
    setView(first);
    setFocused(clamp(first));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, date: string) => {
    const back = rtl ? "ArrowRight" : "ArrowLeft";
    const forward = rtl ? "ArrowLeft" : "ArrowRight";
    const column = weeks.find((w) => w.includes(date))?.indexOf(date) ?? 0;
    const moves: Record<string, () => string> = {
      [back]: () => addDays(date, -1),
      [forward]: () => addDays(date, 1),
      ArrowUp: () => addDays(date, -7),
      ArrowDown: () => addDays(date, 7),
      Home: () => addDays(date, -column),
      End: () => addDays(date, 6 - column),
      PageUp: () => sameDayIn(-1),
      PageDown: () => sameDayIn(1),
    };
    function sameDayIn(delta: number) {
      const first = shiftMonth(date, system, delta);
      const wanted = addDays(first, calendarParts(date, system).day - 1);
      const { last } = monthBounds(first, system);
      return wanted > last ? last : wanted;
    }
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    goTo(move());
  };

  const arrow = (direction: "previous" | "next") => (
    <button
      type="button"
      onClick={() => showMonth(direction === "previous" ? -1 : 1)}
      disabled={direction === "previous" ? !canGoBack : !canGoForward}
      aria-label={direction === "previous" ? labels.previousMonth : labels.nextMonth}
      data-month={direction}
      className="flex size-11 items-center justify-center rounded-xl text-brand-800 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-35 disabled:hover:bg-transparent"
    >
      <StrokeIcon name={direction === "previous" ? "chevronLeft" : "chevronRight"} />
    </button>
  );

  return (
    <div className="booking-calendar w-full max-w-[21rem]">
      <div className="flex items-center justify-between gap-2">
        {arrow("previous")}
        <div id={titleId} className="text-center" aria-live="polite">
          <p className="font-bold text-brand-950" data-month-title>
            {month.title}
          </p>
          {month.gregorian && <p className="text-xs text-muted">{month.gregorian}</p>}
        </div>
        {arrow("next")}
      </div>
      <table ref={grid} role="grid" aria-labelledby={titleId} className="mt-2 w-full table-fixed border-collapse">
        <thead>
          <tr>
            {weekdays.map((day) => (
              <th key={day.long} scope="col" className="pb-1 text-xs font-semibold text-muted">
                <span aria-hidden="true">{day.short}</span>
                <span className="sr-only">{day.long}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((date, i) => {
                if (!date) return <td key={`pad-${i}`} />;
                const open = date >= min && date <= max && isOpen(date);
                const chosen = date === selected;
                const { day } = calendarParts(date, system);
                return (
                  <td key={date} aria-selected={chosen} className="p-0.5 text-center">
                    <button
                      type="button"
                      data-date={date}
                      tabIndex={date === focused ? 0 : -1}
                      aria-disabled={open ? undefined : true}
                      onClick={() => {
                        goTo(date, false);
                        if (open) onSelect(date);
                      }}
                      onKeyDown={(e) => onKeyDown(e, date)}
                      className={`mx-auto flex size-11 flex-col items-center justify-center rounded-xl leading-none transition-colors ${
                        chosen
                          ? "bg-brand-600 font-bold text-white shadow-card"
                          : open
                            ? "font-semibold text-brand-950 hover:bg-brand-50"
                            : "cursor-not-allowed text-slate-400"
                      }`}
                    >
                      <span aria-hidden="true" className="text-[0.95rem]">
                        {localizeDigits(lang, String(day))}
                      </span>
                      {system === "persian" && (
                        <span aria-hidden="true" className={`mt-0.5 text-[0.6rem] ${chosen ? "" : "opacity-75"}`}>
                          {localizeDigits(lang, String(Number(date.slice(8))))}
                        </span>
                      )}
                      <span className="sr-only">{formatDate(lang, date)}</span>
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
