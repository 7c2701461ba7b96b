import type { ReactNode } from "react";

interface TableProps {
  id: string;
  title: string;
  /** Says that the chart's figures are in the table (for screen readers and a glance). */
  note?: string;
  chart?: ReactNode;
  header: string[];
  rows: string[][];
  csv: string;
  csvLabel: string;
  empty?: string;
  /** The table folded away under its chart (a long list of days), behind this summary. */
  collapsed?: string;
  /** A line under the table (what its figures are compared with). */
  footnote?: string;
  /**
   * Whether each row's first cell names it (a source, a page: data, shown as it is in every
   * language); otherwise every cell is a figure.
   */
  keyed?: boolean;
}

/** One chart of the Sources view with the table behind it and its CSV download. */
export function Table({
  id,
  title,
  note,
  chart,
  header,
  rows,
  csv,
  csvLabel,
  empty,
  collapsed,
  footnote,
  keyed = true,
}: TableProps) {
  const figuresFrom = keyed ? 1 : 0;
  // On a phone a row of five figures does not fit beside its name: each row is a small list there,
  // its name above its figures, and the table from the sm breakpoint up, where a long table scrolls
  // in its box: a region of its own, reachable by the keyboard.
  const table = (
    <div
      role="region"
      aria-labelledby={`${id}-title`}
      tabIndex={0}
      className="mt-3 rounded-lg sm:max-h-96 sm:overflow-auto"
    >
      <ul data-figures-list className="divide-y divide-line text-sm sm:hidden">
        {rows.map((row, r) => (
          <li key={r} className="py-2">
            {keyed && (
              <p dir="auto" translate="no" className="font-semibold [overflow-wrap:anywhere] text-brand-950">
                {row[0]}
              </p>
            )}
            <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-4 text-muted">
              {row.slice(figuresFrom).map((cell, i) => (
                <div key={i} className="contents">
                  <dt>{header[i + figuresFrom]}</dt>
                  <dd className="text-end tabular-nums text-ink">{cell}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <table data-figures className="hidden w-full text-sm sm:table">
        <thead>
          <tr>
            {header.map((h, i) => (
              <th
                key={h}
                scope="col"
                className={`border-b border-line px-2 py-1.5 font-semibold text-brand-950 ${i < figuresFrom ? "text-start" : "text-end"}`}
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r} className="odd:bg-surface">
              {row.map((cell, i) => (
                <td
                  key={i}
                  dir={i < figuresFrom ? "auto" : undefined}
                  translate={i < figuresFrom ? "no" : undefined}
                  className={`px-2 py-1 ${i < figuresFrom ? "min-w-28 text-start [overflow-wrap:anywhere]" : "text-end tabular-nums"}`}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && empty && <p className="mt-2 text-sm text-muted">{empty}</p>}
    </div>
  );
  const folded = collapsed ? (
    <details className="mt-2">
      <summary className="cursor-pointer text-sm font-medium text-brand-700">{collapsed}</summary>
      {table}
    </details>
  ) : (
    table
  );
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="min-w-0 rounded-2xl border border-line bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-brand-950">
          {title}
        </h2>
        <a href={csv} download className="text-sm font-medium text-brand-700 underline">
          {csvLabel}
        </a>
      </div>
      {chart && (
        <figure className="mt-3" aria-label={title}>
          {chart}
          {note && <figcaption className="sr-only">{note}</figcaption>}
        </figure>
      )}
      {folded}
      {footnote && <p className="mt-2 text-xs text-muted">{footnote}</p>}
    </section>
  );
}
