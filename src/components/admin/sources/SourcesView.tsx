import { useEffect, useMemo, useState } from "react";
import type { FunnelRow, SourcesDay, TopRow } from "#shared/api/sources.ts";
import { addDays, officeNow } from "#shared/dates.ts";
import { formatNumber } from "#shared/format.ts";
import { LANGUAGE_INFO, isLanguage } from "#shared/languages.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { adminCopy } from "../copy.ts";
import { DASHBOARD_PATH } from "../api.ts";
import { PageSpinner } from "../ui/index.ts";
import { Chart } from "./Chart.tsx";
import { chartUrl, fetchChart, type Range } from "./sources-api.ts";
import { Table } from "./Table.tsx";

const BREAKDOWNS = ["source", "campaign", "landing", "language"] as const;
type Breakdown = (typeof BREAKDOWNS)[number];
const PRESETS = [7, 30, 90] as const;

const lastDays = (days: number): Range => {
  const today = officeNow(new Date(), OFFICE_TIME_ZONE).date;
  return { from: addDays(today, 1 - days), to: today };
};

interface Figures {
  daily: SourcesDay[];
  breakdown: FunnelRow[];
  pages: TopRow[];
  referrers: TopRow[];
}

/** The admin's Sources view: the funnel, the lines over time, a breakdown, the top pages and referrers. */
export default function SourcesView() {
  const [{ lang, dir, copy: all }] = useState(adminCopy);
  const copy = all.sources;
  const [preset, setPreset] = useState<number | "custom">(30);
  const [range, setRange] = useState<Range>(() => lastDays(30));
  const [draft, setDraft] = useState<Range>(range);
  const [by, setBy] = useState<Breakdown>("source");
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

  const n = (v: number) => formatNumber(lang, v);
  const name = (key: string, kind: Breakdown | "pages" | "referrers") =>
    key === ""
      ? kind === "source" || kind === "referrers"
        ? copy.direct
        : copy.none
      : kind === "language" && isLanguage(key)
        ? LANGUAGE_INFO[key].name
        : key;

  const totals = useMemo(() => {
    const sum = (k: keyof Omit<SourcesDay, "day">) => (figures?.daily ?? []).reduce((a, d) => a + d[k], 0);
    return {
      visits: sum("visits"),
      enquiries: sum("enquiries"),
      meetings: sum("meetings"),
      meetingsDone: sum("meetingsDone"),
    };
  }, [figures]);
  const funnelLabels = [copy.visits, copy.enquiries, copy.meetings, copy.meetingsDone];
  const funnel = useMemo(
    () => [{ label: copy.funnel, values: [totals.visits, totals.enquiries, totals.meetings, totals.meetingsDone] }],
    [totals, copy],
  );
  const days = useMemo(() => (figures?.daily ?? []).map((d) => d.day), [figures]);
  const lines = useMemo(
    () => [
      { label: copy.visits, values: (figures?.daily ?? []).map((d) => d.visits) },
      { label: copy.enquiries, values: (figures?.daily ?? []).map((d) => d.enquiries), secondary: true },
      { label: copy.meetings, values: (figures?.daily ?? []).map((d) => d.meetings), secondary: true },
      { label: copy.meetingsDone, values: (figures?.daily ?? []).map((d) => d.meetingsDone), secondary: true },
    ],
    [figures, copy],
  );
  const top = useMemo(() => (figures?.breakdown ?? []).slice(0, 10), [figures]);
  const breakdownKeys = useMemo(() => top.map((r) => name(r.key, by)), [top, by]); // eslint-disable-line react-hooks/exhaustive-deps
  const breakdownSeries = useMemo(
    () => [
      { label: copy.visits, values: top.map((r) => r.visits) },
      { label: copy.meetings, values: top.map((r) => r.meetings), secondary: true },
    ],
    [top, copy],
  );

  const choose = (days: number) => {
    setPreset(days);
    const next = lastDays(days);
    setDraft(next);
    setRange(next);
  };
  const funnelHeader = [copy.visits, copy.enquiries, copy.meetings, copy.meetingsDone];

  return (
    <div lang={lang} dir={dir} className="container-page py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-brand-950">{copy.title}</h1>
          <p className="mt-1 max-w-3xl text-sm text-muted">{copy.intro}</p>
        </div>
        <a href={DASHBOARD_PATH} className="btn btn-secondary">
          {copy.back}
        </a>
      </div>

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
            if (draft.from && draft.to && draft.from <= draft.to) {
              setPreset("custom");
              setRange(draft);
            }
          }}
        >
          {(["from", "to"] as const).map((k) => (
            <label key={k} className="text-sm font-medium text-brand-950">
              {copy[k]}
              <input
                type="date"
                required
                value={draft[k]}
                onChange={(e) => setDraft({ ...draft, [k]: e.target.value })}
                className="mt-1 block rounded-lg border border-slate-300 px-2 py-1.5"
              />
            </label>
          ))}
          <button type="submit" className="btn btn-secondary">
            {copy.show}
          </button>
        </form>
      </fieldset>

      {failed ? (
        <p role="alert" className="mt-8 rounded-lg bg-red-50 p-4 text-red-800">
          {copy.loadError}
        </p>
      ) : !figures ? (
        <PageSpinner label={copy.loading} />
      ) : (
        <div className="mt-8 grid gap-8 lg:grid-cols-2">
          <Table
            id="funnel"
            title={copy.funnel}
            note={copy.chartOf}
            csv={chartUrl("daily", range, "csv")}
            csvLabel={copy.csv}
            chart={<Chart lang={lang} kind="bars" x={funnelLabels} series={funnel} />}
            header={funnelHeader}
            keyed={false}
            rows={[[n(totals.visits), n(totals.enquiries), n(totals.meetings), n(totals.meetingsDone)]]}
          />
          <Table
            id="daily"
            title={copy.overTime}
            note={copy.chartOf}
            csv={chartUrl("daily", range, "csv")}
            csvLabel={copy.csv}
            chart={<Chart lang={lang} kind="lines" x={days} series={lines} />}
            header={[copy.day, copy.views, ...funnelHeader]}
            collapsed
            rows={(figures.daily ?? []).map((d) => [
              d.day,
              n(d.views),
              n(d.visits),
              n(d.enquiries),
              n(d.meetings),
              n(d.meetingsDone),
            ])}
          />
          <div className="min-w-0 lg:col-span-2">
            <div role="group" aria-label={copy.by} className="mb-3 flex flex-wrap items-center gap-2">
              <span className="text-sm font-semibold text-brand-950">{copy.by}</span>
              {BREAKDOWNS.map((b) => (
                <button
                  key={b}
                  type="button"
                  aria-pressed={by === b}
                  onClick={() => setBy(b)}
                  className={`btn ${by === b ? "btn-primary" : "btn-secondary"}`}
                >
                  {copy[b]}
                </button>
              ))}
            </div>
            <Table
              id={`by-${by}`}
              title={`${copy.by}: ${copy[by]}`}
              note={copy.chartOf}
              csv={chartUrl(by, range, "csv")}
              csvLabel={copy.csv}
              chart={top.length ? <Chart lang={lang} kind="bars" x={breakdownKeys} series={breakdownSeries} /> : null}
              header={[copy[by], ...funnelHeader]}
              empty={copy.empty}
              rows={figures.breakdown.map((r) => [
                name(r.key, by),
                n(r.visits),
                n(r.enquiries),
                n(r.meetings),
                n(r.meetingsDone),
              ])}
            />
          </div>
          {(["pages", "referrers"] as const).map((kind) => (
            <Table
              key={kind}
              id={kind}
              title={copy[kind]}
              csv={chartUrl(kind, range, "csv")}
              csvLabel={copy.csv}
              header={[kind === "pages" ? copy.page : copy.referrer, copy.views, copy.visits]}
              empty={copy.empty}
              rows={figures[kind].map((r) => [name(r.key, kind), n(r.views), n(r.visits)])}
            />
          ))}
        </div>
      )}
    </div>
  );
}
