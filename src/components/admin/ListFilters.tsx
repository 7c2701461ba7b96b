/**
 * Search, filters, sort and CSV export above an admin list. Menus and dates apply at once; the search
 * text applies when submitted (Enter or "Search"), so a half-typed word never starts a request.
 */
import { useId, useState, type ReactNode, type SubmitEvent } from "react";
import { isFiltered, SEARCH_MAX_LENGTH, type EnquiryFilters, type MeetingFilters } from "#shared/admin-lists.ts";
import { englishLanguageName, LANGUAGES } from "#shared/languages.ts";
import { SERVICE_IDS, type ServiceNames } from "#shared/services.ts";
import { Icon } from "./ui";

const SEARCH_ICON = "m20 20-4.5-4.5M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13z";
const DOWNLOAD_ICON = "M12 4v11m-5-5 5 5 5-5M5 20h14";

type Option = { value: string; label: string };

const controlClass =
  "min-h-11 w-full min-w-0 rounded-lg border border-line bg-white px-2.5 text-sm text-ink focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30";

/** A labelled field of the bar; `control` renders the input with the id its label points at. */
function Field({ label, control }: { label: string; control: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-wider text-muted">
        {label}
      </label>
      {control(id)}
    </div>
  );
}

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string | undefined;
  options: readonly Option[];
  onChange: (value: string | undefined) => void;
}) {
  return (
    <Field
      label={label}
      control={(id) => (
        <select
          id={id}
          value={value ?? ""}
          onChange={(e) => onChange(e.target.value || undefined)}
          className={controlClass}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

function DateField({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string | undefined;
  min?: string;
  max?: string;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <Field
      label={label}
      control={(id) => (
        <input
          id={id}
          type="date"
          value={value ?? ""}
          min={min}
          max={max}
          onChange={(e) => onChange(e.target.value || undefined)}
          className={controlClass}
        />
      )}
    />
  );
}

const anyOption = (label: string): Option => ({ value: "", label });
const languageOptions: Option[] = [
  anyOption("Any language"),
  ...LANGUAGES.map((code) => ({ value: code, label: englishLanguageName(code) })),
];

/** A menu of the bar: the filter it sets and its choices ("" = any). */
interface Menu<F> {
  key: keyof F & string;
  label: string;
  options: readonly Option[];
}

interface FiltersProps<F extends EnquiryFilters | MeetingFilters> {
  /** Names the search landmark, e.g. "Find submissions". */
  label: string;
  searchHint: string;
  filters: F;
  onChange: (filters: F) => void;
  /** The address of the CSV of the current filter. */
  exportHref: string;
  /** The menus before the date range, in order. */
  menus: Menu<F>[];
  /** What the date range is of, e.g. "Received" gives "Received from" and "Received to". */
  datesLabel: string;
  sortOptions: Option[];
}

function ListFilters<F extends EnquiryFilters | MeetingFilters>({
  label,
  searchHint,
  filters,
  onChange,
  exportHref,
  menus,
  datesLabel,
  sortOptions,
}: FiltersProps<F>) {
  const searchId = useId();
  const hintId = useId();
  const panelId = useId();
  // On a phone the menus fold away behind one button; from the sm breakpoint they always show.
  const [expanded, setExpanded] = useState(false);
  const narrowing = Object.entries(filters).filter(([key, value]) => key !== "q" && value).length;
  const [text, setText] = useState(filters.q ?? "");
  // Back, Forward or "Clear" change the filters from outside: the field follows (React's
  // "adjust state while rendering" pattern, instead of an effect that would render twice).
  const [shownQ, setShownQ] = useState(filters.q);
  if (filters.q !== shownQ) {
    setShownQ(filters.q);
    setText(filters.q ?? "");
  }

  const set = <K extends keyof F>(key: K, value: F[K] | undefined) => {
    const next = { ...filters };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    set("q" as keyof F, (text.trim() || undefined) as F[keyof F] | undefined);
  };

  return (
    <section aria-label={label} className="card mb-5 p-4 sm:p-5">
      <form role="search" onSubmit={submit} className="flex gap-2">
        <label htmlFor={searchId} className="sr-only">
          Search
        </label>
        <input
          id={searchId}
          type="search"
          value={text}
          maxLength={SEARCH_MAX_LENGTH}
          onChange={(e) => setText(e.target.value)}
          placeholder={searchHint}
          aria-describedby={hintId}
          dir="auto"
          className="min-h-11 w-full min-w-0 flex-1 rounded-lg border border-line bg-white px-3 text-ink focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        />
        <button type="submit" className="btn btn-primary min-h-11 shrink-0 px-4">
          <Icon path={SEARCH_ICON} />
          {/* On a phone the icon alone, so the field keeps its width; the name stays "Search". */}
          <span className="max-sm:sr-only">Search</span>
        </button>
      </form>
      <p id={hintId} className="mt-1.5 text-xs text-muted">
        Accents, Arabic or Persian letter forms and zero-width joiners do not matter.
      </p>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={panelId}
        onClick={() => setExpanded((open) => !open)}
        className="mt-3 inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-brand-700 sm:hidden"
      >
        <Icon path={expanded ? "m6 15 6-6 6 6" : "m6 9 6 6 6-6"} />
        {expanded ? "Hide filters and sort" : `Filters and sort${narrowing ? ` (${narrowing} on)` : ""}`}
      </button>
      <div
        id={panelId}
        className={`${expanded ? "grid" : "hidden"} mt-3 grid-cols-2 gap-3 sm:mt-4 sm:grid sm:grid-cols-3 lg:grid-cols-6`}
      >
        {menus.map((menu) => (
          <Select
            key={menu.key}
            label={menu.label}
            value={filters[menu.key] as string | undefined}
            onChange={(v) => set(menu.key, v as F[typeof menu.key] | undefined)}
            options={menu.options}
          />
        ))}
        <DateField
          label={`${datesLabel} from`}
          value={filters.from}
          max={filters.to}
          onChange={(v) => set("from", v as F["from"])}
        />
        <DateField
          label={`${datesLabel} to`}
          value={filters.to}
          min={filters.from}
          onChange={(v) => set("to", v as F["to"])}
        />
        <Select label="Sort" value={filters.sort} onChange={(v) => set("sort", v as F["sort"])} options={sortOptions} />
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-line pt-4">
        {isFiltered(filters) ? (
          <button type="button" onClick={() => onChange({} as F)} className="btn btn-secondary min-h-11 px-4">
            Clear filters
          </button>
        ) : (
          <span className="text-sm text-muted">Showing everything, newest first unless sorted.</span>
        )}
        <a href={exportHref} download className="btn btn-secondary min-h-11 px-4">
          <Icon path={DOWNLOAD_ICON} />
          Export CSV
        </a>
      </div>
    </section>
  );
}

const languageMenu = { key: "language", label: "Language", options: languageOptions } as const;
/** The status menu: any, pending, or the list's own second state (processed, confirmed). */
const statusMenu = (done: Option) =>
  ({
    key: "status",
    label: "Status",
    options: [anyOption("Any status"), { value: "pending", label: "Pending" }, done],
  }) as const;

export function EnquiryFiltersBar({
  filters,
  onChange,
  exportHref,
  serviceNames,
}: {
  filters: EnquiryFilters;
  onChange: (filters: EnquiryFilters) => void;
  exportHref: string;
  serviceNames: ServiceNames;
}) {
  return (
    <ListFilters
      label="Find submissions"
      searchHint="Name, email, company or message"
      filters={filters}
      onChange={onChange}
      exportHref={exportHref}
      menus={[
        statusMenu({ value: "processed", label: "Processed" }),
        {
          key: "service",
          label: "Service",
          options: [anyOption("Any service"), ...SERVICE_IDS.map((id) => ({ value: id, label: serviceNames[id] }))],
        },
        languageMenu,
      ]}
      datesLabel="Received"
      sortOptions={[
        { value: "", label: "Newest first" },
        { value: "oldest", label: "Oldest first" },
      ]}
    />
  );
}

export function MeetingFiltersBar({
  filters,
  onChange,
  exportHref,
}: {
  filters: MeetingFilters;
  onChange: (filters: MeetingFilters) => void;
  exportHref: string;
}) {
  return (
    <ListFilters
      label="Find meetings"
      searchHint="Name, email or phone"
      filters={filters}
      onChange={onChange}
      exportHref={exportHref}
      menus={[
        {
          key: "when",
          label: "When",
          options: [anyOption("Any time"), { value: "upcoming", label: "Upcoming" }, { value: "past", label: "Past" }],
        },
        statusMenu({ value: "confirmed", label: "Confirmed" }),
        languageMenu,
      ]}
      datesLabel="Meeting"
      sortOptions={[
        { value: "", label: "Newest request first" },
        { value: "oldest", label: "Oldest request first" },
        { value: "soonest", label: "Meeting date, soonest first" },
        { value: "latest", label: "Meeting date, latest first" },
      ]}
    />
  );
}
