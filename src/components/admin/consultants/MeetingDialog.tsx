import { useId, useRef, useState, type ReactNode } from "react";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import { ApiError } from "#src/lib/api-client.ts";
import { showToast } from "#src/stores/toasts.ts";
import { useCopy } from "../copy";
import { BusyButton, ErrorNote, Icon, problem } from "../ui";

/**
 * A staff change of a meeting (hand over, move) in a modal dialog (native <dialog>: focus stays
 * inside, Escape closes): the button that opens it, the form `children`, and "keep" or confirm.
 * A refusal stays in the dialog, said in the panel's words, so the admin can choose again.
 */
/** A dialog's words: the button that opens it, its title, confirm, while sending, and the toast when done. */
export interface MeetingDialogTexts {
  button: string;
  title: string;
  confirm: string;
  sending: string;
  done: string;
}

export function MeetingDialog({
  icon,
  texts: { button, title, confirm, sending, done },
  describedBy,
  ready,
  send,
  onDone,
  onOpen,
  children,
}: {
  icon: string;
  texts: MeetingDialogTexts;
  describedBy: string;
  /** Whether the form is complete. */
  ready: boolean;
  send: () => Promise<AdminMeeting>;
  onDone: (updated: AdminMeeting) => void;
  onOpen?: () => void;
  children: ReactNode;
}) {
  const { copy } = useCopy();
  const c = copy.staffMeetings;
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const updated = await send();
      dialog.current?.close();
      onDone(updated);
      showToast({ title: done, variant: "success" });
    } catch (failure) {
      const code = failure instanceof ApiError ? (failure.data as { message?: unknown } | null)?.message : undefined;
      const known = typeof code === "string" && Object.hasOwn(c.errors, code);
      setError(known ? c.errors[code as keyof typeof c.errors] : problem(failure, c.failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        onClick={() => {
          setError(null);
          onOpen?.();
          dialog.current?.showModal();
        }}
        aria-describedby={describedBy}
        aria-haspopup="dialog"
        className="btn btn-secondary whitespace-nowrap px-4"
      >
        <Icon path={icon} />
        {button}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(100%-2rem,30rem)] rounded-2xl bg-white p-6 text-ink shadow-lift backdrop:bg-brand-950/50"
      >
        <h2 id={titleId} className="text-lg font-bold text-brand-950">
          {title}
        </h2>
        <div className="mt-3 flex flex-col gap-4">{children}</div>
        {error && <ErrorNote className="mt-4">{error}</ErrorNote>}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={() => dialog.current?.close()} disabled={busy} className="btn btn-secondary">
            {c.keep}
          </button>
          <BusyButton busy={busy} label={confirm} busyLabel={sending} onClick={() => void submit()} disabled={!ready} />
        </div>
      </dialog>
    </>
  );
}
