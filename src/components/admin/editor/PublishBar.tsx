/** The bar fixed at the bottom of the content editor: what is unsaved, refusals and conflicts, Preview and Publish. */
import { useRef, type ReactNode } from "react";
import type { PublishStatus } from "#shared/api/content.ts";
import type { TextAddress } from "#shared/api/common.ts";
import { dirOf, type Language } from "#shared/languages.ts";
import { useCopy } from "../copy";
import { BusyButton } from "../ui";
import { fieldId, inputId, liveProblems } from "./model";
import type { ContentEditorState } from "./useContentEditor";

/** A timestamp's local time of day, in the panel's digits. */
const clock = (iso: string, time: (t: string) => string) => {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return time(`${pad(at.getHours())}:${pad(at.getMinutes())}`);
};

export function PublishBar({ editor, onPreview }: { editor: ContentEditorState; onPreview: () => void }) {
  const { copy, languageName, p } = useCopy();
  const tx = copy.editor;
  const refusalRef = useRef<HTMLDivElement>(null);
  const { data, drafts, changes, serverErrors, refusal, conflicts } = editor;
  if (!data) return null;
  const publish = async () => {
    if (await editor.publish()) requestAnimationFrame(() => refusalRef.current?.focus());
  };
  const goTo = (a: TextAddress) => (
    <a
      href={`#${inputId(a)}`}
      onClick={(event) => {
        event.preventDefault();
        editor.goTo(a);
      }}
      className="font-semibold underline"
    >
      {tx.goToText} ({languageName(a.lang)}: <span translate="no">{a.key}</span>)
    </a>
  );
  const quote = (lang: string, text: string) => (
    <q lang={lang} dir={dirOf(lang as Language)} translate="no">
      {text}
    </q>
  );

  return (
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
                    : liveProblems(data, drafts, a).map((x) => x.message);
                  return (
                    <li key={id}>
                      {messages.join(" ")} {goTo(a)}
                    </li>
                  );
                })}
              </ul>
            </div>
          )}
          {conflicts.length > 0 && (
            <div role="alert" className="text-sm text-ink">
              <p className="font-semibold text-red-800">{copy.editor.conflictTitle}</p>
              <ul className="mt-1 flex flex-col gap-2">
                {conflicts.map((c) => (
                  <li key={fieldId(c)} className="rounded-lg bg-amber-50 p-2">
                    <code className="text-xs" translate="no">
                      {c.key}
                    </code>{" "}
                    ({languageName(c.lang)})<br />
                    {tx.theirs}: {quote(c.lang, c.theirs)}
                    <br />
                    {tx.yours}: {quote(c.lang, c.yours)}
                    <span className="ms-2 inline-flex gap-2">
                      <button type="button" className="btn btn-secondary py-1" onClick={() => editor.resolve(c, true)}>
                        {tx.keepMine}
                      </button>
                      <button type="button" className="btn btn-secondary py-1" onClick={() => editor.resolve(c, false)}>
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
            {changes.length ? p(tx.unsaved, changes.length) : tx.noChanges}
          </p>
          <PublishState status={editor.status} savedAt={editor.savedAt} onGoTo={editor.goTo} />
          {changes.length > 0 && (
            <button type="button" className="btn btn-secondary" onClick={editor.discard}>
              {tx.discard}
            </button>
          )}
          <button type="button" className="btn btn-secondary" onClick={onPreview}>
            {tx.preview}
          </button>
          <BusyButton
            primary
            busy={editor.busy}
            disabled={!changes.length}
            label={tx.publish}
            busyLabel={tx.publishing}
            onClick={() => void publish()}
          />
        </div>
      </div>
    </div>
  );
}

function PublishState({
  status,
  savedAt,
  onGoTo,
}: {
  status: PublishStatus | null;
  savedAt: string | null;
  onGoTo: (a: TextAddress) => void;
}) {
  const { copy, f, time } = useCopy();
  const tx = copy.editor;
  const at = (iso: string) => ({ time: clock(iso, time) });
  let text: ReactNode = savedAt ? f(tx.saved, at(savedAt)) : null;
  if (status?.state === "building") text = tx.building;
  else if (status?.state === "published" && status.at) text = f(tx.published, at(status.at));
  else if (status?.state === "committed" && status.at) text = f(tx.committed, at(status.at));
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
