/**
 * /admin/audit: the audit record for admins (an editor is told the page is not theirs). Filters by
 * action, person and days, kept in the address; newest first, a page at a time; the same filters
 * download as CSV (the download itself becomes an entry).
 */
import { useEffect, useState, type SubmitEvent } from "react";
import type { AuditEntry } from "#shared/api/security.ts";
import { AUDIT_ACTIONS, type AuditAction } from "#shared/schemas/security.ts";
import { AdminOnly } from "../AdminOnly";
import { apiErrorText } from "../api-errors";
import { useCopy } from "../copy";
import { BusyButton, DateField, EmptyState, ErrorNote, Field, Icon, iconPaths, inputClass, Loading } from "../ui";
import { auditCsvUrl, auditPage } from "../security/security-api";
import { useRegionName } from "../security/SessionList";
import { actionName, detailText, placeText, targetText, whoText } from "./describe";
import { filtersQuery, readFilters, type AuditFilters } from "./filters";

/** The most entries one CSV holds (functions/admin-audit.ts). */
const CSV_MAX = 10_000;

export default function AuditPage() {
  return <AdminOnly>{() => <AuditRecord />}</AdminOnly>;
}

function AuditRecord() {
  const texts = useCopy();
  const { copy, f, p, n } = texts;
  const c = copy.audit;
  const [applied, setApplied] = useState<AuditFilters>(() => readFilters(window.location.search));
  const [draft, setDraft] = useState<AuditFilters>(applied);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [draftError, setDraftError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    let live = true;
    window.history.replaceState(null, "", `${window.location.pathname}${filtersQuery(applied)}`);
    auditPage(applied).then(
      (answer) => {
        if (!live) return;
        setEntries(answer.entries);
        setNext(answer.next);
      },
      (failure: unknown) => live && setError(apiErrorText(failure, copy.apiErrors)),
    );
    return () => {
      live = false;
    };
    // The texts change with the panel's language; the record is reloaded only for new filters.
  }, [applied]); // eslint-disable-line react-hooks/exhaustive-deps

  const older = async () => {
    if (!next) return;
    setLoadingMore(true);
    try {
      const answer = await auditPage({ ...applied, before: next });
      setEntries((was) => [...(was ?? []), ...answer.entries]);
      setNext(answer.next);
    } catch (failure) {
      setError(apiErrorText(failure, copy.apiErrors));
    } finally {
      setLoadingMore(false);
    }
  };

  /** Shows the record with these filters, from its newest entry. */
  const apply = (filters: AuditFilters) => {
    setEntries(null);
    setError(null);
    setApplied(filters);
  };
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) return setDraftError(c.badDates);
    setDraftError(null);
    apply({ ...draft, actor: draft.actor?.trim() || undefined });
  };
  const clear = () => {
    setDraft({});
    setDraftError(null);
    apply({});
  };
  const filtered = Object.values(applied).some(Boolean);
  const set = (key: keyof AuditFilters) => (value: string) =>
    setDraft((was) => ({ ...was, [key]: value || undefined }));

  return (
    <div className="container-page grid gap-6 py-8 sm:py-12">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">{c.title}</h1>
          <p className="mt-2 max-w-2xl text-muted">{c.intro}</p>
        </div>
      </div>

      <section aria-labelledby="audit-filters" className="card p-5 sm:p-6">
        <h2 id="audit-filters" className="text-lg font-semibold text-brand-950">
          {c.filters}
        </h2>
        <form onSubmit={onSubmit} className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Field label={c.action}>
            {(props) => (
              <select
                {...props}
                value={draft.action ?? ""}
                onChange={(event) => set("action")(event.target.value as AuditAction)}
                className={inputClass}
              >
                <option value="">{c.anyAction}</option>
                {AUDIT_ACTIONS.map((action) => (
                  <option key={action} value={action}>
                    {actionName(action, c)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={c.person} help={c.personHelp}>
            {(props) => (
              <input
                {...props}
                value={draft.actor ?? ""}
                maxLength={100}
                autoComplete="off"
                onChange={(event) => set("actor")(event.target.value)}
                className={inputClass}
              />
            )}
          </Field>
          <Field label={c.from} help={c.datesHelp}>
            {(props) => <DateField {...props} value={draft.from ?? ""} onChange={set("from")} className={inputClass} />}
          </Field>
          <Field label={c.to} error={draftError}>
            {(props) => <DateField {...props} value={draft.to ?? ""} onChange={set("to")} className={inputClass} />}
          </Field>
          <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-4">
            <button type="submit" className="btn btn-primary">
              <Icon path={iconPaths.search} />
              {c.apply}
            </button>
            {filtered && (
              <button type="button" onClick={clear} className="btn btn-secondary">
                {c.clear}
              </button>
            )}
            <a
              href={auditCsvUrl(applied)}
              download
              className="btn btn-secondary sm:ms-auto"
              aria-describedby="audit-csv-help"
            >
              <Icon path={iconPaths.download} />
              {c.download}
            </a>
            <p id="audit-csv-help" className="w-full text-sm text-muted sm:text-end">
              {f(c.downloadHelp, { max: n(CSV_MAX) })}
            </p>
          </div>
        </form>
      </section>

      {error ? (
        <ErrorNote>{`${c.loadError} ${error}`}</ErrorNote>
      ) : !entries ? (
        <Loading>{copy.security.loading}</Loading>
      ) : entries.length === 0 ? (
        <EmptyState icon={iconPaths.search} title={c.emptyTitle}>
          {c.empty}
        </EmptyState>
      ) : (
        <section aria-label={c.title} className="grid gap-4">
          <p role="status" className="text-sm text-muted">
            {p(c.shown, entries.length)}
          </p>
          <Entries entries={entries} />
          {next && (
            <BusyButton
              busy={loadingMore}
              label={c.older}
              busyLabel={c.loadingOlder}
              icon={iconPaths.chevronDown}
              onClick={() => void older()}
              className="justify-self-center"
            />
          )}
        </section>
      )}
    </div>
  );
}

/** The entries: a table on wide screens, a list of cards on narrow ones (only one is shown). */
function Entries({ entries }: { entries: AuditEntry[] }) {
  const texts = useCopy();
  const { copy, dateTime } = texts;
  const c = copy.audit;
  const region = useRegionName();
  const rows = entries.map((entry) => {
    const target = targetText(entry, texts);
    return {
      entry,
      when: dateTime(entry.at),
      who: whoText(entry, texts),
      place: placeText(entry.place, region) || "—",
      action: actionName(entry.action, c),
      target,
      // An account's name or a person's address, as recorded: data, the same in every language.
      targetIsData: target !== "" && (target === entry.target || target === entry.subject),
      detail: detailText(entry, texts),
    };
  });
  return (
    <>
      <div className="card hidden overflow-hidden lg:block">
        <table className="w-full text-start text-sm" data-testid="audit-table">
          <thead className="bg-slate-50 text-xs font-semibold tracking-wider text-muted uppercase">
            <tr>
              {[c.when, c.who, c.place, c.action, c.what].map((label) => (
                <th key={label} scope="col" className="px-4 py-3 text-start">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row.entry.id} data-testid="audit-entry" className="align-top">
                <td className="px-4 py-3 whitespace-nowrap text-ink">{row.when}</td>
                <td className="px-4 py-3 break-words text-ink" translate="no">
                  {row.who}
                </td>
                <td className="px-4 py-3 break-words text-muted" translate="no">
                  <bdi>{row.place}</bdi>
                </td>
                <td className="px-4 py-3 font-semibold text-brand-950">{row.action}</td>
                <td className="px-4 py-3 break-words text-ink">
                  <bdi translate={row.targetIsData ? "no" : undefined}>{row.target}</bdi>
                  {row.detail && <span className="block text-muted">{row.detail}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ol role="list" className="grid gap-3 lg:hidden">
        {rows.map((row) => (
          <li key={row.entry.id} data-testid="audit-card" className="card p-4">
            <p className="font-semibold text-brand-950">{row.action}</p>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-muted">{c.when}</dt>
              <dd className="text-ink">{row.when}</dd>
              <dt className="text-muted">{c.who}</dt>
              <dd className="min-w-0 break-words text-ink" translate="no">
                {row.who}
              </dd>
              <dt className="text-muted">{c.place}</dt>
              <dd className="min-w-0 break-words text-ink" translate="no">
                <bdi>{row.place}</bdi>
              </dd>
              {(row.target || row.detail) && (
                <>
                  <dt className="text-muted">{c.what}</dt>
                  <dd className="min-w-0 break-words text-ink">
                    <bdi translate={row.targetIsData ? "no" : undefined}>{row.target}</bdi>
                    {row.detail && <span className="block text-muted">{row.detail}</span>}
                  </dd>
                </>
              )}
            </dl>
          </li>
        ))}
      </ol>
    </>
  );
}
