/** The admin's page pieces: a titled section, a busy button, a list of rows, an empty state, a loading line. */
import { useId, type ReactNode } from "react";
import { Icon, Spinner } from "./basics";

/** A card with a heading and an introduction; the heading names the section for assistive technology. */
export function Section({
  title,
  intro,
  icon,
  children,
  className = "",
  ...rest
}: {
  title: ReactNode;
  intro?: ReactNode;
  icon?: string;
  children?: ReactNode;
  className?: string;
  id?: string;
  "data-testid"?: string;
  lang?: string;
  dir?: "ltr" | "rtl";
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={`card p-5 sm:p-6 ${className}`} {...rest}>
      <h2 id={titleId} className="flex items-center gap-2 text-xl font-bold text-brand-950">
        {icon && <Icon path={icon} className="size-5 text-brand-700" />}
        {title}
      </h2>
      {intro && <p className="mt-1 max-w-3xl text-sm text-muted">{intro}</p>}
      {children}
    </section>
  );
}

/** A button that shows a spinner and its busy words while its action runs. */
export function BusyButton({
  busy,
  label,
  busyLabel,
  icon,
  primary,
  danger,
  type = "button",
  disabled,
  onClick,
  className = "",
  describedBy,
}: {
  busy: boolean;
  label: string;
  busyLabel?: string;
  icon?: string;
  primary?: boolean;
  /** Red: a step that cannot be undone. */
  danger?: boolean;
  type?: "button" | "submit";
  disabled?: boolean;
  onClick?: () => void;
  className?: string;
  describedBy?: string;
}) {
  return (
    <button
      type={type}
      onClick={onClick}
      disabled={busy || disabled}
      aria-describedby={describedBy}
      className={`btn ${danger ? "bg-red-700 text-white hover:bg-red-800" : primary ? "btn-primary" : "btn-secondary"} disabled:cursor-not-allowed disabled:opacity-70 ${className}`}
    >
      {busy ? <Spinner className="size-4" /> : icon ? <Icon path={icon} /> : null}
      {busy && busyLabel ? busyLabel : label}
    </button>
  );
}

/** The buttons at the end of a form, at its end edge. */
export function SaveBar({ children }: { children: ReactNode }) {
  return <div className="mt-5 flex flex-wrap justify-end gap-2">{children}</div>;
}

/** A framed list of rows (calendars, closed days): the admin's table. */
export function RowList({ children, ...rest }: { children: ReactNode; "data-testid"?: string }) {
  return (
    <ul role="list" className="mt-5 divide-y divide-line rounded-xl ring-1 ring-line" {...rest}>
      {children}
    </ul>
  );
}

/** A line that says something is loading. */
export function Loading({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mt-5 flex items-center gap-2 text-muted">
      <Spinner className="size-4" />
      {children}
    </p>
  );
}

/** The card shown instead of an empty (or failed) list: an icon, a title and a sentence. */
export function EmptyState({
  tone = "empty",
  icon,
  title,
  children,
}: {
  tone?: "error" | "empty";
  icon: string;
  title: string;
  children: ReactNode;
}) {
  const error = tone === "error";
  return (
    <div role={error ? "alert" : undefined} className="card flex flex-col items-center px-6 py-12 text-center sm:py-16">
      <span
        className={`flex size-12 items-center justify-center rounded-full ${error ? "bg-red-50 text-red-700" : "bg-brand-50 text-brand-700"}`}
      >
        <Icon path={icon} className="size-6" />
      </span>
      <h2 className={`mt-4 text-lg font-semibold ${error ? "text-red-800" : "text-brand-950"}`}>{title}</h2>
      <p className="mt-1.5 max-w-sm text-muted">{children}</p>
    </div>
  );
}

/** A page's heading (its one <h1>) and an optional introduction, at the top of a panel page. */
export function PageTitle({ title, intro }: { title: string; intro?: ReactNode }) {
  return (
    <div className="min-w-0">
      <h1 className="text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">{title}</h1>
      {intro && <p className="mt-2 max-w-2xl text-muted">{intro}</p>}
    </div>
  );
}
