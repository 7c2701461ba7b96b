/**
 * The history of published texts, newest first: who, when and what (each text as it was and as it
 * became), and an undo that publishes the texts as they were before as a new change. Loaded when the
 * editor opens it; after a publish or an undo it is loaded again.
 */
import { useEffect, useId, useState } from "react";
import { UNDO_REFUSALS, type HistoryEntry, type SaveAnswer } from "#shared/api/content.ts";
import { dirOf, type Language } from "#shared/languages.ts";
import { ApiError, fetchTextHistory, undoTexts } from "../api";
import { apiErrorText } from "../api-errors";
import { useCopy } from "../copy";
import { ConfirmAction, iconPaths } from "../ui";

const short = (commit: string) => commit.slice(0, 7);

/** `version`: changes when something was published, so an open history reads again. */
export function History({ version, onUndone }: { version: string; onUndone: (answer: SaveAnswer) => void }) {
  const { copy } = useCopy();
  const tx = copy.editor.history;
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const load = () =>
    fetchTextHistory().then(
      (answer) => {
        setEntries(answer.entries);
        setFailed(false);
      },
      () => setFailed(true),
    );
  useEffect(() => {
    if (open) void load();
  }, [open, version]);

  const undo = async (entry: HistoryEntry) => {
    setMessage(null);
    try {
      const answer = await undoTexts(entry.commit);
      setMessage({ ok: true, text: tx.undone });
      onUndone(answer);
      await load();
      return true;
    } catch (error) {
      const code = error instanceof ApiError ? (error.data as { code?: string } | null)?.code : undefined;
      const known = Object.entries(UNDO_REFUSALS).find(([, c]) => c === code)?.[0] as
        keyof typeof UNDO_REFUSALS | undefined;
      setMessage({ ok: false, text: known ? tx.refusals[known] : apiErrorText(error, copy.apiErrors) });
      await load();
      return true;
    }
  };

  return (
    <details
      className="card mt-6 p-5"
      onToggle={(event) => setOpen(event.currentTarget.open)}
      aria-labelledby={headingId}
    >
      <summary className="text-lg font-semibold text-brand-950">
        <span id={headingId}>{tx.title}</span>
      </summary>
      <p className="mt-2 text-sm text-muted">{tx.intro}</p>
      <div role="status" aria-live="polite">
        {message && (
          <p className={`mt-3 text-sm font-semibold ${message.ok ? "text-green-800" : "text-red-800"}`}>
            {message.text}
          </p>
        )}
      </div>
      {failed && <p className="mt-3 text-red-800">{tx.failed}</p>}
      {!failed && !entries && open && <p className="mt-3 text-muted">{tx.loading}</p>}
      {entries && !entries.length && <p className="mt-3 text-muted">{tx.none}</p>}
      {entries && entries.length > 0 && (
        <ol className="mt-3 flex flex-col gap-3" data-testid="text-history">
          {entries.map((entry) => (
            <Entry key={entry.id} entry={entry} onUndo={() => undo(entry)} />
          ))}
        </ol>
      )}
    </details>
  );
}

function Entry({ entry, onUndo }: { entry: HistoryEntry; onUndo: () => Promise<boolean> }) {
  const { copy, f, p, dateTime, languageName } = useCopy();
  const tx = copy.editor.history;
  const titleId = useId();
  const values = { name: entry.actor || tx.someone, commit: short(entry.commit) };
  return (
    <li className="rounded-xl border border-line p-3" data-commit={entry.commit}>
      <p id={titleId} className="text-sm text-ink">
        <span className="font-semibold">
          {entry.kind === "undo"
            ? p(tx.undid, entry.count, { ...values, undone: short(entry.undoes ?? "") })
            : p(tx.published, entry.count, values)}
        </span>{" "}
        · <time dateTime={entry.at}>{dateTime(entry.at)}</time> ·{" "}
        <code className="text-xs text-muted" dir="ltr" translate="no">
          {short(entry.commit)}
        </code>
      </p>
      <ul className="mt-2 flex flex-col gap-1 text-sm">
        {entry.changes.map((c) => (
          <li key={`${c.lang}:${c.key}`} className="break-words">
            <code className="text-xs text-muted" dir="ltr" translate="no">
              {c.key}
            </code>{" "}
            ({languageName(c.lang)}):{" "}
            <del lang={c.lang} dir={dirOf(c.lang as Language)} className="text-muted">
              {c.was || tx.emptyText}
            </del>{" "}
            →{" "}
            <ins lang={c.lang} dir={dirOf(c.lang as Language)} className="text-ink no-underline">
              {c.value || tx.emptyText}
            </ins>
          </li>
        ))}
        {entry.count > entry.changes.length && (
          <li className="text-muted">{f(tx.more, { count: entry.count - entry.changes.length })}</li>
        )}
      </ul>
      <div className="mt-2">
        {entry.undoneBy ? (
          <p className="text-sm text-muted">
            {f(tx.undoneBy, { name: entry.undoneBy.actor || tx.someone, date: dateTime(entry.undoneBy.at) })}
          </p>
        ) : (
          <ConfirmAction
            label={tx.undo}
            question={tx.undoQuestion}
            confirmLabel={tx.undoConfirm}
            busyLabel={tx.undoing}
            icon={iconPaths.undo}
            describedBy={titleId}
            onConfirm={onUndo}
          />
        )}
      </div>
    </li>
  );
}
