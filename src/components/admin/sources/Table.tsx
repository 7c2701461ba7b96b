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
  /** The table folded away under its chart (a long list of days). */
  collapsed?: boolean;
}

/** One chart of the Sources view with the table behind it and its CSV download. */
export function Table({ id, title, note, chart, header, rows, csv, csvLabel, empty, collapsed }: TableProps) {
  const table = (
    <div className="mt-3 max-h-96 overflow-auto">
      <table data-figures className="w-full text-sm">
        <thead>
          <tr>
            {header.map((h, i) => (
              <th
                key={h}
                scope="col"
                className={`border-b border-line px-2 py-1.5 font-semibold text-brand-950 ${i ? "text-end" : "text-start"}`}
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
                <td key={i} className={`px-2 py-1 ${i ? "text-end tabular-nums" : "text-start break-all"}`}>
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
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0 rounded-2xl border border-line bg-white p-5 shadow-sm">
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
      {collapsed ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-sm text-muted">{header.join(" · ")}</summary>
          {table}
        </details>
      ) : (
        table
      )}
    </section>
  );
}
