/**
 * The weekly office hours and the public-holiday switch of the availability page, and the week
 * editor they are made with (WeekHours), which the Consultants page uses for a consultant's own.
 */
import { useId, useState, type SubmitEvent } from "react";
import type { Availability, AvailabilityAnswer } from "#shared/api/availability.ts";
import { MEETING_MINUTES, type IsoWeekday, type OpeningHours } from "#shared/office.ts";
import { toTime } from "#shared/dates.ts";
import { ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest } from "../api";
import { useCopy } from "../copy";
import { BusyButton, ErrorNote, Icon, iconPaths, SaveBar, Section, Toggle, useAction } from "../ui";

const WEEKDAYS: IsoWeekday[] = [1, 2, 3, 4, 5, 6, 7];

/** Every half hour of the day: opening and closing times fall on them, so every slot is a whole meeting. */
const TIMES = Array.from({ length: (24 * 60) / MEETING_MINUTES }, (_, i) => toTime(i * MEETING_MINUTES));

const fieldClass =
  "w-28 rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

export function HoursForm({ data, onSaved }: { data: Availability; onSaved: (next: Availability) => void }) {
  const { copy } = useCopy();
  const c = copy.availability;
  const [hours, setHours] = useState<OpeningHours[]>(data.hours);
  const [publicHolidays, setPublicHolidays] = useState(data.publicHolidays);
  const save = useAction();

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    void save.run(async () => {
      const answer = await adminRequest<AvailabilityAnswer>("PUT", ROUTES.admin.availability, {
        hours,
        publicHolidays,
      });
      onSaved(answer.data);
      setHours(answer.data.hours);
      showToast({ title: c.hoursSaved, description: c.hoursSavedText, variant: "success" });
    }, c.hoursError);
  };

  return (
    <Section title={c.hours} intro={c.hoursIntro}>
      <form onSubmit={submit}>
        <WeekHours hours={hours} onChange={setHours} />
        <div className="mt-5 border-t border-line pt-5">
          <Toggle checked={publicHolidays} onChange={setPublicHolidays} help={c.publicHolidaysHelp}>
            {c.publicHolidays}
          </Toggle>
        </div>
        <ErrorNote className="mt-4">{save.error}</ErrorNote>
        <SaveBar>
          <BusyButton
            type="submit"
            primary
            busy={save.busy !== null}
            label={c.saveHours}
            busyLabel={copy.common.saving}
            icon={iconPaths.check}
          />
        </SaveBar>
      </form>
    </Section>
  );
}

/** The seven days of a week, each closed or open in one or more periods. */
export function WeekHours({
  hours,
  onChange,
}: {
  hours: readonly OpeningHours[];
  onChange: (next: OpeningHours[]) => void;
}) {
  const setDay = (weekday: IsoWeekday, next: OpeningHours[]) =>
    onChange([...hours.filter((h) => h.weekday !== weekday), ...next].sort((a, b) => a.weekday - b.weekday));
  return (
    <ul role="list" className="mt-5 divide-y divide-line">
      {WEEKDAYS.map((weekday) => (
        <DayRow
          key={weekday}
          weekday={weekday}
          periods={hours.filter((h) => h.weekday === weekday)}
          onChange={(p) => setDay(weekday, p)}
        />
      ))}
    </ul>
  );
}

function DayRow({
  weekday,
  periods,
  onChange,
}: {
  weekday: IsoWeekday;
  periods: OpeningHours[];
  onChange: (next: OpeningHours[]) => void;
}) {
  const { copy, f, time } = useCopy();
  const c = copy.availability;
  const name = c.weekdays[weekday];
  const id = useId();
  const update = (index: number, field: "opens" | "closes", value: string) =>
    onChange(periods.map((p, i) => (i === index ? { ...p, [field]: value } : p)));
  const last = periods.at(-1);
  const select = (i: number, field: "opens" | "closes", value: string) => (
    <>
      <label htmlFor={`${id}-${i}-${field}`} className="sr-only">
        {c[field]}
      </label>
      <select
        id={`${id}-${i}-${field}`}
        value={value}
        onChange={(e) => update(i, field, e.target.value)}
        className={fieldClass}
      >
        {TIMES.map((t) => (
          <option key={t} value={t}>
            {time(t)}
          </option>
        ))}
      </select>
    </>
  );
  return (
    <li className="grid gap-3 py-4 sm:grid-cols-[10rem_1fr] sm:items-start" data-weekday={weekday}>
      <Toggle
        checked={periods.length > 0}
        onChange={(open) => onChange(open ? [{ weekday, opens: "09:00", closes: "17:00" }] : [])}
      >
        {name}
      </Toggle>
      {periods.length ? (
        <div className="grid gap-2">
          {periods.map((period, i) => (
            <fieldset key={i} className="flex items-center gap-2">
              <legend className="sr-only">{f(c.period, { day: name, number: i + 1 })}</legend>
              {select(i, "opens", period.opens)}
              <span aria-hidden="true">{c.to}</span>
              {select(i, "closes", period.closes)}
              {periods.length > 1 && (
                <button
                  type="button"
                  onClick={() => onChange(periods.filter((_, j) => j !== i))}
                  className="btn btn-secondary min-h-11 px-3"
                  aria-label={f(c.removePeriod, { day: name, number: i + 1 })}
                >
                  <Icon path={iconPaths.close} />
                </button>
              )}
            </fieldset>
          ))}
          {last && last.closes < "23:00" && (
            <button
              type="button"
              onClick={() =>
                onChange([...periods, { weekday, opens: last.closes, closes: TIMES[TIMES.indexOf(last.closes) + 2] }])
              }
              className="justify-self-start py-2 text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
            >
              {c.addPeriod}
            </button>
          )}
        </div>
      ) : (
        <p className="flex min-h-11 items-center text-muted">{c.closed}</p>
      )}
    </li>
  );
}
