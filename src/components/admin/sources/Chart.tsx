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
  /** Index into COLOURS (by default the series' own place). */
  colour?: number;
}

export interface ChartProps {
  lang: Language;
  /** Days (yyyy-MM-dd). */
  x: string[];
  /** Every series is drawn on the one scale (the chart's heading names what it counts). */
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

/** Steps between ticks: whole numbers only, so no tick ever reads a fraction of a visit or a meeting. */
const WHOLE_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000];

/**
 * Lines over days in the admin's language, on ONE scale that starts at zero, with whole-number
 * ticks: numbers and dates in the language's digits, and for a
 * right-to-left language the days run right to left with the axis on the right. Redrawn when the
 * data changes and resized with its box.
 */
export function Chart({ lang, x, series, height = 220 }: ChartProps) {
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
        x: { time: false, dir: rtl ? -1 : 1 },
        // At least 0 to 4, so that a quiet period does not stretch one visit over the whole height.
        y: { range: (_u, _min, max) => [0, Math.max(4, max)] },
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
          values: (_u, splits) => splits.map((i) => dayLabel(lang, x[Math.round(i)] ?? "")),
        },
        {
          side: rtl ? 1 : 3,
          incrs: WHOLE_STEPS,
          values: (_u, splits) => splits.map(n),
          size: 48,
        },
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: COLOURS[(s.colour ?? i) % COLOURS.length],
          width: 2,
          points: { show: x.length < 40 },
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
  }, [lang, x, series, height]);
  return <div ref={box} className="w-full min-w-0 overflow-hidden" />;
}
