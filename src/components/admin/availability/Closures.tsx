/** The closed days of the availability page (one day, a range, or yearly) and the coming public holidays. */
import { useState, type SubmitEvent } from "react";
import type { Availability, ClosureAnswer, OfficeClosure } from "#shared/api/availability.ts";
import { LANGUAGE_INFO } from "#shared/languages.ts";
import { fill as fillRoute, ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest } from "../api";
import { useCopy, type AdminText } from "../copy";
import {
  BusyButton,
  DateField,
  ErrorNote,
  Field,
  iconPaths,
  inputClass,
  problem,
  RowList,
  Section,
  Toggle,
  useAction,
} from "../ui";

/** The notes the office's first closures were seeded with (in English), by their text. */
const SEEDED_NOTES = { "Christmas Eve": "christmasEve", "New Year's Eve": "newYearsEve" } as const;

/** A closure's note in the panel's language when it is a seeded one; a note staff wrote, as written. */
export function closureNote({ copy }: Pick<AdminText, "copy">, note: string): { text: string; own: boolean } {
  const seeded = Object.hasOwn(SEEDED_NOTES, note) ? SEEDED_NOTES[note as keyof typeof SEEDED_NOTES] : null;
  return seeded ? { text: copy.availability.seededNotes[seeded], own: false } : { text: note, own: true };
}

/** A closure's days as the panel writes them: a range of dates, or (yearly) of days in the year. */
function closureLabel({ lang, date }: AdminText, c: OfficeClosure): string {
  const day = (iso: string) =>
    c.yearly
      ? // Every year on the same Gregorian day: its day and month in the Gregorian calendar, in the panel's words and digits.
        new Intl.DateTimeFormat(`${LANGUAGE_INFO[lang].intl}-u-ca-gregory`, {
          month: "short",
          day: "numeric",
          timeZone: "UTC",
        }).format(new Date(`${iso}T00:00:00Z`))
      : date(iso);
  return c.from === c.to ? day(c.from) : `${day(c.from)} – ${day(c.to)}`;
}

export function Closures({
  closures,
  onChange,
  holidays,
}: {
  closures: OfficeClosure[];
  onChange: (next: OfficeClosure[]) => void;
  holidays: Availability["holidays"];
}) {
  const texts = useCopy();
  const { copy, f, date } = texts;
  const c = copy.availability;
  const empty = { from: "", to: "", yearly: false, note: "" };
  const [draft, setDraft] = useState(empty);
  const add = useAction();
  const today = new Date().toISOString().slice(0, 10);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (!draft.from) return add.setError(c.chooseFirst);
    void add.run(async () => {
      const body = { ...draft, to: draft.to || draft.from };
      const answer = await adminRequest<ClosureAnswer>("POST", ROUTES.admin.closures, body);
      onChange([...closures, answer.data].sort((a, b) => (a.from < b.from ? -1 : 1)));
      setDraft(empty);
      showToast({ title: c.closureAdded, description: c.closureAddedText, variant: "success" });
    }, c.closureError);
  };

  const remove = async (closure: OfficeClosure) => {
    try {
      await adminRequest("DELETE", fillRoute(ROUTES.admin.closure, { id: closure.id }));
      onChange(closures.filter((x) => x.id !== closure.id));
      showToast({ title: c.closureRemoved, description: c.closureRemovedText, variant: "success" });
    } catch (e) {
      const description = problem(e, copy.common.tryAgain);
      showToast({ title: copy.common.removeFailed, description, variant: "destructive" });
    }
  };

  const shown = closures.filter((x) => x.yearly || x.to >= today);
  const upcoming = holidays.filter((h) => h.date >= today).slice(0, 10);
  const set = (key: "from" | "to" | "note") => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));

  return (
    <Section title={c.closures} intro={c.closuresIntro}>
      <form onSubmit={submit} className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_2fr_auto] lg:items-end">
        <Field label={c.firstDay}>
          {(p) => (
            <DateField
              {...p}
              value={draft.from}
              onChange={(value) => set("from")({ target: { value } })}
              className={inputClass}
              required
            />
          )}
        </Field>
        <Field label={c.lastDay} note={copy.common.optional}>
          {(p) => (
            <DateField
              {...p}
              value={draft.to}
              min={draft.from}
              onChange={(value) => set("to")({ target: { value } })}
              className={inputClass}
            />
          )}
        </Field>
        <Field label={c.note} note={copy.common.optional}>
          {(p) => (
            <input
              {...p}
              type="text"
              value={draft.note}
              maxLength={200}
              onChange={set("note")}
              className={inputClass}
              placeholder={c.notePlaceholder}
            />
          )}
        </Field>
        <BusyButton type="submit" primary busy={add.busy !== null} label={c.addClosure} icon={iconPaths.plus} />
        <div className="sm:col-span-full">
          <Toggle
            checked={draft.yearly}
            onChange={(yearly) => setDraft((d) => ({ ...d, yearly }))}
            className="text-sm font-medium"
          >
            {c.yearly}
          </Toggle>
        </div>
      </form>
      <ErrorNote className="mt-4">{add.error}</ErrorNote>
      {shown.length ? (
        <RowList data-testid="closures">
          {shown.map((closure) => (
            <li key={closure.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="font-semibold text-ink">
                  {closureLabel(texts, closure)}
                  {closure.yearly && <span className="ms-2 text-sm font-normal text-muted">{c.everyYear}</span>}
                </p>
                {closure.note && (
                  <p
                    className="text-sm text-muted [overflow-wrap:anywhere]"
                    translate={closureNote(texts, closure.note).own ? "no" : undefined}
                  >
                    {closureNote(texts, closure.note).text}
                  </p>
                )}
              </div>
              <button
                type="button"
                onClick={() => void remove(closure)}
                className="btn btn-secondary min-h-11"
                aria-label={f(c.removeClosure, { days: closureLabel(texts, closure) })}
              >
                {copy.common.remove}
              </button>
            </li>
          ))}
        </RowList>
      ) : (
        <p className="mt-6 text-muted">{c.noClosures}</p>
      )}
      <h3 className="mt-8 font-semibold text-ink">{c.comingHolidays}</h3>
      <ul role="list" className="mt-2 grid gap-x-6 gap-y-1 text-sm text-muted sm:grid-cols-2">
        {upcoming.map((h) => (
          <li key={h.date}>
            <time dateTime={h.date}>{date(h.date)}</time>: {c.holidays[h.holiday]}
          </li>
        ))}
      </ul>
    </Section>
  );
}
