/**
 * The content editor (admin only, never on public pages): every text of the site in English, Dutch
 * and Persian side by side, grouped page → section → text with its key shown small; search across
 * keys and languages; the copy checks beside each field as the editor types; review flags; the
 * testimonials and the team as forms of their own; a preview with the unsaved changes; Publish.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { TextAddress } from "#shared/api/common.ts";
import type { ContentAnswer, PublishStatus, TextChange } from "#shared/api/content.ts";
import type { CurrentUser } from "#shared/api/people.ts";
import {
  ApiError,
  DASHBOARD_PATH,
  fetchPublishStatus,
  fetchTexts,
  LOGIN_PATH,
  logout,
  markTextsReviewed,
  saveTexts,
} from "../api";
import { Icon, iconPaths, PageSpinner, Spinner } from "../ui";
import {
  current,
  fieldId,
  inputId,
  LANGS,
  labelOf,
  liveProblems,
  normaliseInput,
  overview,
  search,
  type Drafts,
  type Lang,
} from "./model";
import { Preview } from "./Preview";
import { timeOf, UI_LANGUAGES, UI_TEXTS, type UiLanguage, type UiTexts } from "./ui-texts";

const UI_LANGUAGE_KEY = "content-editor-language";
const MAX_RESULTS = 40;
const DIR: Record<string, "ltr" | "rtl"> = { en: "ltr", nl: "ltr", fa: "rtl" };

type Conflict = TextAddress & { yours: string; theirs: string };
type View = "pages" | "testimonials" | "team";

/** `user`: the signed-in editor or admin (the dashboard has checked the session). */
export default function ContentEditor({ user }: { user: CurrentUser }) {
  const [uiLang, setUiLang] = useState<UiLanguage>(() => {
    const stored = typeof localStorage === "undefined" ? null : localStorage.getItem(UI_LANGUAGE_KEY);
    return (UI_LANGUAGES as readonly string[]).includes(stored ?? "") ? (stored as UiLanguage) : "en";
  });
  const tx = UI_TEXTS[uiLang];
  const [data, setData] = useState<ContentAnswer | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [view, setView] = useState<View>("pages");
  const [pageName, setPageName] = useState("");
  /** Per page, the sections unfolded (the first one until the editor chooses). */
  const [openSections, setOpenSections] = useState<Record<string, string[]>>({});
  const [query, setQuery] = useState("");
  const [onlyReview, setOnlyReview] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [conflicts, setConflicts] = useState<Conflict[]>([]);
  const [status, setStatus] = useState<PublishStatus | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const searchId = useId();
  const hintId = useId();
  const pageSelectId = useId();
  const refusalRef = useRef<HTMLDivElement>(null);

  const load = () =>
    fetchTexts()
      .then((answer) => {
        setData(answer);
        setStatus(answer.publish);
        setPageName((name) => name || answer.pages[0]?.name || "");
      })
      .catch(() => setLoadError(true));
  useEffect(() => {
    void load();
  }, []);

  // While `npm start` rebuilds the site, ask how it went until it is done.
  useEffect(() => {
    if (status?.state !== "building") return;
    const timer = setInterval(() => {
      fetchPublishStatus()
        .then((answer) => setStatus(answer.publish))
        .catch(() => {});
    }, 1500);
    return () => clearInterval(timer);
  }, [status?.state]);

  const changes = useMemo<TextChange[]>(() => {
    if (!data) return [];
    return Object.entries(drafts).flatMap(([id, value]) => {
      const at = id.indexOf(":");
      const lang = id.slice(0, at);
      const key = id.slice(at + 1);
      const was = data.texts[lang]?.[key] ?? "";
      return value === was ? [] : [{ lang, key, value, was }];
    });
  }, [data, drafts]);
  const counts = useMemo(() => (data ? overview(data, drafts) : null), [data, drafts]);

  if (loadError)
    return (
      <div className="container-page py-12">
        <p role="alert" className="text-ink">
          {tx.loadFailed}
        </p>
        <button
          type="button"
          className="btn btn-secondary mt-4"
          onClick={() => {
            setLoadError(false);
            void load();
          }}
        >
          {tx.retry}
        </button>
      </div>
    );
  if (!data || !counts) return <PageSpinner label={tx.loading} />;

  const setUi = (lang: UiLanguage) => {
    setUiLang(lang);
    localStorage.setItem(UI_LANGUAGE_KEY, lang);
  };
  const edit = (a: TextAddress, value: string) => {
    const id = fieldId(a);
    setDrafts((d) => ({ ...d, [id]: normaliseInput(a.lang, value) }));
    setServerErrors((e) => {
      if (!e[id]) return e;
      const rest = { ...e };
      delete rest[id];
      return rest;
    });
  };
  const goTo = (a: TextAddress) => {
    setQuery(a.key);
    setOnlyReview(false);
    requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById(inputId(a))?.focus()));
  };

  const publish = async () => {
    const blocking = changes.filter((c) => liveProblems(data, drafts, c).length);
    setRefusal(null);
    setConflicts([]);
    if (blocking.length) {
      setRefusal(tx.fixFirst);
      setServerErrors(Object.fromEntries(blocking.map((c) => [fieldId(c), []])));
      requestAnimationFrame(() => refusalRef.current?.focus());
      return;
    }
    setBusy(true);
    try {
      const answer = await saveTexts(data.revisions, changes);
      const texts = structuredClone(data.texts);
      for (const s of answer.saved) texts[s.lang][s.key] = s.value;
      setData({ ...data, texts, revisions: answer.revisions, reviews: answer.reviews });
      setDrafts({});
      setServerErrors({});
      setSavedAt(answer.at);
      setStatus(answer.publish);
    } catch (error) {
      const body =
        error instanceof ApiError
          ? (error.data as { message?: string; errors?: Record<string, string[]>; conflicts?: Conflict[] })
          : null;
      if (error instanceof ApiError && error.status === 409 && body?.conflicts) setConflicts(body.conflicts);
      else {
        setServerErrors(body?.errors ?? {});
        setRefusal(`${tx.refused} ${error instanceof Error ? error.message : ""}`);
      }
      requestAnimationFrame(() => refusalRef.current?.focus());
    } finally {
      setBusy(false);
    }
  };

  /** Keep mine: the other text becomes what mine replaces (published with the next Publish). Take theirs: drop mine. */
  const resolve = (conflict: Conflict, keep: boolean) => {
    const texts = structuredClone(data.texts);
    texts[conflict.lang][conflict.key] = conflict.theirs;
    setData({ ...data, texts });
    if (!keep)
      setDrafts((d) => {
        const rest = { ...d };
        delete rest[fieldId(conflict)];
        return rest;
      });
    setConflicts((list) => list.filter((c) => fieldId(c) !== fieldId(conflict)));
  };

  const markReviewed = async (a: TextAddress) => {
    const answer = await markTextsReviewed([a]);
    setData({ ...data, revisions: answer.revisions, reviews: answer.reviews });
  };

  const onLogout = async () => {
    setLeaving(true);
    await logout().catch(() => {});
    window.location.assign(LOGIN_PATH);
  };

  const searching = query.trim() !== "" || onlyReview;
  const reviewKeys = new Set(data.reviews.map((r) => r.key));
  const found = searching
    ? (query.trim() ? search(data, drafts, query) : [...new Set(data.reviews.map((r) => r.key))]).filter(
        (key) => !onlyReview || reviewKeys.has(key),
      )
    : [];
  const page = data.pages.find((p) => p.name === pageName) ?? data.pages[0];
  const block = (key: string, title?: string) => (
    <TextBlock
      key={key}
      textKey={key}
      title={title ?? labelOf(data, key)}
      data={data}
      drafts={drafts}
      serverErrors={serverErrors}
      tx={tx}
      onEdit={edit}
      onMarkReviewed={markReviewed}
    />
  );

  return (
    <div
      dir={DIR[uiLang]}
      lang={uiLang}
      className="container-page py-8 sm:py-12"
      // Room for the bar fixed at the bottom (a style, not a class: the site's shared stylesheet stays as it is).
      style={{ paddingBottom: "10rem" }}
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm text-muted">{tx.signedInAs(user.username, tx.roles[user.role] ?? user.role)}</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">{tx.title}</h1>
        </div>
        <div className="flex flex-wrap gap-3 sm:items-end">
          <label className="text-sm font-semibold text-ink">
            {tx.panelLanguage}
            <select
              value={uiLang}
              onChange={(event) => setUi(event.target.value as UiLanguage)}
              className="mt-1 block rounded-xl border border-line bg-white px-3 py-2 text-ink"
            >
              {UI_LANGUAGES.map((l) => (
                <option key={l} value={l} lang={l}>
                  {UI_TEXTS[l].languages[l]}
                </option>
              ))}
            </select>
          </label>
          {user.role === "admin" && (
            <a href={DASHBOARD_PATH} className="btn btn-secondary">
              <Icon path={iconPaths.arrowLeft} className="size-4" />
              {tx.backToDashboard}
            </a>
          )}
          <button type="button" onClick={onLogout} disabled={leaving} className="btn btn-secondary">
            {leaving ? <Spinner className="size-4" /> : <Icon path={iconPaths.logout} className="size-4" />}
            {tx.logOut}
          </button>
        </div>
      </div>
      <p className="mt-3 max-w-3xl text-ink">{tx.intro}</p>

      <section aria-labelledby="overview-heading" className="card mt-6 p-5">
        <h2 id="overview-heading" className="text-lg font-semibold text-brand-950">
          {tx.overview}
        </h2>
        <ul role="list" className="mt-3 grid gap-3 sm:grid-cols-3">
          {LANGS.map((lang) => {
            const c = counts[lang];
            const parts = [
              c.missing && tx.missing(c.missing),
              c.review && tx.toReview(c.review),
              c.problems && tx.problems(c.problems),
            ].filter(Boolean);
            return (
              <li key={lang} data-lang={lang} className="rounded-xl bg-slate-50 px-4 py-3">
                <span className="font-semibold text-ink">{tx.languages[lang]}</span>:{" "}
                <span className="text-ink">{parts.length ? parts.join(" · ") : tx.allInOrder}</span>
              </li>
            );
          })}
        </ul>
      </section>

      <div className="mt-6 flex flex-col gap-3 lg:flex-row lg:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor={searchId} className="text-sm font-semibold text-ink">
            {tx.search}
          </label>
          <input
            id={searchId}
            type="search"
            value={query}
            aria-describedby={hintId}
            onChange={(event) => setQuery(event.target.value)}
            className="mt-1.5 w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-ink focus:border-brand-500 focus:outline-none"
          />
          <p id={hintId} className="mt-1 text-sm text-muted">
            {tx.searchHint}
          </p>
        </div>
        <label className="flex items-center gap-2 pb-6 text-sm font-semibold text-ink">
          <input type="checkbox" checked={onlyReview} onChange={(event) => setOnlyReview(event.target.checked)} />
          {tx.onlyReview}
        </label>
      </div>

      {searching ? (
        <section aria-labelledby="results-heading" className="mt-4">
          <h2 id="results-heading" className="text-lg font-semibold text-brand-950">
            <span role="status">{found.length ? tx.results(found.length) : tx.nothingFound}</span>
          </h2>
          {found.slice(0, MAX_RESULTS).map((key) => block(key))}
          {found.length > MAX_RESULTS && (
            <p className="mt-4 text-muted">{tx.moreResults(found.length - MAX_RESULTS)}</p>
          )}
        </section>
      ) : (
        <>
          <div role="group" aria-label={tx.views.pages} className="mt-6 flex flex-wrap gap-2">
            {(["pages", "testimonials", "team"] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                onClick={() => setView(v)}
                className={`rounded-xl px-4 py-2 text-sm font-semibold ${view === v ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-800 hover:bg-brand-50"}`}
              >
                {tx.views[v]}
              </button>
            ))}
          </div>
          {view === "pages" && page && (
            <section aria-labelledby="page-heading" className="mt-5">
              <label htmlFor={pageSelectId} className="text-sm font-semibold text-ink">
                {tx.page}
              </label>
              <select
                id={pageSelectId}
                value={page.name}
                onChange={(event) => setPageName(event.target.value)}
                className="mt-1.5 block rounded-xl border border-line bg-white px-3.5 py-2.5 text-ink"
              >
                {data.pages.map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.name}
                  </option>
                ))}
              </select>
              <h2 id="page-heading" className="mt-5 text-2xl font-bold text-brand-950">
                {page.name}
              </h2>
              {page.sections.map((section, index) => {
                const open = openSections[page.name]?.includes(section.name) ?? index === 0;
                return (
                  <details
                    key={section.name}
                    open={open}
                    onToggle={(event) => {
                      const isOpen = event.currentTarget.open;
                      if (isOpen === open) return;
                      setOpenSections((all) => {
                        const now = all[page.name] ?? [page.sections[0].name];
                        return {
                          ...all,
                          [page.name]: isOpen ? [...now, section.name] : now.filter((n) => n !== section.name),
                        };
                      });
                    }}
                    className="mt-5 rounded-2xl bg-slate-50 p-3"
                  >
                    <summary className="text-lg font-semibold text-brand-900">
                      {section.name} <span className="text-sm font-normal text-muted">({section.keys.length})</span>
                    </summary>
                    {/* Only an open section's fields are on the page: a page of the site has up to 120 texts. */}
                    {open && section.keys.map((key) => block(key))}
                  </details>
                );
              })}
            </section>
          )}
          {view !== "pages" && (
            <section aria-labelledby="collection-heading" className="mt-5">
              <h2 id="collection-heading" className="text-2xl font-bold text-brand-950">
                {tx.views[view]}
              </h2>
              {data.collections[view].map((item) => (
                <section key={item.id} aria-labelledby={`item-${item.id}`} className="card mt-5 p-5">
                  <h3 id={`item-${item.id}`} className="text-lg font-semibold text-brand-900">
                    {item.label}
                  </h3>
                  {Object.entries(item.fields).map(([field, key]) => block(key, field))}
                </section>
              ))}
            </section>
          )}
        </>
      )}

      {previewing && (
        <Preview data={data} drafts={drafts} changes={changes} tx={tx} onClose={() => setPreviewing(false)} />
      )}

      <div className="fixed inset-x-0 bottom-0 z-40 border-t border-line bg-white/95 shadow-lift backdrop-blur">
        <div className="container-page flex flex-col gap-2 py-3">
          <div ref={refusalRef} tabIndex={-1} className="outline-none">
            {refusal && (
              <div role="alert" className="text-sm text-red-800">
                <p className="font-semibold">{refusal}</p>
                <ul className="mt-1 list-disc ps-5">
                  {Object.keys(serverErrors).map((id) => {
                    const at = id.indexOf(":");
                    const a = { lang: id.slice(0, at), key: id.slice(at + 1) };
                    const messages = serverErrors[id].length
                      ? serverErrors[id]
                      : liveProblems(data, drafts, a).map((p) => p.message);
                    return (
                      <li key={id}>
                        {messages.join(" ")}{" "}
                        <a
                          href={`#${inputId(a)}`}
                          onClick={(event) => {
                            event.preventDefault();
                            goTo(a);
                          }}
                          className="font-semibold underline"
                        >
                          {tx.goToText} ({tx.languages[a.lang]}: {a.key})
                        </a>
                      </li>
                    );
                  })}
                </ul>
              </div>
            )}
            {conflicts.length > 0 && (
              <div role="alert" className="text-sm text-ink">
                <p className="font-semibold text-red-800">{tx.conflictTitle}</p>
                <ul className="mt-1 flex flex-col gap-2">
                  {conflicts.map((c) => (
                    <li key={fieldId(c)} className="rounded-lg bg-amber-50 p-2">
                      <code className="text-xs">{c.key}</code> ({tx.languages[c.lang]})<br />
                      {tx.theirs}:{" "}
                      <q lang={c.lang} dir={DIR[c.lang]}>
                        {c.theirs}
                      </q>
                      <br />
                      {tx.yours}:{" "}
                      <q lang={c.lang} dir={DIR[c.lang]}>
                        {c.yours}
                      </q>
                      <span className="ms-2 inline-flex gap-2">
                        <button type="button" className="btn btn-secondary py-1" onClick={() => resolve(c, true)}>
                          {tx.keepMine}
                        </button>
                        <button type="button" className="btn btn-secondary py-1" onClick={() => resolve(c, false)}>
                          {tx.takeTheirs}
                        </button>
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <p className="me-auto text-sm font-semibold text-ink">
              {changes.length ? tx.unsaved(changes.length) : tx.noChanges}
            </p>
            <PublishState status={status} savedAt={savedAt} tx={tx} uiLang={uiLang} onGoTo={goTo} />
            {changes.length > 0 && (
              <button type="button" className="btn btn-secondary" onClick={() => setDrafts({})}>
                {tx.discard}
              </button>
            )}
            <button type="button" className="btn btn-secondary" onClick={() => setPreviewing(true)}>
              {tx.preview}
            </button>
            <button
              type="button"
              className="btn btn-primary disabled:cursor-not-allowed disabled:opacity-60"
              disabled={busy || !changes.length}
              onClick={publish}
            >
              {busy && <Spinner className="size-4" />}
              {busy ? tx.publishing : tx.publish}
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}

function PublishState({
  status,
  savedAt,
  tx,
  uiLang,
  onGoTo,
}: {
  status: PublishStatus | null;
  savedAt: string | null;
  tx: UiTexts;
  uiLang: UiLanguage;
  onGoTo: (a: TextAddress) => void;
}) {
  let text: React.ReactNode = savedAt ? tx.saved(timeOf(savedAt, uiLang)) : null;
  if (status?.state === "building") text = tx.building;
  else if (status?.state === "published" && status.at) text = tx.published(timeOf(status.at, uiLang));
  else if (status?.state === "committed" && status.at) text = tx.committed(timeOf(status.at, uiLang));
  else if (status?.state === "failed")
    text = (
      <>
        {tx.buildFailed} {status.message}{" "}
        {status.text && (
          <button type="button" className="font-semibold underline" onClick={() => onGoTo(status.text!)}>
            {tx.goToText}
          </button>
        )}
      </>
    );
  return (
    <p
      role="status"
      data-state={status?.state ?? "idle"}
      data-commit={status?.commit}
      className={`text-sm ${status?.state === "failed" ? "text-red-800" : "text-ink"}`}
    >
      {text}
    </p>
  );
}

interface TextBlockProps {
  textKey: string;
  title?: string;
  data: ContentAnswer;
  drafts: Drafts;
  serverErrors: Record<string, string[]>;
  tx: UiTexts;
  onEdit: (a: TextAddress, value: string) => void;
  onMarkReviewed: (a: TextAddress) => Promise<void>;
}

/** One text: its key small, then English, Dutch and Persian side by side with their checks and review flags. */
function TextBlock({ textKey, title, data, drafts, serverErrors, tx, onEdit, onMarkReviewed }: TextBlockProps) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="mt-3 rounded-2xl border border-line bg-white p-4"
      data-key={textKey}
    >
      <h4 id={headingId} className="text-sm text-ink">
        {title && <span className="me-2 font-semibold">{title}</span>}
        <code className="text-xs text-muted" dir="ltr">
          {textKey}
        </code>
      </h4>
      <div className="mt-2 grid gap-4 md:grid-cols-3">
        {LANGS.map((lang) => (
          <Field
            key={lang}
            at={{ lang, key: textKey }}
            data={data}
            drafts={drafts}
            serverErrors={serverErrors}
            tx={tx}
            onEdit={onEdit}
            onMarkReviewed={onMarkReviewed}
          />
        ))}
      </div>
    </section>
  );
}

function Field({
  at,
  data,
  drafts,
  serverErrors,
  tx,
  onEdit,
  onMarkReviewed,
}: Omit<TextBlockProps, "textKey" | "title"> & { at: TextAddress & { lang: Lang } }) {
  const [marking, setMarking] = useState(false);
  const value = current(data, drafts, at);
  const problems = [...liveProblems(data, drafts, at).map((p) => p.message), ...(serverErrors[fieldId(at)] ?? [])];
  const shown = [...new Set(problems)];
  const flag = data.reviews.find((r) => r.lang === at.lang && r.key === at.key);
  const id = inputId(at);
  const changed = drafts[fieldId(at)] !== undefined && drafts[fieldId(at)] !== (data.texts[at.lang]?.[at.key] ?? "");
  return (
    <div>
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {tx.languages[at.lang]}
      </label>
      {changed && (
        <span className="ms-1 text-sm font-semibold text-amber-800" aria-hidden="true">
          •
        </span>
      )}
      <textarea
        id={id}
        lang={at.lang}
        dir={DIR[at.lang]}
        value={value}
        rows={Math.min(8, Math.ceil(value.length / 45) + 1)}
        aria-invalid={shown.length > 0}
        aria-describedby={shown.length || flag ? `${id}-notes` : undefined}
        onChange={(event) => onEdit(at, event.target.value)}
        className={`mt-1 w-full rounded-xl border bg-white px-3 py-2 text-ink focus:outline-none ${shown.length ? "border-red-700" : "border-line focus:border-brand-500"}`}
      />
      <div id={`${id}-notes`} aria-live="polite">
        {shown.map((message) => (
          <p key={message} className="mt-1 text-sm text-red-800">
            {message}
          </p>
        ))}
        {flag && (
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-amber-900">
            {flag.reason === "changed" ? tx.needsReview : tx.neverReviewed}
            <button
              type="button"
              disabled={marking}
              onClick={() => {
                setMarking(true);
                onMarkReviewed(at).finally(() => setMarking(false));
              }}
              className="rounded-lg border border-amber-400 px-2 py-0.5 font-semibold text-amber-900"
            >
              {tx.markReviewed}
            </button>
          </p>
        )}
      </div>
    </div>
  );
}
