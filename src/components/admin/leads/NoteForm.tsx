/** Writes a note about the person (on the reference the page was opened with), or edits one's own. */
import { useId, useState, type SubmitEvent } from "react";
import { NOTE_MAX_LENGTH } from "#shared/admin-lists.ts";
import type { PersonNote } from "#shared/api/timeline.ts";
import { showToast } from "#src/stores/toasts.ts";
import { addPersonNote, editNote } from "../api";
import { useCopy } from "../copy";
import { BusyButton, problem } from "../ui";

export function NoteForm({
  reference,
  note,
  onSaved,
  onCancel,
}: {
  reference: string;
  /** The note being edited (its author's own); none to add one. */
  note?: PersonNote;
  onSaved: (note: PersonNote) => void;
  onCancel?: () => void;
}) {
  const { copy, f, n } = useCopy();
  const c = copy.person.notes;
  const [text, setText] = useState(note?.text ?? "");
  const [saving, setSaving] = useState(false);
  const fieldId = useId();
  const countId = useId();

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaving(true);
    try {
      const saved = note ? await editNote(note.id, text.trim()) : await addPersonNote(reference, text.trim());
      showToast({ title: c.saved, variant: "success" });
      // The text stays in the field until the server has it: nothing typed is lost on a failed save.
      if (!note) setText("");
      onSaved(saved.note);
    } catch (error) {
      showToast({ title: c.notSaved, description: problem(error, copy.common.tryAgain), variant: "destructive" });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} className="mt-4 rounded-xl bg-amber-50/60 p-3 ring-1 ring-inset ring-amber-200">
      <label htmlFor={fieldId} className="text-xs font-semibold uppercase tracking-wider text-muted">
        {note ? c.label : c.add}
      </label>
      <textarea
        id={fieldId}
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={NOTE_MAX_LENGTH}
        rows={3}
        aria-describedby={countId}
        dir="auto"
        className="mt-1.5 block w-full rounded-lg border border-line bg-white px-3 py-2 text-ink focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
      />
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <span id={countId} className="text-xs text-muted">
          {f(copy.note.count, { count: n(text.length), max: n(NOTE_MAX_LENGTH) })}
        </span>
        <div className="flex gap-2">
          {onCancel ? (
            <button type="button" onClick={onCancel} disabled={saving} className="btn btn-secondary min-h-11 px-4">
              {copy.common.cancel}
            </button>
          ) : null}
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
