import { useEffect, useState } from "react";
import { addDays, officeNow } from "#shared/dates.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { adminCopy, type AdminCopy } from "../copy.ts";
import { DateField, PageSpinner } from "../ui/index.ts";
import type { Breakdown } from "./BreakdownTable.tsx";
import { FigureTables, type Figures } from "./FigureTables.tsx";
import { fetchChart, type Range } from "./sources-api.ts";

const PRESETS = [7, 30, 90] as const;

const lastDays = (days: number): Range => {
  const today = officeNow(new Date(), OFFICE_TIME_ZONE).date;
  return { from: addDays(today, 1 - days), to: today };
};

/** The figures of a period with a breakdown, loaded again when either changes; a late answer is dropped. */
function useFigures(range: Range, by: Breakdown) {
  const [figures, setFigures] = useState<Figures | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    Promise.all([
      fetchChart("daily", range),
      fetchChart(by, range),
      fetchChart("pages", range),
      fetchChart("referrers", range),
    ])
      .then(([daily, breakdown, pages, referrers]) => {
        if (!live) return;
        setFailed(false);
        setFigures({ daily, breakdown, pages, referrers });
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [range, by]);
  return { figures, failed };
}

/** The admin's Sources view: the funnel, the lines over time, a breakdown, the top pages and referrers. */
export default function SourcesView() {
  const [{ lang, dir, copy: all }] = useState(adminCopy);
  const copy = all.sources;
  const [preset, setPreset] = useState<number | "custom">(30);
  const [range, setRange] = useState<Range>(() => lastDays(30));
  const [by, setBy] = useState<Breakdown>("source");
  const { figures, failed } = useFigures(range, by);

  return (
    <div lang={lang} dir={dir} className="container-page py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-brand-950">{copy.title}</h1>
          <p className="mt-1 max-w-3xl text-sm text-muted">{copy.intro}</p>
        </div>
      </div>

      <PeriodPicker
        copy={copy}
        preset={preset}
        range={range}
        onChoose={(next, chosen) => {
          setPreset(chosen);
          setRange(next);
        }}
      />

      {failed ? (
        <p role="alert" className="mt-8 rounded-lg bg-red-50 p-4 text-red-800">
          {copy.loadError}
        </p>
      ) : !figures ? (
        <PageSpinner label={copy.loading} />
      ) : (
        <FigureTables lang={lang} copy={copy} figures={figures} range={range} by={by} onBy={setBy} />
      )}
    </div>
  );
}

interface PeriodPickerProps {
  copy: AdminCopy["sources"];
  preset: number | "custom";
  /** The period shown, which the from and to fields start from. */
  range: Range;
  onChoose: (range: Range, preset: number | "custom") => void;
}

/** The period: the last 7, 30 or 90 days at a press, or from and to dates shown on submit. */
function PeriodPicker({ copy, preset, range, onChoose }: PeriodPickerProps) {
  const [draft, setDraft] = useState<Range>(range);
  const choose = (days: number) => {
    const next = lastDays(days);
    setDraft(next);
    onChoose(next, days);
  };

  return (
    <fieldset className="mt-6 flex flex-wrap items-end gap-3">
      <legend className="mb-2 text-sm font-semibold text-brand-950">{copy.period}</legend>
      {PRESETS.map((days) => (
        <button
          key={days}
          type="button"
          aria-pressed={preset === days}
          onClick={() => choose(days)}
          className={`btn ${preset === days ? "btn-primary" : "btn-secondary"}`}
        >
          {copy[`days${days}`]}
        </button>
      ))}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.from && draft.to && draft.from <= draft.to) onChoose(draft, "custom");
        }}
      >
        {(["from", "to"] as const).map((k) => (
          <label key={k} className="text-sm font-medium text-brand-950">
            {copy[k]}
            <DateField
              required
              value={draft[k]}
              onChange={(iso) => setDraft({ ...draft, [k]: iso })}
              className="mt-1 block rounded-lg border border-slate-300 px-2 py-1.5"
            />
          </label>
        ))}
        <button type="submit" className="btn btn-secondary">
          {copy.show}
        </button>
      </form>
    </fieldset>
  );
}
