import { Spinner } from "../ui/Spinner";
import { StrokeIcon } from "../ui/StrokeIcon";

/** The attributes of a button that closes the dialog without script (an invoker command). */
export interface CloseButton {
  commandfor: string;
  command: "close";
}

/** The dialog's title and description (its accessible name and description) and its close button. */
export function DialogHeading({
  title,
  description,
  closeLabel,
  closeButton,
}: {
  title: string;
  description: string;
  closeLabel: string;
  closeButton: CloseButton;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div>
        <h2 id="booking-title" className="text-2xl font-bold text-brand-950">
          {title}
        </h2>
        <p id="booking-description" className="mt-1 text-muted">
          {description}
        </p>
      </div>
      <button
        type="button"
        {...closeButton}
        aria-label={closeLabel}
        className="-m-2 flex size-11 shrink-0 items-center justify-center rounded-xl text-slate-600 hover:bg-brand-50"
      >
        <StrokeIcon name="close" className="size-5" />
      </button>
    </div>
  );
}

/** Cancel and Confirm; Confirm shows "Processing..." with a spinner while the booking is sent. */
export function DialogActions({
  labels,
  closeButton,
  processing,
  disabled,
}: {
  labels: { cancel: string; confirm: string; processing: string };
  closeButton: CloseButton;
  processing: boolean;
  disabled: boolean;
}) {
  return (
    <div className="mt-4 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <button type="button" {...closeButton} className="btn btn-secondary">
        {labels.cancel}
      </button>
      <button
        type="submit"
        disabled={processing || disabled}
        className="btn btn-primary disabled:cursor-not-allowed disabled:opacity-60"
      >
        {processing && <Spinner className="size-4" />}
        {processing ? labels.processing : labels.confirm}
      </button>
    </div>
  );
}
