/**
 * The panel's one date field: it follows the panel's language. English and Dutch get the browser's
 * own date input; Persian gets a Jalali field (Persian digits, typed as ۱۴۰۵/۰۹/۰۸ or picked from a
 * month of the Jalali calendar, Saturday first, as in the public booking dialog) that hands on, and
 * submits under `name`, the ISO `yyyy-MM-dd` day the rest of the panel and the API use.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { addDays } from "#shared/dates.ts";
import { formatDate, formatMonth, localizeDigits, weekdayNames } from "#shared/format.ts";
import { monthWeeks, shiftMonth } from "#src/lib/month-grid.ts";
import { useCopy } from "../copy";
import { Icon, iconPaths } from "./basics";
import type { ControlProps } from "./fields";
import { jalaliOf, parseJalali } from "./jalali";

export interface DateFieldProps extends Partial<ControlProps> {
  /** The ISO day, or "" for none. */
  value: string;
  onChange: (isoDate: string) => void;
  min?: string;
  max?: string;
  /** Submitted with a plain form as the ISO day. */
  name?: string;
  required?: boolean;
  className?: string;
}

export function DateField(props: DateFieldProps) {
  const { lang } = useCopy();
  if (lang !== "fa") {
    const { value, onChange, className, ...rest } = props;
    return (
      <input {...rest} type="date" value={value} onChange={(e) => onChange(e.target.value)} className={className} />
    );
  }
  return <JalaliField {...props} />;
}

const today = () => {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

function JalaliField({ value, onChange, min, max, name, required, className = "", ...control }: DateFieldProps) {
  const { copy } = useCopy();
  const c = copy.dateField;
  const shown = value ? localizeDigits("fa", jalaliOf(value)) : "";
  const [text, setText] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  const [open, setOpen] = useState(false);
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // The value changed from outside (Back, "Clear"): the text follows.
  const [was, setWas] = useState(value);
  if (was !== value) {
    setWas(value);
    setText(shown);
    setInvalid(false);
  }
  const outOfRange = (iso: string) => Boolean((min && iso < min) || (max && iso > max));
  const commit = () => {
    if (!text.trim()) {
      setInvalid(false);
      if (value) onChange("");
      return;
    }
    const iso = parseJalali(text);
    if (!iso || outOfRange(iso)) return setInvalid(true);
    setInvalid(false);
    setText(localizeDigits("fa", jalaliOf(iso)));
    if (iso !== value) onChange(iso);
  };
  const described = [control["aria-describedby"], invalid && errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="relative">
      <div className="flex gap-1">
        <input
          {...control}
          ref={inputRef}
          type="text"
          inputMode="numeric"
          dir="ltr"
          autoComplete="off"
          placeholder={c.placeholder}
          value={text}
          required={required}
          aria-invalid={invalid || control["aria-invalid"] ? true : undefined}
          aria-describedby={described}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              commit();
            }
          }}
          className={`${className} text-end`}
        />
        <button
          type="button"
          aria-expanded={open}
          aria-label={c.pick}
          title={c.pick}
          onClick={() => setOpen((o) => !o)}
          className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border border-line bg-white text-brand-700"
        >
          <Icon path={iconPaths.calendar} />
        </button>
      </div>
      {name && <input type="hidden" name={name} value={value} />}
      {invalid && (
        <p id={errorId} className="mt-1 text-xs font-medium text-red-800">
          {c.invalid}
        </p>
      )}
      {open && (
        <Month
          value={value}
          min={min}
          max={max}
          onPick={(iso) => {
            setOpen(false);
            setInvalid(false);
            setText(localizeDigits("fa", jalaliOf(iso)));
            if (iso !== value) onChange(iso);
            inputRef.current?.focus();
          }}
          onClose={() => {
            setOpen(false);
            inputRef.current?.focus();
          }}
        />
      )}
    </div>
  );
}

/** A month of the Jalali calendar to pick a day from; arrows move the day, Escape closes. */
function Month({
  value,
  min,
  max,
  onPick,
  onClose,
}: {
  value: string;
  min?: string;
  max?: string;
  onPick: (iso: string) => void;
  onClose: () => void;
}) {
  const { copy } = useCopy();
  const c = copy.dateField;
  const [focus, setFocus] = useState(value || today());
  const ref = useRef<HTMLDivElement>(null);
  const weeks = monthWeeks(focus, "persian", 6);
  const days = weeks.flat().filter((d): d is string => d !== null);
  const title = formatMonth("fa", days[0], days.at(-1)!).title;
  const names = weekdayNames("fa", 6);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>(`[data-day="${focus}"]`)?.focus();
  }, [focus]);
  const disabled = (iso: string) => Boolean((min && iso < min) || (max && iso > max));
  const onKey = (event: KeyboardEvent) => {
    // Right to left: the right arrow goes to the day before.
    const step: Record<string, number> = { ArrowRight: -1, ArrowLeft: 1, ArrowUp: -7, ArrowDown: 7 };
    if (event.key === "Escape") {
      event.stopPropagation();
      onClose();
    } else if (step[event.key]) {
      event.preventDefault();
      setFocus(addDays(focus, step[event.key]));
    }
  };
  return (
    <div
      ref={ref}
      role="group"
      aria-label={c.calendar}
      className="absolute z-30 mt-1 w-72 rounded-xl border border-line bg-white p-3 shadow-lift"
    >
      <div className="flex items-center justify-between gap-2">
        <button
          type="button"
          aria-label={c.previousMonth}
          onKeyDown={onKey}
          onClick={() => setFocus(shiftMonth(focus, "persian", -1))}
          className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg text-brand-700"
        >
          <Icon path={iconPaths.chevronRight} />
        </button>
        <p className="font-semibold text-brand-950" aria-live="polite">
          {title}
        </p>
        <button
          type="button"
          aria-label={c.nextMonth}
          onKeyDown={onKey}
          onClick={() => setFocus(shiftMonth(focus, "persian", 1))}
          className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg text-brand-700"
        >
          <Icon path={iconPaths.chevronLeft} />
        </button>
      </div>
      <table className="mt-2 w-full text-center text-sm">
        <thead>
          <tr>
            {names.map((n) => (
              <th key={n.long} scope="col" abbr={n.long} className="py-1 font-medium text-muted">
                {n.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((day, i) => (
                <td key={day ?? `empty-${i}`} className="p-0.5">
                  {day && (
                    <button
                      type="button"
                      data-day={day}
                      tabIndex={day === focus ? 0 : -1}
                      disabled={disabled(day)}
                      aria-pressed={day === value}
                      aria-label={formatDate("fa", day, "long")}
                      onClick={() => onPick(day)}
                      onKeyDown={onKey}
                      className={`min-h-9 w-full rounded-lg disabled:opacity-40 ${day === value ? "bg-brand-700 text-white" : "text-ink hover:bg-brand-50"}`}
                    >
                      {localizeDigits("fa", String(Number(jalaliOf(day).slice(8))))}
                    </button>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
