import { useId, useRef, useState } from "react";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest } from "./api";
import { useCopy } from "./copy";
import { BusyButton, Icon, iconPaths, problem } from "./ui";
import { fill, ROUTES } from "#shared/routes.ts";

/**
 * "Cancel meeting" on a meeting card, confirmed in a modal dialog first (native <dialog>: focus
 * stays inside, Escape closes). The visitor is emailed a cancellation and the slot is free again.
 */
export function CancelMeetingButton({
  meeting,
  describedBy,
  onCancelled,
}: {
  meeting: AdminMeeting;
  describedBy: string;
  onCancelled: (updated: AdminMeeting) => void;
}) {
  const { copy, f, date, time } = useCopy();
  const c = copy.cancelMeeting;
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [sending, setSending] = useState(false);

  const confirm = async () => {
    setSending(true);
    try {
      const updated = await adminRequest<AdminMeeting>("POST", fill(ROUTES.admin.meetingCancel, { id: meeting.id }));
      dialog.current?.close();
      onCancelled(updated);
      showToast({ title: c.done, description: c.doneText, variant: "success" });
    } catch (error) {
      dialog.current?.close();
      showToast({ title: c.failed, description: problem(error, c.failedText), variant: "destructive" });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        aria-describedby={describedBy}
        aria-haspopup="dialog"
        className="btn btn-secondary whitespace-nowrap px-4 text-red-800"
      >
        <Icon path={iconPaths.close} />
        {c.button}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(100%-2rem,28rem)] rounded-2xl bg-white p-6 text-ink shadow-lift backdrop:bg-brand-950/50"
      >
        <h2 id={titleId} className="text-lg font-bold text-brand-950">
          {c.title}
        </h2>
        <p className="mt-2 text-muted">
          {f(c.text, { name: meeting.name, date: date(meeting.date), time: time(meeting.time) })}
        </p>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            disabled={sending}
            className="btn btn-secondary"
          >
            {c.keep}
          </button>
          <BusyButton busy={sending} label={c.confirm} busyLabel={c.sending} onClick={() => void confirm()} danger />
        </div>
      </dialog>
    </>
  );
}
