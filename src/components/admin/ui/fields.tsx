/** The admin's form building blocks: a labelled field, a toggle, a segmented choice, an error note. */
import { useId, type ReactNode } from "react";

/** Every text input, select and date field of the admin. */
export const inputClass =
  "block w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-700";

/** What a field's control needs: its id, and the help and error it is described by. */
export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

/**
 * A labelled field: label, control, help text and error, tied together by ids. `children` renders the
 * control with the props it must spread (`{(props) => <input {...props} />}`).
 */
export function Field({
  label,
  note,
  help,
  error,
  small,
  className = "",
  children,
}: {
  label: ReactNode;
  /** Quieter words after the label, e.g. "(optional)". */
  note?: string;
  help?: ReactNode;
  error?: string | null;
  /** The small capitals label of the list filters. */
  small?: boolean;
  className?: string;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const described = [help && `${id}-help`, error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className={`flex min-w-0 flex-col gap-1.5 ${className}`}>
      <label
        htmlFor={id}
        className={
          small ? "text-xs font-semibold uppercase tracking-wider text-muted" : "text-sm font-semibold text-ink"
        }
      >
        {label}
        {note && <span className="ms-1 font-normal text-muted">{note}</span>}
      </label>
      {children({ id, "aria-describedby": described || undefined, "aria-invalid": error ? true : undefined })}
      {help && (
        <p id={`${id}-help`} className="text-sm text-muted">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

/** A checkbox with its label beside it, and help under it. */
export function Toggle({
  checked,
  onChange,
  children,
  help,
  className = "font-semibold",
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  help?: ReactNode;
  className?: string;
}) {
  const helpId = useId();
  return (
    <div>
      <label className={`flex min-h-11 items-center gap-3 text-ink ${className}`}>
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={help ? helpId : undefined}
          className="size-5 shrink-0 accent-brand-600"
        />
        {children}
      </label>
      {help && (
        <p id={helpId} className="ms-8 text-sm text-muted">
          {help}
        </p>
      )}
    </div>
  );
}

/** One choice of several, as pressed buttons in a labelled group. */
export function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
  className = "",
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  className?: string;
}) {
  return (
    <div role="group" aria-label={label} className={`flex flex-wrap gap-2 ${className}`}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={value === o.value}
          onClick={() => onChange(o.value)}
          className={`rounded-xl px-4 py-2 text-sm font-semibold ${value === o.value ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-800 hover:bg-brand-50"}`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** A problem the person must know about, read out at once. */
export function ErrorNote({ children, className = "" }: { children: ReactNode; className?: string }) {
  if (!children) return null;
  return (
    <p role="alert" className={`rounded-xl bg-red-50 px-3 py-2 text-sm font-medium text-red-800 ${className}`}>
      {children}
    </p>
  );
}
