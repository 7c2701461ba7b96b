import { useMemo } from "react";
import type { FunnelRow, SourcesDay, TopRow } from "#shared/api/sources.ts";
import { formatNumber } from "#shared/format.ts";
import { LANGUAGE_INFO, isLanguage, type Language } from "#shared/languages.ts";
import type { AdminCopy } from "../copy.ts";
import { Chart } from "./Chart.tsx";
import { chartUrl, type Range } from "./sources-api.ts";
import { Table } from "./Table.tsx";

export const BREAKDOWNS = ["source", "campaign", "landing", "language"] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

/** One period's figures: the days, the chosen breakdown, the top pages and referrers. */
export interface Figures {
  daily: SourcesDay[];
  breakdown: FunnelRow[];
  pages: TopRow[];
  referrers: TopRow[];
}

type SourcesCopy = AdminCopy["sources"];

/** The funnel's steps: the columns of every funnel table and the bars of the funnel chart. */
const funnelSteps = (copy: SourcesCopy) => [copy.visits, copy.enquiries, copy.meetings, copy.meetingsDone];

/** A row's name as shown: "direct" or "none" for an empty key, a language by its name. */
function keyName(copy: SourcesCopy, key: string, kind: Breakdown | "pages" | "referrers"): string {
  if (key === "") return kind === "source" || kind === "referrers" ? copy.direct : copy.none;
  return kind === "language" && isLanguage(key) ? LANGUAGE_INFO[key].name : key;
}

interface FigureTablesProps {
  lang: Language;
  copy: SourcesCopy;
  figures: Figures;
  range: Range;
  by: Breakdown;
  onBy: (by: Breakdown) => void;
}

/** The Sources view's charts, each with its table and CSV: the funnel, the days, a breakdown, the tops. */
export function FigureTables({ lang, copy, figures, range, by, onBy }: FigureTablesProps) {
  const n = (v: number) => formatNumber(lang, v);
  const totals = useMemo(() => {
    const sum = (k: keyof Omit<SourcesDay, "day">) => (figures.daily ?? []).reduce((a, d) => a + d[k], 0);
    return {
      visits: sum("visits"),
      enquiries: sum("enquiries"),
      meetings: sum("meetings"),
      meetingsDone: sum("meetingsDone"),
    };
  }, [figures]);
  const funnelLabels = funnelSteps(copy);
  const funnel = useMemo(
    () => [{ label: copy.funnel, values: [totals.visits, totals.enquiries, totals.meetings, totals.meetingsDone] }],
    [totals, copy],
  );
  const days = useMemo(() => (figures.daily ?? []).map((d) => d.day), [figures]);
  const lines = useMemo(
    () => [
      { label: copy.visits, values: (figures.daily ?? []).map((d) => d.visits) },
      { label: copy.enquiries, values: (figures.daily ?? []).map((d) => d.enquiries), secondary: true },
      { label: copy.meetings, values: (figures.daily ?? []).map((d) => d.meetings), secondary: true },
      { label: copy.meetingsDone, values: (figures.daily ?? []).map((d) => d.meetingsDone), secondary: true },
    ],
    [figures, copy],
  );
  const funnelHeader = funnelSteps(copy);

  return (
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
      <BreakdownTable lang={lang} copy={copy} rows={figures.breakdown} range={range} by={by} onBy={onBy} />
      {(["pages", "referrers"] as const).map((kind) => (
        <Table
          key={kind}
          id={kind}
          title={copy[kind]}
          csv={chartUrl(kind, range, "csv")}
          csvLabel={copy.csv}
          header={[kind === "pages" ? copy.page : copy.referrer, copy.views, copy.visits]}
          empty={copy.empty}
          rows={figures[kind].map((r) => [keyName(copy, r.key, kind), n(r.views), n(r.visits)])}
        />
      ))}
    </div>
  );
}

/** The funnel by source, campaign, landing page or language: the choice, a chart of the top ten, the table. */
function BreakdownTable({
  lang,
  copy,
  rows,
  range,
  by,
  onBy,
}: Omit<FigureTablesProps, "figures"> & { rows: FunnelRow[] }) {
  const n = (v: number) => formatNumber(lang, v);
  const top = useMemo(() => rows.slice(0, 10), [rows]);
  const keys = useMemo(() => top.map((r) => keyName(copy, r.key, by)), [top, by, copy]);
  const series = useMemo(
    () => [
      { label: copy.visits, values: top.map((r) => r.visits) },
      { label: copy.meetings, values: top.map((r) => r.meetings), secondary: true },
    ],
    [top, copy],
  );

  return (
    <div className="min-w-0 lg:col-span-2">
      <div role="group" aria-label={copy.by} className="mb-3 flex flex-wrap items-center gap-2">
        <span className="text-sm font-semibold text-brand-950">{copy.by}</span>
        {BREAKDOWNS.map((b) => (
          <button
            key={b}
            type="button"
            aria-pressed={by === b}
            onClick={() => onBy(b)}
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
        chart={top.length ? <Chart lang={lang} kind="bars" x={keys} series={series} /> : null}
        header={[copy[by], ...funnelSteps(copy)]}
        empty={copy.empty}
        rows={rows.map((r) => [
          keyName(copy, r.key, by),
          n(r.visits),
          n(r.enquiries),
          n(r.meetings),
          n(r.meetingsDone),
        ])}
      />
    </div>
  );
}
