import { useMemo } from "react";
import type { SourcesDay } from "#shared/api/sources.ts";
import { formatDate, formatNumber } from "#shared/format.ts";
import type { Language } from "#shared/languages.ts";
import { BarList } from "./BarList.tsx";
import { BreakdownTable, type Breakdown } from "./BreakdownTable.tsx";
import { Chart, COLOURS } from "./Chart.tsx";
import { change, euros, keyName, percent, type SourcesCopy } from "./labels.ts";
import { chartUrl, type ChartRows, type Range } from "./sources-api.ts";
import { Table } from "./Table.tsx";

/** One period's figures, each with the period before's: the days, the chosen breakdown, the top pages and referrers. */
export interface Figures {
  daily: ChartRows<"daily">;
  breakdown: ChartRows<Breakdown>;
  pages: ChartRows<"pages">;
  referrers: ChartRows<"referrers">;
}

/** The funnel's steps (its bars), visit → enquiry → replied → client; then the clients' value and the meetings. */
const BARS = ["visits", "enquiries", "replied", "clients"] as const;
const FUNNEL = [...BARS, "clientValueCents", "meetings", "meetingsDone"] as const;
/** The funnel's columns in every funnel table. */
export const funnelSteps = (copy: SourcesCopy) =>
  FUNNEL.map((k) => (k === "clientValueCents" ? copy.clientValue : copy[k]));

type Totals = Record<(typeof FUNNEL)[number], number>;
const totalsOf = (days: SourcesDay[]): Totals =>
  Object.fromEntries(FUNNEL.map((k) => [k, days.reduce((a, d) => a + d[k], 0)])) as Totals;

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
  const { daily } = figures;
  const [now, before] = useMemo(() => [totalsOf(daily.rows), totalsOf(daily.previous.rows)], [daily]);
  const funnelRow = (name: string, t: Totals) => [
    name,
    ...FUNNEL.map((k) => (k === "clientValueCents" ? euros(lang, t[k]) : n(t[k]))),
    percent(lang, t.enquiries, t.visits),
    percent(lang, t.replied, t.enquiries),
    percent(lang, t.clients, t.enquiries),
    percent(lang, t.meetings, t.enquiries),
  ];
  const days = useMemo(() => daily.rows.map((d) => d.day), [daily]);
  const visitLines = useMemo(() => [{ label: copy.visits, values: daily.rows.map((d) => d.visits) }], [daily, copy]);
  const leadLines = useMemo(
    () => [
      { label: copy.enquiries, values: daily.rows.map((d) => d.enquiries), colour: 1 },
      { label: copy.meetings, values: daily.rows.map((d) => d.meetings), colour: 2 },
      { label: copy.meetingsDone, values: daily.rows.map((d) => d.meetingsDone), colour: 3 },
    ],
    [daily, copy],
  );
  const compared = copy.comparedWith
    .replace("{{from}}", formatDate(lang, daily.previous.from, "short"))
    .replace("{{to}}", formatDate(lang, daily.previous.to, "short"));

  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-2">
      <Table
        id="funnel"
        title={copy.funnel}
        note={copy.chartOf}
        csv={chartUrl("daily", range, "csv")}
        csvLabel={copy.csv}
        chart={
          <BarList
            lang={lang}
            title={copy.thisPeriod}
            colour={COLOURS[0]}
            bars={BARS.map((k) => ({ label: copy[k], value: now[k] }))}
          />
        }
        header={[
          copy.period,
          ...funnelSteps(copy),
          copy.perVisit,
          copy.repliedPerEnquiry,
          copy.clientsPerEnquiry,
          copy.perEnquiry,
        ]}
        rows={[
          funnelRow(copy.thisPeriod, now),
          funnelRow(copy.previousPeriod, before),
          [copy.change, ...FUNNEL.map((k) => change(lang, now[k], before[k])), ...["–", "–", "–", "–"]],
        ]}
        footnote={compared}
      />
      <Table
        id="daily"
        title={copy.overTime}
        note={copy.chartOf}
        csv={chartUrl("daily", range, "csv")}
        csvLabel={copy.csv}
        chart={
          <div className="space-y-4">
            <div>
              <h3 className="text-sm font-semibold text-brand-950">{copy.visitsPerDay}</h3>
              <Chart lang={lang} x={days} series={visitLines} />
            </div>
            <div>
              <h3 className="text-sm font-semibold text-brand-950">{copy.leadsPerDay}</h3>
              <Chart lang={lang} x={days} series={leadLines} />
            </div>
          </div>
        }
        header={[copy.day, copy.views, ...funnelSteps(copy)]}
        collapsed={copy.perDay}
        rows={daily.rows.map((d) => [
          formatDate(lang, d.day, "short"),
          n(d.views),
          ...FUNNEL.map((k) => (k === "clientValueCents" ? euros(lang, d[k]) : n(d[k]))),
        ])}
      />
      <BreakdownTable lang={lang} copy={copy} figures={figures.breakdown} range={range} by={by} onBy={onBy} />
      {(["pages", "referrers"] as const).map((kind) => (
        <Table
          key={kind}
          id={kind}
          title={copy[kind]}
          csv={chartUrl(kind, range, "csv")}
          csvLabel={copy.csv}
          header={[kind === "pages" ? copy.page : copy.referrer, copy.views, copy.visits]}
          empty={copy.empty}
          rows={figures[kind].rows.map((r) => [keyName(copy, r.key, kind), n(r.views), n(r.visits)])}
        />
      ))}
    </div>
  );
}
