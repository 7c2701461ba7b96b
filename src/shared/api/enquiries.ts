/** Enquiries: the visitor's form (POST /api/contact) and the admin's list. */
import type { Language } from "../languages.ts";
import type { LeadStage } from "../leads.ts";
import type { LeadSource } from "../sources.ts";
import type { EmailStatus } from "./common.ts";
import type { AdminNote } from "./notes.ts";

/** A visitor's enquiry, sent with the enquiry form on the contact section. */
export interface Enquiry {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  /** A catalogue id (src/shared/services.ts) or any other non-empty value, which the API accepts. */
  service: string;
  message: string;
  /** The visitor's language: every email about the enquiry speaks it. */
  language: Language;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** Where the lead is on the desk (src/shared/leads.ts); a new enquiry is "new". */
  stage: LeadStage;
}

/** An enquiry as the admin lists (and PATCH answers) show it: a lead on the desk. */
export interface AdminEnquiry extends Enquiry {
  /** Our reference, e.g. E-00042 (enquiryReference of src/shared/leads.ts). */
  reference: string;
  emailStatus: EmailStatus | null;
  /** When it first left "new", i.e. was answered (ISO 8601, UTC); null while new or when that was never recorded. */
  repliedAt: string | null;
  /** When its stage last changed (ISO 8601, UTC). */
  stageChangedAt: string;
  /** The admin account that looks after it (users.id), or null. */
  ownerId: number | null;
  /** Why it was lost (a LostReason id); set exactly when the stage is "lost". */
  lostReasonId: number | null;
  /** The service won (a catalogue id of src/shared/services.ts); set exactly when the stage is "client". */
  clientService: string | null;
  /** What the client is worth in euro cents, when known (only for a client). */
  clientValueCents: number | null;
  /** The day to look at it again (yyyy-MM-dd, office calendar), or null. */
  followUpOn: string | null;
  /** Bumped by every change of stage, owner or follow-up date; a change names the version it was based on. */
  version: number;
  note: AdminNote | null;
  /** Where it came from (the visit's first touch, the page of sending); null when nothing is known. */
  source: LeadSource | null;
}
/** POST /api/contact (201) */
export interface EnquiryCreatedAnswer {
  success: true;
  id: number;
  /** Our reference, e.g. E-00042: the form's success names it and the acknowledgement email quotes it. */
  reference: string;
}
/** GET /api/admin/submissions; PATCH /api/admin/submissions/{id} answers one AdminEnquiry. */
export type AdminEnquiriesAnswer = AdminEnquiry[];

/** GET /api/admin/leads/board: each stage's count and newest leads, in board order. */
export interface LeadBoard {
  columns: { stage: LeadStage; count: number; items: AdminEnquiry[] }[];
}

/** A reason a lead was lost, with its label in each language; an archived one is no longer offered. */
export interface LostReason {
  id: number;
  labels: Record<Language, string>;
  archived: boolean;
}

/** One change in a lead's timeline (GET /api/admin/submissions/{id}/events). */
export interface LeadEvent {
  kind: "stage" | "owner" | "follow_up";
  /** The stage, the owner's user id or the date before and after (as text); null for none. */
  from: string | null;
  to: string | null;
  /** The username of the admin who made the change (as it was then). */
  by: string | null;
  /** ISO 8601, UTC. */
  at: string;
}

/**
 * PATCH /api/admin/submissions/{id}, 409 code "leadChanged": the lead changed since `version` was
 * read; `current` is the lead as it is now and `by` who changed it last.
 */
export interface LeadConflictAnswer {
  success: false;
  message: string;
  code: "leadChanged";
  current: AdminEnquiry;
  by: string | null;
}
