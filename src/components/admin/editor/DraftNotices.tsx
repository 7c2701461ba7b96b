/**
 * What the browser kept of an earlier visit's unsaved texts, offered back (restore or discard), and
 * why the latest keystroke could not be kept (the browser's storage is full or blocked, or the text is
 * longer than a text can be): never a silent loss.
 */
import { useCopy } from "../copy";
import { MAX_DRAFT_LENGTH } from "./drafts";
import type { ContentEditorState } from "./useContentEditor";

const keyOf = (id: string) => id.slice(id.indexOf(":") + 1);

export function DraftNotices({ editor }: { editor: ContentEditorState }) {
  const { copy, f, p, n, dateTime } = useCopy();
  const tx = copy.editor.drafts;
  const { offer, keepProblem } = editor;
  return (
    <>
      {offer && (
        <section aria-labelledby="drafts-heading" className="card mt-6 border-amber-300 bg-amber-50 p-5">
          <h2 id="drafts-heading" className="text-lg font-semibold text-brand-950">
            {tx.title}
          </h2>
          {offer.drafts.length > 0 && (
            <>
              <p className="mt-2 text-ink">
                {p(tx.offered, offer.drafts.length, { date: dateTime(offer.drafts.at(-1)!.at) })}
              </p>
              {offer.changedSince.length > 0 && (
                <p className="mt-2 text-ink">
                  {tx.changedSince}{" "}
                  <span dir="ltr" translate="no">
                    {offer.changedSince.map(keyOf).join(", ")}
                  </span>
                </p>
              )}
            </>
          )}
          {offer.unreadable.length > 0 && <p className="mt-2 text-ink">{p(tx.unreadable, offer.unreadable.length)}</p>}
          <div className="mt-3 flex flex-wrap gap-3">
            {offer.drafts.length > 0 && (
              <button type="button" className="btn btn-primary" onClick={editor.restore}>
                {tx.restore}
              </button>
            )}
            <button type="button" className="btn btn-secondary" onClick={editor.dropOffer}>
              {offer.drafts.length ? tx.discard : tx.remove}
            </button>
          </div>
        </section>
      )}
      {keepProblem && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 p-3 text-sm font-semibold text-red-800">
          {keepProblem.result === "tooLong"
            ? f(tx.tooLong, { text: keyOf(keepProblem.id), max: n(MAX_DRAFT_LENGTH) })
            : f(tx.refused, { text: keyOf(keepProblem.id) })}
        </p>
      )}
    </>
  );
}
