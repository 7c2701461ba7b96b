/**
 * GET /api/admin/people/{ref}: one person's timeline, found from one of their records (E-00042,
 * M-00017) by its email address, matched whole and in any case (as an erasure matches it).
 * Timestamps are ISO 8601, UTC.
 */
import type { LeadStage } from "../leads.ts";

/** The most items one answer (a page) holds, newest first; `next` pages on to the older ones. */
export const TIMELINE_LIMIT = 200;

/** An admin's note about the person, written on one of their records. */
export interface PersonNote {
  id: string;
  /** The enquiry or meeting it was written on. */
  reference: string;
  text: string;
  by: string;
  /** Written by the signed-in admin: only they may edit or delete it. */
  mine: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A meeting's slot before or after a move: office-local yyyy-MM-dd and HH:mm, and its consultant's id. */
export interface MeetingSlot {
  date: string;
  time: string;
  consultant: string;
}

export type TimelineItem =
  | {
      kind: "enquiry";
      at: string;
      reference: string;
      service: string;
      stage: LeadStage;
      owner: string | null;
      /** The first line of their message. */
      excerpt: string;
    }
  | {
      kind: "meeting";
      at: string;
      reference: string;
      /** Office-local slot, where the meeting is now: yyyy-MM-dd and HH:mm. */
      date: string;
      time: string;
      /** It has moved since it was booked (its meeting-moved items say from where). */
      moved: boolean;
      confirmed: boolean;
      cancelledAt: string | null;
      cancelledBy: "admin" | "visitor" | null;
      outcome: string | null;
    }
  | {
      /** The meeting moved to another time, or was handed to another consultant (the time kept). */
      kind: "meeting-moved";
      at: string;
      reference: string;
      from: MeetingSlot;
      to: MeetingSlot;
      /** The visitor (on the page their emails link to) or an admin in the panel. */
      by: "visitor" | "admin";
      /** The admin's username as it was then; null for the visitor. */
      staff: string | null;
    }
  | { kind: "meeting-cancelled"; at: string; reference: string; by: "admin" | "visitor" | null }
  | { kind: "meeting-outcome"; at: string; reference: string; outcome: string; by: string | null }
  | {
      kind: "email";
      at: string;
      /** The record it was about, if any. */
      reference: string | null;
      /** The template's name, e.g. enquiry.visitor, meeting.moved. */
      type: string;
      subject: string;
      status: string;
      sentAt: string | null;
    }
  | {
      kind: "message";
      at: string;
      reference: string;
      /** in: from the person; out: a reply sent to them from the panel. */
      direction: "in" | "out";
      subject: string;
      text: string;
      by: string | null;
    }
  | { kind: "note"; at: string; note: PersonNote }
  | {
      kind: "change";
      at: string;
      reference: string;
      change: "stage" | "owner" | "follow_up";
      /** A stage, an owner's username or a date (yyyy-MM-dd); null for none. */
      from: string | null;
      to: string | null;
      by: string | null;
    };

export interface PersonTimelineAnswer {
  person: {
    name: string;
    email: string;
    /** The reference the page was opened with. */
    reference: string;
    /** The record was erased or anonymised: nothing more is known of the person. */
    erased: boolean;
  };
  /** Newsletter: none, pending (not confirmed), active or unsubscribed. */
  newsletter: { status: "none" | "pending" | "active" | "unsubscribed"; since: string | null };
  /** Newest first, at most TIMELINE_LIMIT. */
  items: TimelineItem[];
  /** Older items were left out: ask again with `?before=<next>` for them. */
  truncated: boolean;
  /** The cursor of the older page (an instant, ISO 8601: items strictly before it), or null at the oldest. */
  next: string | null;
}

/** POST /api/admin/people/{ref}/notes, PATCH /api/admin/notes/{id}: the note written or edited. */
export interface NoteAnswer {
  note: PersonNote;
}
