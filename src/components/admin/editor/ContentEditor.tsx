/**
 * The content editor (never on public pages): every text of the site in English, Dutch and Persian
 * side by side, grouped page → section → text with its key shown small; search across keys and
 * languages; the copy checks beside each field as the editor types; review flags; the testimonials
 * and the team as forms of their own; a preview with the unsaved changes; Publish. Its own words are
 * the admin panel's (admin.editor), in the panel's language.
 */
import { useEffect, useId, useState } from "react";
import type { PanelUser } from "#shared/api/panel-language.ts";
import { useCopy } from "../copy";
import { PageSpinner, Toggle } from "../ui";
import { LANGS, labelOf } from "./model";
import { DraftNotices } from "./DraftNotices";
import { History } from "./History";
import { PageView } from "./PageView";
import { Preview } from "./Preview";
import { PublishBar } from "./PublishBar";
import { fieldName } from "./sections";
import { TextBlock } from "./TextBlock";
import { useContentEditor } from "./useContentEditor";

const MAX_RESULTS = 40;

/** `user`: the signed-in editor or admin (the page has checked the session). */
export default function ContentEditor({ user }: { user: PanelUser }) {
  const { copy, f, p, languageName } = useCopy();
  const tx = copy.editor;
  const editor = useContentEditor(user.username);
  const [previewing, setPreviewing] = useState(false);
  const searchId = useId();
  const hintId = useId();
  const { data, counts, drafts, found } = editor;
  const unsaved = editor.changes.length;
  const { leave } = editor;

  // Logging out (the navigation's button) with unsaved changes asks first; the drafts stay in this
  // browser for the next sign-in.
  useEffect(() => {
    const onLogout = (event: Event) => {
      if (!unsaved) return;
      if (window.confirm(p(tx.drafts.signOut, unsaved))) leave();
      else event.preventDefault();
    };
    window.addEventListener("admin:logout", onLogout);
    return () => window.removeEventListener("admin:logout", onLogout);
  }, [unsaved, leave, p, tx]);

  if (editor.loadError)
    return (
      <div className="container-page py-12">
        <p role="alert" className="text-ink">
          {tx.loadFailed}
        </p>
        <button type="button" className="btn btn-secondary mt-4" onClick={editor.retry}>
          {tx.retry}
        </button>
      </div>
    );
  if (!data || !counts) return <PageSpinner label={tx.loading} />;

  const block = (key: string, title?: string) => (
    <TextBlock
      key={key}
      textKey={key}
      title={title ?? labelOf(data, key) ?? fieldName(key, copy)}
      data={data}
      drafts={drafts}
      serverErrors={editor.serverErrors}
      onEdit={editor.edit}
      onMarkReviewed={editor.markReviewed}
    />
  );

  return (
    // Room for the bar fixed at the bottom (a style, not a class: the site's shared stylesheet stays as it is).
    <div className="container-page py-8 sm:py-12" style={{ paddingBottom: "10rem" }}>
      <p className="text-sm text-muted">
        {f(copy.common.signedInAsRole, { name: user.username, role: copy.common.roles[user.role] ?? user.role })}
      </p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-brand-950 sm:text-4xl">{tx.title}</h1>
      <p className="mt-3 max-w-3xl text-ink">{tx.intro}</p>

      <section aria-labelledby="overview-heading" className="card mt-6 p-5">
        <h2 id="overview-heading" className="text-lg font-semibold text-brand-950">
          {tx.overview}
        </h2>
        <ul role="list" className="mt-3 grid gap-3 sm:grid-cols-3">
          {LANGS.map((lang) => {
            const c = counts[lang];
            const parts = [
              c.missing && p(tx.missing, c.missing),
              c.review && p(tx.toReview, c.review),
              c.problems && p(tx.problems, c.problems),
            ].filter(Boolean);
            return (
              <li key={lang} data-lang={lang} className="rounded-xl bg-slate-50 px-4 py-3">
                <span className="font-semibold text-ink">{languageName(lang)}</span>:{" "}
                <span className="text-ink">{parts.length ? parts.join(" · ") : tx.allInOrder}</span>
              </li>
            );
          })}
        </ul>
      </section>

      <DraftNotices editor={editor} />
      <History version={editor.status?.commit ?? ""} onUndone={editor.undone} />

      <div className="mt-6 flex flex-col gap-3 lg:flex-row lg:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor={searchId} className="text-sm font-semibold text-ink">
            {tx.search}
          </label>
          <input
            id={searchId}
            type="search"
            value={editor.query}
            aria-describedby={hintId}
            onChange={(event) => editor.setQuery(event.target.value)}
            className="mt-1.5 w-full rounded-xl border border-line bg-white px-3.5 py-2.5 text-ink focus:border-brand-500 focus:outline-none"
          />
          <p id={hintId} className="mt-1 text-sm text-muted">
            {tx.searchHint}
          </p>
        </div>
        <div className="pb-6">
          <Toggle checked={editor.onlyReview} onChange={editor.setOnlyReview} className="text-sm font-semibold">
            {tx.onlyReview}
          </Toggle>
        </div>
      </div>

      {editor.searching ? (
        <section aria-labelledby="results-heading" className="mt-4">
          <h2 id="results-heading" className="text-lg font-semibold text-brand-950">
            <span role="status">{found.length ? p(tx.results, found.length) : tx.nothingFound}</span>
          </h2>
          {found.slice(0, MAX_RESULTS).map((key) => block(key))}
          {found.length > MAX_RESULTS && (
            <p className="mt-4 text-muted">{f(tx.moreResults, { count: found.length - MAX_RESULTS })}</p>
          )}
        </section>
      ) : (
        <PageView data={data} block={block} onMemberAdded={editor.reloaded} />
      )}

      {previewing && (
        <Preview data={data} drafts={drafts} changes={editor.changes} onClose={() => setPreviewing(false)} />
      )}
      <PublishBar editor={editor} onPreview={() => setPreviewing(true)} />
    </div>
  );
}
