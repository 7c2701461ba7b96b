import { useEffect, useMemo, useState, type SubmitEvent } from "react";
import type { ManagedMeeting, ManagedMeetingAnswer, MovedMeetingAnswer } from "#shared/api/meetings.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";
import { ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { ApiError, apiRequest } from "./api-client.ts";
import type { MeetingChoices } from "./consultant-choice.ts";
import { useOfficeCalendar, type SlotsFailureLabels } from "./use-office-calendar.ts";

/** A link that opens no meeting: unknown, expired, replaced by a newer one, or a failed load. */
export type ManageProblem = "linkInvalid" | "linkExpired" | "linkReplaced" | "error";
/** What the manage page shows under the meeting: its actions, the move picker or the cancel question. */
export type ManageView = "details" | "move" | "cancel";

/** The texts the manage page's actions show: their outcome, or why one failed. */
export interface ManageActionLabels extends SlotsFailureLabels {
  moved: string;
  cancelled: string;
  /** A 429 tooManyChanges: the link changed the meeting too often for now. */
  tooManyChanges: string;
  error: string;
  slotTaken: string;
  /** The day reached its cap of meetings meanwhile. */
  dayFull: string;
  /** A move to a time the meeting's consultant is not free (409 consultantBusy). */
  consultantBusy: string;
  errorTitle: string;
}

const PROBLEMS: readonly ManageProblem[] = ["linkInvalid", "linkExpired", "linkReplaced"];

/** The token of the link: the URL fragment (never sent to any server), `#<token>`. */
const tokenFromUrl = () => (typeof window === "undefined" ? "" : decodeURIComponent(window.location.hash.slice(1)));

const problemOf = (error: unknown): ManageProblem =>
  error instanceof ApiError && PROBLEMS.includes(error.message as ManageProblem)
    ? (error.message as ManageProblem)
    : "error";

/** The toast's text for a move or cancel the API refused for a reason the page does not show itself. */
function refusalText(labels: ManageActionLabels, message: string): string {
  if (message === "timeSlotOccupied") return labels.slotTaken;
  if (message === "dailyLimitReached") return labels.dayFull;
  if (message === "consultantBusy") return labels.consultantBusy;
  if (message === GUARD_CODES.tooManyChanges) return labels.tooManyChanges;
  return labels.error;
}

/**
 * The manage page's state: the meeting its link (the URL fragment) opens, or the problem with the
 * link; which view is open; the outcome of the last change; and the two changes, move (through the
 * office calendar's picker) and cancel. A move retires the old link for the new one.
 */
export function useManagedMeeting(labels: ManageActionLabels) {
  const [token, setToken] = useState("");
  const [meeting, setMeeting] = useState<ManagedMeeting | null>(null);
  const [problem, setProblem] = useState<ManageProblem | null>(null);
  const [view, setView] = useState<ManageView>("details");
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const auth = useMemo(() => ({ authorization: `Bearer ${token}` }), [token]);
  const picker = useOfficeCalendar(labels, "", auth);
  const { date, time, loadSlots, start, requery } = picker;

  useEffect(() => {
    const found = tokenFromUrl();
    const load = found
      ? apiRequest<ManagedMeetingAnswer>("GET", ROUTES.meetings.manage, {
          headers: { authorization: `Bearer ${found}` },
        }).then((answer) => {
          setToken(found);
          setMeeting(answer.data);
        })
      : Promise.reject(new ApiError("linkInvalid", 403, null));
    load.catch((error: unknown) => setProblem(problemOf(error)));
  }, []);

  /**
   * The move view, on the meeting's own day when it can still be chosen, else on today; the slots
   * are its consultant's, as a move keeps the same person.
   */
  const startMove = async () => {
    setView("move");
    setDone(null);
    const consultant = (meeting as MeetingChoices | null)?.consultant;
    if (consultant) void requery({ consultant });
    const started = await start((rules) =>
      meeting && meeting.date >= rules.today && meeting.date <= rules.lastDate ? meeting.date : rules.today,
    );
    if (!started) setView("details");
  };

  const fail = (error: unknown) => {
    const message = error instanceof ApiError ? error.message : "";
    if (PROBLEMS.includes(message as ManageProblem)) return setProblem(message as ManageProblem);
    // Cancelled meanwhile (by the office, or in another tab): show it as it is now.
    if (message === "meetingCancelled") {
      setMeeting((m) => m && { ...m, status: "cancelled" });
      return setView("details");
    }
    // The cut-off passed while the page was open: show why, and how to reach the office.
    if (message === "changesClosed") {
      setMeeting((m) => m && { ...m, changeable: false });
      return setView("details");
    }
    showToast({ title: labels.errorTitle, description: refusalText(labels, message), variant: "destructive" });
  };

  const move = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!date || !time || busy) return;
    setBusy(true);
    try {
      const answer = await apiRequest<MovedMeetingAnswer>("POST", ROUTES.meetings.manageMove, {
        body: { date, time },
        headers: auth,
      });
      const { token: next, ...moved } = answer.data;
      setMeeting(moved);
      setToken(next);
      // The old link is retired: the address bar (and a bookmark made now) holds the new one.
      history.replaceState(null, "", `#${next}`);
      setView("details");
      setDone(labels.moved);
    } catch (error) {
      fail(error);
      if (date) void loadSlots(date, true);
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    setBusy(true);
    try {
      const answer = await apiRequest<ManagedMeetingAnswer>("POST", ROUTES.meetings.manageCancel, { headers: auth });
      setMeeting(answer.data);
      setView("details");
      setDone(labels.cancelled);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  return { meeting, problem, view, setView, done, busy, picker, startMove, move, cancel };
}

export type ManagedMeetingState = ReturnType<typeof useManagedMeeting>;
