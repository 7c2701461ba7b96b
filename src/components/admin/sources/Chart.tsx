import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatNumber } from "#shared/format.ts";
import { dirOf, LANGUAGE_INFO, type Language } from "#shared/languages.ts";

/** The charts' colours, in series order: visits, enquiries, meetings, meetings done. */
export const COLOURS = ["#1d4ed8", "#0f766e", "#b45309", "#7c3aed"];

export interface ChartSeries {
  label: string;
  values: number[];
  /** Drawn against the right-hand (left-hand in Persian) scale: leads are far fewer than visits. */
  secondary?: boolean;
}

/** Bars of two series side by side: the first before each category's tick, the second after it. */
const barsFor = (count: number, index: number) =>
  count === 1
    ? uPlot.paths.bars!({ size: [0.7, 64], gap: 2 })
    : uPlot.paths.bars!({ size: [0.35, 32], gap: 1, align: index === 0 ? -1 : 1 });

export interface ChartProps {
  lang: Language;
  kind: "lines" | "bars";
  /** Days (yyyy-MM-dd) for lines; category names for bars. */
  x: string[];
  series: ChartSeries[];
  height?: number;
}

const dayFormats = new Map<Language, Intl.DateTimeFormat>();
const dayLabel = (lang: Language, day: string) => {
  let f = dayFormats.get(lang);
  if (!f)
    dayFormats.set(
      lang,
      (f = new Intl.DateTimeFormat(LANGUAGE_INFO[lang].intl, { day: "numeric", month: "short", timeZone: "UTC" })),
    );
  return f.format(new Date(`${day}T00:00:00Z`));
};

/**
 * One uPlot chart in the admin's language: numbers and dates in its digits, and for a right-to-left
 * language the x axis runs right to left with the main scale on the right. Redrawn when the data
 * changes and resized with its box.
 */
export function Chart({ lang, kind, x, series, height = 260 }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const rtl = dirOf(lang) === "rtl";
    const n = (v: number) => formatNumber(lang, v);
    const xs = x.map((_, i) => i);
    const options: uPlot.Options = {
      width: element.clientWidth || 600,
      height,
      scales: {
        x: { time: false, dir: rtl ? -1 : 1, range: kind === "bars" ? [-0.5, x.length - 0.5] : undefined },
        leads: {},
      },
      legend: { live: false },
      cursor: { drag: { x: false, y: false } },
      axes: [
        {
          // One label per ~80 px: a month of days never overlaps.
          splits: (u) => {
            const every = Math.max(1, Math.ceil(x.length / Math.max(2, Math.floor(u.width / 80))));
            return xs.filter((i) => i % every === 0);
          },
          values: (_u, splits) =>
            splits.map((i) => {
              const label = x[Math.round(i)] ?? "";
              return kind === "lines" ? dayLabel(lang, label) : label.length > 18 ? `${label.slice(0, 17)}…` : label;
            }),
        },
        { side: rtl ? 1 : 3, values: (_u, splits) => splits.map(n), size: 56 },
        ...(series.some((s) => s.secondary)
          ? [
              {
                scale: "leads",
                side: (rtl ? 3 : 1) as uPlot.Axis.Side,
                grid: { show: false },
                values: (_u: uPlot, splits: number[]) => splits.map(n),
                size: 48,
              },
            ]
          : []),
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          scale: s.secondary ? "leads" : "y",
          stroke: COLOURS[i % COLOURS.length],
          fill: kind === "bars" ? `${COLOURS[i % COLOURS.length]}cc` : undefined,
          width: 2,
          paths: kind === "bars" ? barsFor(series.length, i) : undefined,
          points: { show: kind === "lines" && x.length < 40 },
          value: (_u: uPlot, v: number | null) => (v === null ? "–" : n(v)),
        })),
      ],
    };
    const plot = new uPlot(options, [xs, ...series.map((s) => s.values)], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [lang, kind, x, series, height]);
  return <div ref={box} className="w-full min-w-0 overflow-hidden" />;
}
