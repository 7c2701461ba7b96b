/** Small building blocks shared by the admin islands. */
import { Fragment, type ReactNode } from "react";
import { Spinner } from "../../ui/Spinner";

export { Spinner };

/** A full-area spinner with a status message for assistive technology (none before the texts are read). */
export function PageSpinner({ label }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-[50vh] flex-col items-center justify-center gap-3 text-brand-700">
      <Spinner className="size-9" />
      {label && <span className="text-sm font-medium text-muted">{label}</span>}
    </div>
  );
}

const badgeTone = {
  done: "bg-teal-50 text-teal-700 ring-teal-600/30",
  pending: "bg-amber-50 text-amber-900 ring-amber-500/40",
  off: "bg-slate-100 text-slate-700 ring-slate-400/40",
} as const;
const dotTone = { done: "bg-teal-600", pending: "bg-amber-500", off: "bg-slate-500" } as const;

/** Status pill: teal when done (Processed, Confirmed), amber while Pending, grey when off (Cancelled). */
export function Badge({ tone, children }: { tone: keyof typeof badgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset ${badgeTone[tone]}`}
    >
      <span className={`size-1.5 rounded-full ${dotTone[tone]}`} aria-hidden="true" />
      {children}
    </span>
  );
}

export function Icon({ path, className = "size-4" }: { path: string; className?: string }) {
  return (
    <svg
      className={`${className} shrink-0`}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={path} />
    </svg>
  );
}

/** Stroke paths (24 × 24) for the few icons the admin uses. */
export const iconPaths = {
  arrowLeft: "M19 12H5m6-6-6 6 6 6",
  pencil: "M4 20h4L19 9l-4-4L4 16zM14 6l4 4",
  logout: "M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l-5-5 5-5M5 12h11",
  check: "M5 12.5l4.5 4.5L19 7",
  undo: "M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11",
  mail: "M4 6h16v12H4zM4 7l8 6 8-6",
  phone:
    "M6.6 10.8a15.1 15.1 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.57a1 1 0 0 1-.25 1z",
  inbox: "M4 13h4l1.5 3h5L16 13h4M5.5 5h13L21 13v6H3v-6z",
  calendar: "M7 3v3m10-3v3M4 9h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z",
  trash: "M4 7h16M10 11v6m4-6v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3",
  download: "M12 4v11m-5-5 5 5 5-5M5 20h14",
  shield: "M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6z",
  alert: "M12 9v4m0 3.5v.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z",
  plus: "M12 5v14M5 12h14",
  close: "M6 6l12 12M18 6 6 18",
  search: "m20 20-4.5-4.5M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13z",
  chevronUp: "m6 15 6-6 6 6",
  chevronLeft: "m15 6-6 6 6 6",
  chevronRight: "m9 6 6 6-6 6",
  chevronDown: "m6 9 6 6 6-6",
} as const;

/**
 * A panel text with `{{name}}` placeholders filled by nodes: a person's name or an address is data,
 * kept as it is in every language (`<Data>`), while the words around it are the panel's.
 */
export function Filled({ text, values }: { text: string; values: Record<string, ReactNode> }) {
  return (
    <>
      {text.split(/\{\{(\w+)\}\}/).map((part, i) => (
        <Fragment key={i}>{i % 2 ? (values[part] ?? `{{${part}}}`) : part}</Fragment>
      ))}
    </>
  );
}

/** A value shown as it is, in any language: isolated for direction and left untranslated. */
export function Data({ children }: { children: ReactNode }) {
  return <bdi translate="no">{children}</bdi>;
}
