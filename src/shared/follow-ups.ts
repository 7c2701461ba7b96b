/**
 * Follow-ups that never slip (issue 42): what is due for the office, and when the morning digest
 * goes out. A lead is due when its follow-up date has come (office time) while it is still open,
 * or when it has been waiting on us (waitingSince) past the answer time of working-days.ts. The
 * list's "waiting on us" and "overdue" filters, the dashboard's Due panel, GET /api/admin/due and
 * the owners' digest all read these (db/waiting.ts is the same rule in SQL).
 */
import { officeNow, toMinutes } from "./dates.ts";
import { OPEN_STAGES, personPath, type LeadStage } from "./leads.ts";
import type { OfficeRules } from "./office.ts";
import { isWorkingDay } from "./working-days.ts";

/**
 * Since when a lead waits on us, or null when it does not: from its enquiry until a reply (stage
 * new), and again, while it is open, from the lead's oldest answer that no reply of ours followed
 * (`unansweredSince`), as Front and Help Scout reopen a conversation the customer answers. A won or
 * lost lead that writes back is not waiting (moving a lead to lost is how staff close a thread).
 */
export function waitingSince(lead: { stage: LeadStage; createdAt: Date; unansweredSince: Date | null }): Date | null {
  if (lead.stage === "new") return lead.createdAt;
  return OPEN_STAGES.includes(lead.stage) ? lead.unansweredSince : null;
}

/** When the digest goes out, office time, on working days. */
export const DIGEST_TIME = "08:30";

/** Why a lead is due: its follow-up date has come, or its answer is overdue. */
export type DueReason = "followUp" | "overdue";

/**
 * The office day whose digest is due at `now`: today, from DIGEST_TIME on, when today is a working
 * day (office hours, closures and holidays as the answer time counts them); otherwise null.
 */
export function digestDay(now: Date, rules: OfficeRules): string | null {
  const { date, time } = officeNow(now, rules.timeZone);
  return isWorkingDay(date, rules) && toMinutes(time) >= toMinutes(DIGEST_TIME) ? date : null;
}

/** One due lead as the Due panel and the digest show it. */
export interface DueLead {
  id: number;
  /** E-00042 */
  reference: string;
  /** The lead's name; empty once anonymised (such leads are never due). */
  name: string;
  reasons: DueReason[];
  /** yyyy-MM-dd, when its follow-up date is set. */
  followUpOn: string | null;
  /** When it came in (ISO). */
  receivedAt: string;
  /** The last day its answer was in time (yyyy-MM-dd), when it is overdue. */
  answerDueBy: string | null;
  ownerId: number | null;
  ownerName: string | null;
}

/** The most due leads one answer lists (the oldest first); `more` says there were others. */
export const MAX_DUE = 50;

/** GET /api/admin/due */
export interface DueAnswer {
  success: true;
  /** Today, office time (yyyy-MM-dd). */
  today: string;
  leads: DueLead[];
  more: boolean;
}

/** The panel's page of the lead's person, opened by the reference (the digest and the Due panel link to it). */
export const leadLink = personPath;
