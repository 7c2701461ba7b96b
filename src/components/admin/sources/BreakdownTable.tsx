import { useMemo } from "react";
import type { FunnelRow } from "#shared/api/sources.ts";
import { formatNumber } from "#shared/format.ts";
import type { Language } from "#shared/languages.ts";
import { BarList } from "./BarList.tsx";
import { COLOURS } from "./Chart.tsx";
import { euros, keyName, percent, type SourcesCopy } from "./labels.ts";
import { chartUrl, type ChartRows, type Range } from "./sources-api.ts";
import { Table } from "./Table.tsx";

export const BREAKDOWNS = ["source", "campaign", "landing", "language"] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

/** The measures drawn side by side, each on its own scale: small multiples, never two scales in one chart. */
const MEASURES = ["visits", "enquiries", "clients"] as const;

interface BreakdownTableProps {
  lang: Language;
  copy: SourcesCopy;
  figures: ChartRows<Breakdown>;
  range: Range;
  by: Breakdown;
  onBy: (by: Breakdown) => void;
}

/**
 * The funnel by source, campaign, landing page or language: the choice, the top ten's visits,
 * enquiries and clients as three bar charts of one scale each, and the table with every row's
 * rates and its figures in the period before.
 */
export function BreakdownTable({ lang, copy, figures, range, by, onBy }: BreakdownTableProps) {
  const n = (v: number) => formatNumber(lang, v);
  const { rows } = figures;
  const before = useMemo(() => new Map(figures.previous.rows.map((r) => [r.key, r])), [figures]);
  const top = useMemo(() => rows.slice(0, 10), [rows]);
  const name = (r: FunnelRow) => keyName(copy, r.key, by);

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
        chart={
          top.length ? (
            <>
              <p className="text-sm text-muted">{copy.topTen}</p>
              <div className="mt-3 grid gap-6 sm:grid-cols-3">
                {MEASURES.map((m, i) => (
                  <BarList
                    key={m}
                    lang={lang}
                    title={copy[m]}
                    colour={COLOURS[i]}
                    data
                    bars={top.map((r) => ({ label: name(r), value: r[m] }))}
                  />
                ))}
              </div>
            </>
          ) : null
        }
        header={[
          copy[by],
          copy.visits,
          copy.enquiries,
          copy.replied,
          copy.clients,
          copy.clientValue,
          copy.meetings,
          copy.meetingsDone,
          copy.perVisit,
          copy.repliedPerEnquiry,
          copy.clientsPerEnquiry,
          copy.perEnquiry,
          copy.visitsBefore,
          copy.enquiriesBefore,
          copy.clientsBefore,
          copy.valueBefore,
        ]}
        empty={copy.empty}
        rows={rows.map((r) => {
          const then = before.get(r.key);
          return [
            name(r),
            n(r.visits),
            n(r.enquiries),
            n(r.replied),
            n(r.clients),
            euros(lang, r.clientValueCents),
            n(r.meetings),
            n(r.meetingsDone),
            percent(lang, r.enquiries, r.visits),
            percent(lang, r.replied, r.enquiries),
            percent(lang, r.clients, r.enquiries),
            percent(lang, r.meetings, r.enquiries),
            n(then?.visits ?? 0),
            n(then?.enquiries ?? 0),
            n(then?.clients ?? 0),
            euros(lang, then?.clientValueCents ?? 0),
          ];
        })}
      />
    </div>
  );
}
