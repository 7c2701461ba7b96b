/**
 * The preview: a page of the site in one language, at phone and desktop width, with the unsaved
 * texts put in. It shows the pages as they are built (the same components and stylesheets the visitor
 * gets), fetched from this site: scripts are left out (the preview is a picture, not the working
 * page), the page's own inline styles and style attributes are applied as constructed stylesheets (the admin's
 * Content-Security-Policy governs the frames and allows no inline <style> of another page), and each
 * text the editor changed is replaced where the page shows it and outlined.
 */
import { useEffect, useId, useRef, useState } from "react";
import type { ContentAnswer, TextChange } from "#shared/api/content.ts";
import { site } from "#config/site.ts";
import {
  LANGS,
  PREVIEW_PAGES,
  pageOfKey,
  parseBuiltPage,
  styleAttributesToSheet,
  substitute,
  type Drafts,
  type Lang,
} from "./model";
import { useCopy } from "../copy";
import { Segmented } from "../ui";

const WIDTHS = { phone: 390, desktop: 1280 } as const;
const HIGHLIGHT =
  "[data-preview-changed]{outline:3px solid #d97706!important;outline-offset:2px}a,button,input,select,textarea{pointer-events:none}";

interface Built {
  html: string;
  styles: string[];
  changed: number;
}

export function Preview({
  data,
  drafts,
  changes,
  onClose,
}: {
  data: ContentAnswer;
  drafts: Drafts;
  changes: TextChange[];
  onClose: () => void;
}) {
  const { copy, f, languageName } = useCopy();
  const tx = copy.editor;
  const [lang, setLang] = useState<Lang>(() => (changes[0]?.lang as Lang | undefined) ?? "en");
  const [page, setPage] = useState<string>(() => (changes[0] ? pageOfKey(changes[0].key) : "/"));
  const path = page === "/" ? `/${lang}/` : `/${lang}${page}`;
  // The page built for the current choice; an earlier choice's page is not shown while the new one loads.
  const [result, setResult] = useState<{ path: string; built: Built } | null>(null);
  const built = result?.path === path ? result.built : null;
  const headingId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);

  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && onCloseRef.current();
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    let active = true;
    fetch(path, { credentials: "same-origin" })
      .then((res) => res.text())
      .then((html) => {
        if (!active) return;
        const { doc, styles } = parseBuiltPage(html);
        for (const el of doc.querySelectorAll("script, noscript, meta[http-equiv]")) el.remove();
        styles.push(styleAttributesToSheet(doc));
        const mine = changes
          .filter((c) => c.lang === lang)
          .map((c) => ({ key: c.key, was: c.was, now: drafts[`${c.lang}:${c.key}`] ?? c.value }));
        const changed = substitute(doc, mine, site.name, lang);
        setResult({ path, built: { html: `<!doctype html>${doc.documentElement.outerHTML}`, styles, changed } });
      })
      .catch(() => active && setResult({ path, built: { html: "", styles: [], changed: 0 } }));
    return () => {
      active = false;
    };
  }, [path, lang, changes, drafts, data]);

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={headingId}
      className="fixed inset-0 z-50 overflow-y-auto p-3 sm:p-6"
      style={{ backgroundColor: "rgb(15 23 42 / 0.6)" }}
    >
      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <div className="flex flex-wrap gap-4 sm:items-end">
          <h2 id={headingId} className="me-auto text-xl font-bold text-brand-950">
            {tx.previewTitle}
          </h2>
          <label className="text-sm font-semibold text-ink">
            {tx.previewPage}
            <select
              value={page}
              onChange={(event) => setPage(event.target.value)}
              className="mt-1 block rounded-xl border border-line bg-white px-3 py-2"
            >
              {PREVIEW_PAGES.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
          <Segmented
            label={tx.previewLanguage}
            value={lang}
            onChange={setLang}
            options={LANGS.map((l) => ({ value: l, label: languageName(l) }))}
          />
          <button ref={closeRef} type="button" className="btn btn-secondary" onClick={onClose}>
            {tx.closePreview}
          </button>
        </div>
        <p className="mt-2 text-sm text-muted">{tx.previewNote}</p>
        {!built ? (
          <p role="status" className="mt-6 text-muted">
            {tx.previewLoading}
          </p>
        ) : (
          <div className="mt-4 flex flex-wrap items-start gap-6" dir="ltr">
            {(["phone", "desktop"] as const).map((device) => (
              <Frame
                key={device}
                built={built}
                width={WIDTHS[device]}
                scale={device === "phone" ? 1 : 0.6}
                title={f(tx.frameTitle, { language: languageName(lang), device: tx[device] })}
                label={f(tx.frameLabel, { device: tx[device], width: WIDTHS[device] })}
              />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

/** One frame at a device width (scaled to fit beside the other): the page's document, its styles adopted. */
function Frame({
  built,
  width,
  scale,
  title,
  label,
}: {
  built: Built;
  width: number;
  scale: number;
  title: string;
  label: string;
}) {
  const ref = useRef<HTMLIFrameElement>(null);
  const height = 760;
  const onLoad = () => {
    const frame = ref.current;
    const win = frame?.contentWindow as (Window & typeof globalThis) | null;
    const doc = frame?.contentDocument;
    if (!win || !doc) return;
    const sheets = [...built.styles, HIGHLIGHT].map((css) => {
      const sheet = new win.CSSStyleSheet();
      sheet.replaceSync(css);
      return sheet;
    });
    doc.adoptedStyleSheets = sheets;
  };
  return (
    <div>
      <p className="mb-2 text-sm font-semibold text-ink">{label}</p>
      <div
        className="overflow-hidden rounded-xl border border-line"
        style={{ width: width * scale, height: height * scale }}
      >
        <iframe
          ref={ref}
          title={title}
          srcDoc={built.html}
          // The least the preview needs: its own document reachable (to adopt the page's stylesheets);
          // no scripts, forms, pop-ups or navigation of this page.
          sandbox="allow-same-origin"
          onLoad={onLoad}
          width={width}
          height={height}
          style={{ transform: `scale(${scale})`, transformOrigin: "0 0", border: 0 }}
        />
      </div>
    </div>
  );
}
