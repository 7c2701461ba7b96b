import { useId, useRef, useState } from "react";
import type { AdminMeeting } from "#shared/api/meetings.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest, ApiError } from "./api";
import { formatCalendarDate } from "./format";
import { Icon, Spinner } from "./ui";
import { fill, ROUTES } from "#shared/routes.ts";

const cancelIcon = "M6 6l12 12M18 6 6 18";

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
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [sending, setSending] = useState(false);

  const confirm = async () => {
    setSending(true);
    try {
      const updated = await adminRequest<AdminMeeting>("POST", fill(ROUTES.admin.meetingCancel, { id: meeting.id }));
      dialog.current?.close();
      onCancelled(updated);
      showToast({
        title: "Meeting cancelled",
        description: "The visitor has been emailed a cancellation and the slot is free again.",
        variant: "success",
      });
    } catch (error) {
      dialog.current?.close();
      showToast({
        title: "Cancel failed",
        description:
          error instanceof ApiError && error.message ? error.message : "There was a problem cancelling the meeting.",
        variant: "destructive",
      });
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
        <Icon path={cancelIcon} />
        Cancel
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[min(100%-2rem,28rem)] rounded-2xl bg-white p-6 text-ink shadow-lift backdrop:bg-brand-950/50"
      >
        <h2 id={titleId} className="text-lg font-bold text-brand-950">
          Cancel this meeting?
        </h2>
        <p className="mt-2 text-muted">
          {meeting.name}, {formatCalendarDate(meeting.date)} at {meeting.time}. The visitor gets a cancellation email
          with a calendar update, and the slot can be booked again at once.
        </p>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            disabled={sending}
            className="btn btn-secondary"
          >
            Keep meeting
          </button>
          <button
            type="button"
            onClick={() => void confirm()}
            disabled={sending}
            className="btn bg-red-700 text-white hover:bg-red-800 disabled:opacity-70"
          >
            {sending && <Spinner className="size-4" />}
            {sending ? "Cancelling…" : "Cancel meeting"}
          </button>
        </div>
      </dialog>
    </>
  );
}
