/**
 * Follow-ups that never slip (issue 42): what is due for the office, and when the morning digest
 * goes out. A lead is due when its follow-up date has come (office time) while it is still open,
 * or when it has been waiting on us (stage new) past the answer time of working-days.ts. The
 * dashboard's Due panel, GET /api/admin/due and the owners' digest all read these.
 */
import { officeNow, toMinutes } from "./dates.ts";
import { personPath } from "./leads.ts";
import type { OfficeRules } from "./office.ts";
import { isWorkingDay } from "./working-days.ts";

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
