/**
 * Search, filters, sort and CSV export above an admin list. Menus and dates apply at once; the search
 * text applies when submitted (Enter or "Search"), so a half-typed word never starts a request.
 */
import { useId, useState, type SubmitEvent } from "react";
import {
  isFiltered,
  LEAD_ATTENTION,
  SEARCH_MAX_LENGTH,
  type EnquiryFilters,
  type MeetingFilters,
} from "#shared/admin-lists.ts";
import { LEAD_STAGES } from "#shared/leads.ts";
import { LANGUAGES } from "#shared/languages.ts";
import { SERVICE_IDS, type ServiceNames } from "#shared/services.ts";
import { useCopy } from "./copy";
import { DateField, Field, Icon, iconPaths } from "./ui";

type Option = { value: string; label: string };

const controlClass =
  "min-h-11 w-full min-w-0 rounded-lg border border-line bg-white px-2.5 text-sm text-ink focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30";

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

export function ListFilters<F extends EnquiryFilters | MeetingFilters>(props: FiltersProps<F>) {
  const { label, searchHint, filters, onChange, exportHref, menus, datesLabel, sortOptions } = props;
  const { copy, f } = useCopy();
  const c = copy.filters;
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
  const select = (name: string, key: keyof F, options: readonly Option[]) => (
    <Field key={String(key)} label={name} small>
      {(p) => (
        <select
          {...p}
          value={String((filters[key] as string | number | undefined) ?? "")}
          onChange={(e) => set(key, (e.target.value || undefined) as F[keyof F] | undefined)}
          className={controlClass}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  const date = (which: "from" | "to") => (
    <Field label={f(c[which], { what: datesLabel })} small>
      {(p) => (
        <DateField
          {...p}
          value={filters[which] ?? ""}
          {...(which === "from" ? { max: filters.to } : { min: filters.from })}
          onChange={(iso) => set(which, (iso || undefined) as F[typeof which])}
          className={controlClass}
        />
      )}
    </Field>
  );

  return (
    <section aria-label={label} className="card mb-5 p-4 sm:p-5">
      <form role="search" onSubmit={submit} className="flex gap-2">
        <label htmlFor={searchId} className="sr-only">
          {c.search}
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
          <Icon path={iconPaths.search} />
          {/* On a phone the icon alone, so the field keeps its width; the name stays "Search". */}
          <span className="max-sm:sr-only">{c.search}</span>
        </button>
      </form>
      <p id={hintId} className="mt-1.5 text-xs text-muted">
        {c.searchNote}
      </p>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={panelId}
        onClick={() => setExpanded((open) => !open)}
        className="mt-3 inline-flex min-h-11 items-center gap-1.5 text-sm font-semibold text-brand-700 sm:hidden"
      >
        <Icon path={expanded ? iconPaths.chevronUp : iconPaths.chevronDown} />
        {expanded ? c.hide : narrowing ? f(c.showOn, { count: narrowing }) : c.show}
      </button>
      <div
        id={panelId}
        className={`${expanded ? "grid" : "hidden"} mt-3 grid-cols-2 gap-3 sm:mt-4 sm:grid sm:grid-cols-3 lg:grid-cols-6`}
      >
        {menus.map((menu) => select(menu.label, menu.key, menu.options))}
        {date("from")}
        {date("to")}
        {select(c.sort, "sort" as keyof F, sortOptions)}
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-line pt-4">
        {isFiltered(filters) ? (
          <button type="button" onClick={() => onChange({} as F)} className="btn btn-secondary min-h-11 px-4">
            {c.clear}
          </button>
        ) : (
          <span className="text-sm text-muted">{c.everything}</span>
        )}
        <a href={exportHref} download className="btn btn-secondary min-h-11 px-4">
          <Icon path={iconPaths.download} />
          {c.exportCsv}
        </a>
      </div>
    </section>
  );
}

/** The menus both lists share: language, and the meetings' status (any, pending or confirmed). */
export function useSharedMenus() {
  const { copy, languageName } = useCopy();
  const c = copy.filters;
  const any = (label: string): Option => ({ value: "", label });
  return {
    c,
    any,
    status: {
      key: "status",
      label: c.status,
      options: [any(c.anyStatus), { value: "pending", label: c.pending }, { value: "confirmed", label: c.confirmed }],
    } as const,
    language: {
      key: "language",
      label: c.language,
      options: [any(c.anyLanguage), ...LANGUAGES.map((code) => ({ value: code, label: languageName(code) }))],
    } as const,
  };
}

export type BarProps<F> = { filters: F; onChange: (filters: F) => void; exportHref: string };

export function EnquiryFiltersBar({
  serviceNames,
  owners = [],
  ...bar
}: BarProps<EnquiryFilters> & { serviceNames: ServiceNames; owners?: readonly { id: number; username: string }[] }) {
  const { c, any, language } = useSharedMenus();
  const l = useCopy().copy.leads;
  const services = SERVICE_IDS.map((id) => ({ value: id, label: serviceNames[id] }));
  const stages = LEAD_STAGES.map((stage) => ({ value: stage, label: l.stages[stage] }));
  const attention = LEAD_ATTENTION.map((value) => ({ value, label: l[value] }));
  const ownerOptions = [
    { value: "me", label: l.mine },
    { value: "none", label: l.nobody },
    ...owners.map((o) => ({ value: String(o.id), label: o.username })),
  ];
  return (
    <ListFilters
      {...bar}
      label={c.findSubmissions}
      searchHint={c.submissionsHint}
      menus={[
        { key: "stage", label: l.stage, options: [any(l.anyStage), ...stages] },
        { key: "attention", label: l.attention, options: [any(l.anyAttention), ...attention] },
        { key: "owner", label: l.owner, options: [any(l.anyOwner), ...ownerOptions] },
        { key: "service", label: c.service, options: [any(c.anyService), ...services] },
        language,
      ]}
      datesLabel={c.received}
      sortOptions={[
        any(c.newest),
        { value: "oldest", label: c.oldest },
        { value: "follow-up", label: l.followUpFirst },
      ]}
    />
  );
}
