/** One text of the content editor: its key small, then English, Dutch and Persian side by side with their checks. */
import { useId, useState } from "react";
import type { ContentAnswer } from "#shared/api/content.ts";
import type { TextAddress } from "#shared/api/common.ts";
import { dirOf, type Language } from "#shared/languages.ts";
import { useCopy } from "../copy";
import { current, fieldId, inputId, LANGS, liveProblems, type Drafts, type Lang } from "./model";

export interface TextBlockProps {
  textKey: string;
  title?: string;
  data: ContentAnswer;
  drafts: Drafts;
  serverErrors: Record<string, string[]>;
  onEdit: (a: TextAddress, value: string) => void;
  onMarkReviewed: (a: TextAddress) => Promise<void>;
}

export function TextBlock({ textKey, title, ...rest }: TextBlockProps) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="mt-3 rounded-2xl border border-line bg-white p-4"
      data-key={textKey}
    >
      <h4 id={headingId} className="text-sm text-ink">
        {title && (
          <span className="me-2 font-semibold" translate="no">
            {title}
          </span>
        )}
        <code className="text-xs text-muted" dir="ltr" translate="no">
          {textKey}
        </code>
      </h4>
      <div className="mt-2 grid gap-4 md:grid-cols-3">
        {LANGS.map((lang) => (
          <TextField key={lang} at={{ lang, key: textKey }} {...rest} />
        ))}
      </div>
    </section>
  );
}

function TextField({
  at,
  data,
  drafts,
  serverErrors,
  onEdit,
  onMarkReviewed,
}: Omit<TextBlockProps, "textKey" | "title"> & { at: TextAddress & { lang: Lang } }) {
  const { copy, languageName } = useCopy();
  const tx = copy.editor;
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
        {languageName(at.lang)}
      </label>
      {changed && (
        <span className="ms-1 text-sm font-semibold text-amber-800" aria-hidden="true">
          •
        </span>
      )}
      <textarea
        id={id}
        lang={at.lang}
        dir={dirOf(at.lang as Language)}
        value={value}
        rows={Math.min(8, Math.ceil(value.length / 45) + 1)}
        aria-invalid={shown.length > 0}
        aria-describedby={shown.length || flag ? `${id}-notes` : undefined}
        onChange={(event) => onEdit(at, event.target.value)}
        className={`mt-1 w-full rounded-xl border bg-white px-3 py-2 text-ink focus:outline-none ${shown.length ? "border-red-700" : "border-line focus:border-brand-500"}`}
      />
      <div id={`${id}-notes`} aria-live="polite">
        {shown.map((message) => (
          <p key={message} lang="en" dir="auto" className="mt-1 text-sm text-red-800">
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
