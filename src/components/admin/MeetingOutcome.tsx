import { useMemo, useState } from "react";
import type { AdminMeeting, MeetingOutcome as Outcome } from "#shared/api/meetings.ts";
import { officeNow } from "#shared/dates.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { fill as fillRoute, ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest, ApiError } from "./api";
import { useHydrated } from "#src/lib/use-hydrated.ts";
import { adminCopy } from "./copy";
import { Spinner } from "./ui";

/** The admin texts, once mounted (they are read from the page, which the server render has not). */
export function useAdminCopy() {
  const hydrated = useHydrated();
  return useMemo(() => (hydrated ? adminCopy() : null), [hydrated]);
}

/** Whether a meeting has started, office time: only then has it an outcome (the API agrees). */
export function hasStarted(meeting: Pick<AdminMeeting, "date" | "time">, now = new Date()): boolean {
  const office = officeNow(now, OFFICE_TIME_ZONE);
  return `${meeting.date} ${meeting.time}` <= `${office.date} ${office.time}`;
}

/**
 * "How did it go?" on the card of a standing meeting that has started: done or no-show, one press
 * each (pressing the chosen one again clears it). In the admin's language (en, nl or fa).
 */
export function MeetingOutcome({
  meeting,
  describedBy,
  onSaved,
}: {
  meeting: AdminMeeting;
  describedBy: string;
  onSaved: (updated: AdminMeeting) => void;
}) {
  const texts = useAdminCopy();
  const [sending, setSending] = useState<Outcome | null>(null);
  if (!texts || meeting.cancelledAt || !hasStarted(meeting)) return null;
  const { lang, dir, copy } = texts;

  const mark = async (outcome: Outcome) => {
    setSending(outcome);
    try {
      const next = meeting.outcome === outcome ? null : outcome;
      onSaved(
        await adminRequest<AdminMeeting>("POST", fillRoute(ROUTES.admin.meetingOutcome, { id: meeting.id }), {
          outcome: next,
        }),
      );
    } catch (error) {
      showToast({
        title: copy.outcome.saveError,
        description: error instanceof ApiError && error.message ? error.message : copy.outcome.saveError,
        variant: "destructive",
      });
    } finally {
      setSending(null);
    }
  };

  const button = (outcome: Outcome, label: string) => (
    <button
      type="button"
      aria-pressed={meeting.outcome === outcome}
      aria-describedby={describedBy}
      disabled={sending !== null}
      onClick={() => void mark(outcome)}
      data-outcome={outcome}
      className={`btn min-h-11 px-3 py-2 text-sm ${
        meeting.outcome === outcome
          ? outcome === "done"
            ? "bg-teal-700 text-white hover:bg-teal-800"
            : "bg-amber-700 text-white hover:bg-amber-800"
          : "btn-secondary"
      }`}
    >
      {sending === outcome && <Spinner className="size-4" />}
      {label}
    </button>
  );

  return (
    <div
      role="group"
      aria-label={copy.outcome.label}
      lang={lang}
      dir={dir}
      className="flex flex-wrap items-center gap-2"
    >
      <span className="text-sm font-semibold text-muted" aria-hidden="true">
        {copy.outcome.label}
      </span>
      {button("done", copy.outcome.done)}
      {button("no-show", copy.outcome.noShow)}
    </div>
  );
}
