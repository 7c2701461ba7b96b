import { useEffect, useId, useState, type SubmitEvent } from "react";
import type { Availability, AvailabilityAnswer, ClosureAnswer, OfficeClosure } from "#shared/api/availability.ts";
import type { CurrentUser } from "#shared/api/people.ts";
import type { DutchHoliday } from "#shared/holidays.ts";
import { MEETING_MINUTES, type IsoWeekday, type OpeningHours } from "#shared/office.ts";
import { toTime } from "#shared/dates.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest, ApiError, DASHBOARD_PATH, fetchCurrentUser, goToLogin } from "./api";
import { formatCalendarDate } from "./format";
import { Icon, iconPaths, PageSpinner, Spinner } from "./ui";
import { fill, ROUTES } from "#shared/routes.ts";

const WEEKDAYS: [IsoWeekday, string][] = [
  [1, "Monday"],
  [2, "Tuesday"],
  [3, "Wednesday"],
  [4, "Thursday"],
  [5, "Friday"],
  [6, "Saturday"],
  [7, "Sunday"],
];

/** Every half hour of the day: opening and closing times fall on them, so every slot is a whole meeting. */
const TIMES = Array.from({ length: (24 * 60) / MEETING_MINUTES }, (_, i) => toTime(i * MEETING_MINUTES));

const HOLIDAY_NAMES: Record<DutchHoliday, string> = {
  newYearsDay: "New Year's Day",
  easterSunday: "Easter Sunday",
  easterMonday: "Easter Monday",
  kingsDay: "King's Day",
  liberationDay: "Liberation Day",
  ascensionDay: "Ascension Day",
  whitSunday: "Whit Sunday",
  whitMonday: "Whit Monday",
  christmasDay: "Christmas Day",
  boxingDay: "Boxing Day",
};

const fieldClass =
  "rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";
const inputClass =
  "block w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

const problem = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

/** The availability page of the admin: weekly office hours, the public-holiday switch, and closed days. */
export default function AvailabilityEditor() {
  const [user, setUser] = useState<CurrentUser | null>(null);
  const [data, setData] = useState<Availability | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let active = true;
    fetchCurrentUser()
      .then(async (found) => {
        if (!found) return void goToLogin();
        if (!active) return;
        setUser(found);
        const answer = await adminRequest<AvailabilityAnswer>("GET", ROUTES.admin.availability);
        if (active) setData(answer.data);
      })
      .catch(() => active && setFailed(true));
    return () => {
      active = false;
    };
  }, []);

  if (failed)
    return (
      <div role="alert" className="container-page py-12">
        <p className="card p-6 font-semibold text-red-800">Error loading availability. Please reload the page.</p>
      </div>
    );
  if (!user || !data) return <PageSpinner label="Loading availability…" />;

  return (
    <div className="container-page grid gap-8 py-8 sm:py-12">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm text-muted">
            Signed in as <span className="font-semibold text-ink">{user.username}</span>
          </p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">Availability</h1>
          <p className="mt-2 max-w-2xl text-muted">
            When visitors can book a {MEETING_MINUTES}-minute meeting, in Amsterdam office time. Changes apply to the
            booking calendar at once.
          </p>
        </div>
        <a href={DASHBOARD_PATH} className="btn btn-secondary self-start sm:self-auto">
          <Icon path={iconPaths.arrowLeft} />
          Back to dashboard
        </a>
      </div>
      <HoursForm data={data} onSaved={setData} />
      <Closures
        closures={data.closures}
        onChange={(closures) => setData({ ...data, closures })}
        holidays={data.holidays}
      />
    </div>
  );
}

function HoursForm({ data, onSaved }: { data: Availability; onSaved: (next: Availability) => void }) {
  const [hours, setHours] = useState<OpeningHours[]>(data.hours);
  const [publicHolidays, setPublicHolidays] = useState(data.publicHolidays);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const periods = (weekday: IsoWeekday) => hours.filter((h) => h.weekday === weekday);
  const setDay = (weekday: IsoWeekday, next: OpeningHours[]) =>
    setHours((all) => [...all.filter((h) => h.weekday !== weekday), ...next].sort((a, b) => a.weekday - b.weekday));

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const answer = await adminRequest<AvailabilityAnswer>("PUT", ROUTES.admin.availability, {
        hours,
        publicHolidays,
      });
      onSaved(answer.data);
      setHours(answer.data.hours);
      showToast({ title: "Office hours saved", description: "Visitors see the new hours now.", variant: "success" });
    } catch (e) {
      setError(problem(e, "The office hours could not be saved."));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={save} aria-labelledby="hours-title" className="card p-5 sm:p-6">
      <h2 id="hours-title" className="text-xl font-bold text-brand-950">
        Office hours
      </h2>
      <p className="mt-1 text-sm text-muted">A day without hours is closed. Times are on the hour or half hour.</p>
      <ul role="list" className="mt-5 divide-y divide-line">
        {WEEKDAYS.map(([weekday, name]) => (
          <DayRow
            key={weekday}
            name={name}
            periods={periods(weekday)}
            onChange={(p) => setDay(weekday, p)}
            weekday={weekday}
          />
        ))}
      </ul>
      <div className="mt-5 border-t border-line pt-5">
        <label className="flex items-center gap-3 font-semibold text-ink">
          <input
            type="checkbox"
            checked={publicHolidays}
            onChange={(e) => setPublicHolidays(e.target.checked)}
            aria-describedby="holidays-help"
            className="size-5 accent-brand-600"
          />
          Closed on Dutch public holidays
        </label>
        <p id="holidays-help" className="ms-8 mt-1 text-sm text-muted">
          Computed for every year: New Year, Easter, King&apos;s Day, Liberation Day (every year), Ascension, Whitsun
          and Christmas. Good Friday is a working day.
        </p>
      </div>
      {error && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      <div className="mt-5 flex justify-end">
        <button type="submit" disabled={saving} className="btn btn-primary disabled:opacity-70">
          {saving ? <Spinner className="size-4" /> : <Icon path={iconPaths.check} />}
          {saving ? "Saving…" : "Save office hours"}
        </button>
      </div>
    </form>
  );
}

function DayRow({
  name,
  weekday,
  periods,
  onChange,
}: {
  name: string;
  weekday: IsoWeekday;
  periods: OpeningHours[];
  onChange: (next: OpeningHours[]) => void;
}) {
  const id = useId();
  const open = periods.length > 0;
  const update = (index: number, field: "opens" | "closes", value: string) =>
    onChange(periods.map((p, i) => (i === index ? { ...p, [field]: value } : p)));
  const last = periods.at(-1);
  return (
    <li className="grid gap-3 py-4 sm:grid-cols-[10rem_1fr] sm:items-start" data-weekday={weekday}>
      <label className="flex min-h-11 items-center gap-3 font-semibold text-ink">
        <input
          type="checkbox"
          checked={open}
          onChange={(e) => onChange(e.target.checked ? [{ weekday, opens: "09:00", closes: "17:00" }] : [])}
          className="size-5 accent-brand-600"
        />
        {name}
      </label>
      {open ? (
        <div className="grid gap-2">
          {periods.map((period, i) => (
            <fieldset key={i} className="flex items-center gap-2">
              <legend className="sr-only">
                {name}, period {i + 1}
              </legend>
              <label htmlFor={`${id}-${i}-opens`} className="sr-only">
                Opens
              </label>
              <select
                id={`${id}-${i}-opens`}
                value={period.opens}
                onChange={(e) => update(i, "opens", e.target.value)}
                className={`${fieldClass} w-28`}
              >
                {TIMES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
              <span aria-hidden="true">to</span>
              <label htmlFor={`${id}-${i}-closes`} className="sr-only">
                Closes
              </label>
              <select
                id={`${id}-${i}-closes`}
                value={period.closes}
                onChange={(e) => update(i, "closes", e.target.value)}
                className={`${fieldClass} w-28`}
              >
                {TIMES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
              {periods.length > 1 && (
                <button
                  type="button"
                  onClick={() => onChange(periods.filter((_, j) => j !== i))}
                  className="btn btn-secondary min-h-11 px-3"
                  aria-label={`Remove ${name} period ${i + 1}`}
                >
                  <Icon path="M6 6l12 12M18 6 6 18" />
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
              Add a period (e.g. after a lunch break)
            </button>
          )}
        </div>
      ) : (
        <p className="flex min-h-11 items-center text-muted">Closed</p>
      )}
    </li>
  );
}

function Closures({
  closures,
  onChange,
  holidays,
}: {
  closures: OfficeClosure[];
  onChange: (next: OfficeClosure[]) => void;
  holidays: Availability["holidays"];
}) {
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [yearly, setYearly] = useState(false);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const today = new Date().toISOString().slice(0, 10);

  const add = async (event: SubmitEvent) => {
    event.preventDefault();
    setError(null);
    if (!from) return setError("Choose the first closed day.");
    setBusy(true);
    try {
      const answer = await adminRequest<ClosureAnswer>("POST", ROUTES.admin.closures, {
        from,
        to: to || from,
        yearly,
        note,
      });
      onChange([...closures, answer.data].sort((a, b) => (a.from < b.from ? -1 : 1)));
      setFrom("");
      setTo("");
      setYearly(false);
      setNote("");
      showToast({ title: "Closed days added", description: "Visitors can no longer book them.", variant: "success" });
    } catch (e) {
      setError(problem(e, "The closed days could not be added."));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (closure: OfficeClosure) => {
    try {
      await adminRequest("DELETE", fill(ROUTES.admin.closure, { id: closure.id }));
      onChange(closures.filter((c) => c.id !== closure.id));
      showToast({ title: "Closed days removed", description: "Visitors can book them again.", variant: "success" });
    } catch (e) {
      showToast({ title: "Remove failed", description: problem(e, "Please try again."), variant: "destructive" });
    }
  };

  const shown = closures.filter((c) => c.yearly || c.to >= today);
  const upcoming = holidays.filter((h) => h.date >= today).slice(0, 10);

  return (
    <section aria-labelledby="closures-title" className="card p-5 sm:p-6">
      <h2 id="closures-title" className="text-xl font-bold text-brand-950">
        Closed days
      </h2>
      <p className="mt-1 text-sm text-muted">Company holidays and days off: one day, or a range of days.</p>
      <form onSubmit={add} className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_2fr_auto] lg:items-end">
        <label className="grid gap-1.5 text-sm font-semibold text-ink">
          First day
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} className={inputClass} required />
        </label>
        <label className="grid gap-1.5 text-sm font-semibold text-ink">
          <span>
            Last day <span className="font-normal text-muted">(optional)</span>
          </span>
          <input type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} className={inputClass} />
        </label>
        <label className="grid gap-1.5 text-sm font-semibold text-ink">
          <span>
            Note <span className="font-normal text-muted">(optional)</span>
          </span>
          <input
            type="text"
            value={note}
            maxLength={200}
            onChange={(e) => setNote(e.target.value)}
            className={inputClass}
            placeholder="e.g. Team offsite"
          />
        </label>
        <button type="submit" disabled={busy} className="btn btn-primary disabled:opacity-70">
          {busy ? <Spinner className="size-4" /> : <Icon path="M12 5v14M5 12h14" />}
          Add closed days
        </button>
        <label className="flex items-center gap-3 text-sm font-medium text-ink sm:col-span-full">
          <input
            type="checkbox"
            checked={yearly}
            onChange={(e) => setYearly(e.target.checked)}
            className="size-5 accent-brand-600"
          />
          Every year on these days
        </label>
      </form>
      {error && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      {shown.length ? (
        <ul role="list" className="mt-6 divide-y divide-line rounded-xl ring-1 ring-line" data-testid="closures">
          {shown.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="font-semibold text-ink">
                  {c.yearly ? yearlyLabel(c) : rangeLabel(c)}
                  {c.yearly && <span className="ms-2 text-sm font-normal text-muted">every year</span>}
                </p>
                {c.note && <p className="text-sm text-muted [overflow-wrap:anywhere]">{c.note}</p>}
              </div>
              <button
                type="button"
                onClick={() => void remove(c)}
                className="btn btn-secondary min-h-11"
                aria-label={`Remove closed days ${c.yearly ? yearlyLabel(c) : rangeLabel(c)}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-6 text-muted">No closed days planned.</p>
      )}
      <h3 className="mt-8 font-semibold text-ink">Coming Dutch public holidays</h3>
      <ul role="list" className="mt-2 grid gap-x-6 gap-y-1 text-sm text-muted sm:grid-cols-2">
        {upcoming.map((h) => (
          <li key={h.date}>
            <time dateTime={h.date}>{formatCalendarDate(h.date)}</time>: {HOLIDAY_NAMES[h.holiday]}
          </li>
        ))}
      </ul>
    </section>
  );
}

const monthDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const md = (date: string) => monthDay.format(new Date(`${date}T00:00:00Z`));
const rangeLabel = (c: OfficeClosure) =>
  c.from === c.to ? formatCalendarDate(c.from) : `${formatCalendarDate(c.from)} – ${formatCalendarDate(c.to)}`;
const yearlyLabel = (c: OfficeClosure) => (c.from === c.to ? md(c.from) : `${md(c.from)} – ${md(c.to)}`);
