/** Meetings: booking, the visitor's manage link, and the admin's list. */
import type { Language } from "../languages.ts";
import type { MeetingPlaceKind } from "../office.ts";
import type { LeadSource } from "../sources.ts";
import type { Assignment } from "../consultants.ts";
import type { EmailStatus } from "./common.ts";
import type { AdminNote } from "./notes.ts";

/** A visitor's meeting reservation. */
export interface Meeting {
  id: number;
  name: string;
  email: string;
  phone: string;
  /** Office-local date, yyyy-MM-dd. */
  date: string;
  /** Office-local slot start, HH:mm. */
  time: string;
  /** The visitor's language: every email about the meeting speaks it. */
  language: Language;
  /** ISO 8601, UTC. */
  createdAt: string;
  isConfirmed: boolean;
  /** ISO 8601, UTC; null while the meeting stands. A cancelled meeting no longer holds its slot. */
  cancelledAt: string | null;
  /** Whose meeting it is: the consultant's id (their team member's, src/data/team.json). */
  consultant: string;
}

/** Where a meeting happens, fixed when it was booked: the office's address, a phone call, or its own video link. */
export interface MeetingLocation {
  kind: MeetingPlaceKind;
  /** The address (office) or the link (video); null for a phone call (we call the visitor's number). */
  detail: string | null;
}

/** How a meeting that has started went, as an admin marked it. */
export type MeetingOutcome = "done" | "no-show";
export const MEETING_OUTCOMES: readonly MeetingOutcome[] = ["done", "no-show"];

/** A meeting as the admin lists (and PATCH answers) show it. */
export interface AdminMeeting extends Meeting {
  emailStatus: EmailStatus | null;
  note: AdminNote | null;
  /** Who cancelled it, when it is cancelled. */
  cancelledBy: "admin" | "visitor" | null;
  /** null for meetings booked before meeting places existed. */
  location: MeetingLocation | null;
  /** null until an admin marks it. */
  outcome: MeetingOutcome | null;
  /** Where it came from (the visit's first touch, the page of sending); null when nothing is known. */
  source: LeadSource | null;
  /** Why it went to its consultant (the visitor chose them, or the fair rule); null for meetings from before consultants. */
  assignment: Assignment | null;
}

/** Where a meeting stands, as its visitor sees it. */
export type MeetingStatus = "pending" | "confirmed" | "cancelled";

/** A meeting as its manage link shows it: nothing personal, so a forwarded link reveals no address. */
export interface ManagedMeeting {
  /** Our reference, e.g. M-00017. */
  reference: string;
  date: string;
  time: string;
  language: Language;
  status: MeetingStatus;
  /**
   * Whether the link may still move or cancel it: false from `changeCutoffMinutes` before its
   * start (the page then says how to reach the office instead).
   */
  changeable: boolean;
  /** The admin's cut-off, in minutes before the start. */
  changeCutoffMinutes: number;
}
/** POST /api/meetings/schedule (201) */
export interface MeetingScheduledAnswer {
  success: true;
  data: Meeting;
}
/** GET /api/meetings/manage, POST /api/meetings/manage/cancel */
export interface ManagedMeetingAnswer {
  success: true;
  data: ManagedMeeting;
}
/** POST /api/meetings/manage/move: the moved meeting and the link token that now manages it. */
export interface MovedMeetingAnswer {
  success: true;
  data: ManagedMeeting & { token: string };
}
/** GET /api/admin/meetings; PATCH /api/admin/meetings/{id} answers one AdminMeeting. */
export type AdminMeetingsAnswer = AdminMeeting[];
