import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { useCopy } from "../copy";
import { Icon, Spinner } from "./basics";

/**
 * A destructive action with a confirm step in place (not window.confirm): the button becomes a
 * short question with "confirm" and "keep" buttons. Focus moves to "keep", the safe choice; Escape
 * or "keep" goes back and returns focus to the button. While the action runs, a disabled placeholder.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  busyLabel,
  icon,
  describedBy,
  disabled,
  onConfirm,
}: {
  label: string;
  question: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  icon: string;
  /** The id of what the action is about (a card's title), read with the button. */
  describedBy?: string;
  disabled?: boolean;
  /** Resolves when done; false (or a throw) keeps the question open. */
  onConfirm: () => Promise<boolean>;
}) {
  const { copy } = useCopy();
  const [stage, setStage] = useState<"idle" | "asking" | "busy">("idle");
  const keepRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (stage === "asking") keepRef.current?.focus();
    if (stage === "idle" && returnFocus.current) {
      returnFocus.current = false;
      openRef.current?.focus();
    }
  }, [stage]);

  const keep = () => {
    returnFocus.current = true;
    setStage("idle");
  };
  const onEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || stage !== "asking") return;
    event.stopPropagation();
    keep();
  };
  const confirm = async () => {
    setStage("busy");
    const done = await onConfirm().catch(() => false);
    // Done: back to the plain button (a deleted card is gone anyway; the privacy panel erases the next address).
    setStage(done ? "idle" : "asking");
  };

  if (stage === "idle") {
    return (
      <button
        ref={openRef}
        type="button"
        disabled={disabled}
        onClick={() => setStage("asking")}
        aria-describedby={describedBy}
        className="btn btn-secondary text-red-700 hover:text-red-800 disabled:cursor-not-allowed disabled:opacity-60"
      >
        <Icon path={icon} />
        {label}
      </button>
    );
  }
  return (
    <div
      role="group"
      aria-label={label}
      className="flex w-full flex-col gap-3 rounded-xl bg-red-50 p-3 ring-1 ring-inset ring-red-200"
    >
      <p className="text-sm font-medium text-red-900">{question}</p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() => void confirm()}
          onKeyDown={onEscape}
          disabled={stage === "busy"}
          aria-describedby={describedBy}
          className="btn min-h-11 bg-red-700 text-white hover:bg-red-800 disabled:cursor-wait disabled:opacity-70"
        >
          {stage === "busy" ? <Spinner className="size-4" /> : <Icon path={icon} />}
          {stage === "busy" ? busyLabel : confirmLabel}
        </button>
        <button
          ref={keepRef}
          type="button"
          onClick={keep}
          onKeyDown={onEscape}
          disabled={stage === "busy"}
          className="btn btn-secondary"
        >
          {copy.common.keep}
        </button>
      </div>
    </div>
  );
}
