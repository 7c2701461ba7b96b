/** Enquiries: the visitor's form (POST /api/contact) and the admin's list. */
import type { Language } from "../languages.ts";
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
  isProcessed: boolean;
}

/** An enquiry as the admin lists (and PATCH answers) show it. */
export interface AdminEnquiry extends Enquiry {
  emailStatus: EmailStatus | null;
  /** When it was marked processed (ISO 8601, UTC); null while pending or when that was never recorded. */
  processedAt: string | null;
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
