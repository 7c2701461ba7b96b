import { formatNumber } from "#shared/format.ts";
import type { Language } from "#shared/languages.ts";

export interface Bar {
  label: string;
  value: number;
}

interface BarListProps {
  lang: Language;
  title: string;
  bars: Bar[];
  colour: string;
  /** Whether the names are data (a source, a campaign, a page: shown as stored, not translated). */
  data?: boolean;
}

/**
 * One measure across categories as horizontal bars on ONE scale (the largest value fills the row),
 * each bar under its category's full name and its whole number: every name stays readable on a
 * phone, and no tick can show a fraction of a meeting. The bars are SVG (attributes, not styles:
 * the panel's CSP allows no inline style); the figures are the text beside them.
 */
export function BarList({ lang, title, bars, colour, data }: BarListProps) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <div className="min-w-0">
      <h3 className="text-sm font-semibold text-brand-950">{title}</h3>
      <ul className="mt-2 space-y-2">
        {bars.map((bar, i) => (
          <li key={i} className="text-sm">
            <div className="flex items-baseline justify-between gap-3">
              <span
                dir="auto"
                translate={data ? "no" : undefined}
                className="min-w-0 [overflow-wrap:anywhere] text-ink"
              >
                {bar.label}
              </span>
              <span className="shrink-0 font-semibold tabular-nums text-brand-950">
                {formatNumber(lang, bar.value)}
              </span>
            </div>
            <svg
              aria-hidden="true"
              viewBox="0 0 100 6"
              preserveAspectRatio="none"
              className="mt-1 block h-2 w-full rounded-sm bg-slate-100 rtl:-scale-x-100"
            >
              <rect width={(bar.value / max) * 100} height="6" fill={colour} />
            </svg>
          </li>
        ))}
      </ul>
    </div>
  );
}
