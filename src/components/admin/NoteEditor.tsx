/**
 * The newest internal note on a card, with its author and time, and a form that adds another (notes
 * are edited and deleted by their author on the person's page). Admins only ever see it.
 */
import { useId, useRef, useState, type SubmitEvent } from "react";
import { NOTE_MAX_LENGTH } from "#shared/admin-lists.ts";
import type { AdminNote } from "#shared/api/notes.ts";
import { personPath } from "#shared/leads.ts";
import { showToast } from "#src/stores/toasts.ts";
import { useCopy } from "./copy";
import { BusyButton, Data, Filled, Icon, iconPaths, problem } from "./ui";

export function NoteEditor({
  note,
  save,
  describedBy,
  reference,
}: {
  note: AdminNote | null;
  /** Adds the note; rejects when it could not. */
  save: (text: string) => Promise<void>;
  /** The card's title, so "Add note" says whose card it is. */
  describedBy: string;
  /** The record's reference: the link to its person's page (every note, edited there by its author). */
  reference: string;
}) {
  const { copy, f, n, dateTime } = useCopy();
  const c = copy.note;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState("");
  const [saving, setSaving] = useState(false);
  const fieldId = useId();
  const countId = useId();
  const opener = useRef<HTMLButtonElement>(null);

  const open = () => {
    setEditing(true);
  };
  const close = () => {
    setEditing(false);
    // Back to the button that opened the editor, for keyboard users.
    requestAnimationFrame(() => opener.current?.focus());
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaving(true);
    try {
      await save(text.trim());
      showToast({ title: c.saved, variant: "success" });
      setText("");
      close();
    } catch (error) {
      const detail = problem(error, copy.common.tryAgain);
      showToast({ title: c.notSaved, description: detail, variant: "destructive" });
    } finally {
      setSaving(false);
    }
  };

  if (editing) {
    return (
      <form onSubmit={submit} className="mt-4 rounded-xl bg-amber-50/60 p-3 ring-1 ring-inset ring-amber-200">
        <label htmlFor={fieldId} className="text-xs font-semibold uppercase tracking-wider text-muted">
          {c.label}
        </label>
        <textarea
          id={fieldId}
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={NOTE_MAX_LENGTH}
          rows={3}
          aria-describedby={countId}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the admin just asked to write the note
          autoFocus
          dir="auto"
          className="mt-1.5 block w-full rounded-lg border border-line bg-white px-3 py-2 text-ink focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        />
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
          <span id={countId} className="text-xs text-muted">
            {f(c.count, { count: n(text.length), max: n(NOTE_MAX_LENGTH) })}
          </span>
          <div className="flex gap-2">
            <button type="button" onClick={close} disabled={saving} className="btn btn-secondary min-h-11 px-4">
              {copy.common.cancel}
            </button>
            <BusyButton
              type="submit"
              primary
              busy={saving}
              disabled={!text.trim()}
              label={c.save}
              busyLabel={copy.common.saving}
              className="min-h-11 px-4"
            />
          </div>
        </div>
      </form>
    );
  }

  return (
    <div className="mt-4 flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
      {note ? (
        <figure className="min-w-0 flex-1 rounded-xl bg-amber-50/60 px-3.5 py-2.5 ring-1 ring-inset ring-amber-200">
          <blockquote
            data-testid="note"
            dir="auto"
            translate="no"
            className="whitespace-pre-line text-ink [overflow-wrap:anywhere]"
          >
            {note.text}
          </blockquote>
          <figcaption className="mt-1 text-xs text-muted">
            <Filled text={c.byline} values={{ name: <Data>{note.by}</Data>, date: dateTime(note.at) }} />
          </figcaption>
        </figure>
      ) : null}
      <button
        ref={opener}
        type="button"
        onClick={open}
        aria-describedby={describedBy}
        className="inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2 text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
      >
        <Icon path={iconPaths.pencil} />
        {c.add}
      </button>
      <a
        href={personPath(reference)}
        data-testid="open-person"
        aria-describedby={describedBy}
        className="inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2 text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
      >
        {copy.person.open}
      </a>
    </div>
  );
}
