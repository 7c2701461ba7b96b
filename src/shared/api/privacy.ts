/** The admin's privacy tools: a person's data export and an erasure's counts. */
import type { Enquiry } from "./enquiries.ts";
import type { Meeting } from "./meetings.ts";
import type { MeetingSlot } from "./timeline.ts";
import type { LeadSource } from "../sources.ts";

/**
 * POST /api/admin/privacy/export: everything held about one email address, as the person may ask
 * for it (GDPR art. 15 and 20). Timestamps are ISO 8601 in UTC.
 */
/** An admin's internal note about the person, in their export. */
export interface ExportedNote {
  /** The enquiry or meeting it was written on (E-00042, M-00017). */
  reference: string;
  text: string;
  by: string;
  createdAt: string;
  updatedAt: string;
}

export interface PersonalDataExport {
  email: string;
  exportedAt: string;
  enquiries: (Omit<Enquiry, "language"> & {
    language: string;
    repliedAt: string | null;
    source: LeadSource | null;
  })[];
  meetings: (Omit<Meeting, "language"> & { language: string; source: LeadSource | null })[];
  /** The admins' internal notes about the person, oldest first. */
  notes: ExportedNote[];
  /** The conversation on their enquiries: replies sent ('out') and their answers ('in'), oldest first. */
  messages: {
    reference: string;
    direction: "out" | "in";
    from: string;
    to: string;
    subject: string;
    text: string;
    sentBy: string | null;
    createdAt: string;
  }[];
  /** Their enquiries' changes of stage, owner and follow-up date, oldest first. */
  leadEvents: {
    reference: string;
    kind: string;
    from: string | null;
    to: string | null;
    by: string | null;
    at: string;
  }[];
  /** Their meetings' moves and hand-overs: the slot before and after, by them or by staff, oldest first. */
  meetingChanges: {
    reference: string;
    from: MeetingSlot;
    to: MeetingSlot;
    by: "visitor" | "admin";
    /** The admin's username; null for the visitor. */
    staff: string | null;
    at: string;
  }[];
  newsletter: {
    email: string;
    language: string;
    signedUpAt: string;
    signedUpOnPage: string | null;
    confirmedAt: string | null;
    unsubscribedAt: string | null;
    isActive: boolean;
  }[];
  /** The lead desk's conversation on the person's enquiries: replies sent ('out') and their answers ('in'), text only. */
  leadMessages: {
    enquiryId: number;
    direction: "out" | "in";
    from: string;
    to: string;
    subject: string;
    text: string;
    createdAt: string;
  }[];
  /** Every email to, from or about the address (the text version; bodies are removed after the retention time). */
  emails: {
    kind: string;
    to: string;
    replyTo: string | null;
    subject: string;
    text: string;
    status: string;
    createdAt: string;
    sentAt: string | null;
  }[];
  /** Sign-in attempts to the admin panel that typed this address as the username. */
  loginAttempts: { key: string; attemptedAt: string }[];
  /** An admin account whose username is this address (not erased with the rest). */
  adminAccount: { username: string; createdAt: string } | null;
}

/** POST /api/admin/privacy/erase: how many of each kind of record the erasure changed. */
export interface ErasureAnswer {
  success: true;
  erased: { enquiries: number; meetings: number; newsletter: number; emails: number; loginAttempts: number };
}
