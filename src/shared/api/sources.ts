/** The answers of visit counting and the admin's Sources view (GET /api/admin/sources). */
import { addDays } from "../dates.ts";
import type { LeadSource } from "../sources.ts";

export type { LeadSource };

/** The charts of the Sources view; each is one query and one table (and one CSV). */
export const SOURCES_CHARTS = ["daily", "source", "campaign", "landing", "language", "pages", "referrers"] as const;
export type SourcesChart = (typeof SOURCES_CHARTS)[number];

/** One value of a breakdown (a source, a campaign, a landing page, a language) through the funnel. */
export interface FunnelRow {
  /** "" for none: a direct visit, no campaign, an unknown landing page. */
  key: string;
  visits: number;
  enquiries: number;
  /** Of those enquiries, the ones that left "new" (answered, or moved on). */
  replied: number;
  /** Of those enquiries, the ones that became clients. */
  clients: number;
  /** The clients' value, in euro cents (a client without a value counts 0). */
  clientValueCents: number;
  meetings: number;
  meetingsDone: number;
}

/** One office day of the range. */
export interface SourcesDay {
  /** yyyy-MM-dd, office time. */
  day: string;
  views: number;
  visits: number;
  enquiries: number;
  replied: number;
  clients: number;
  clientValueCents: number;
  meetings: number;
  meetingsDone: number;
}

/** A page by views, or a referrer by the visits it sent. */
export interface TopRow {
  key: string;
  views: number;
  visits: number;
}

/** A range of office days, both included (yyyy-MM-dd). */
export interface DayRange {
  from: string;
  to: string;
}

/** The longest range one request may ask for, in office days (a little over two years: the statistics' retention). */
export const MAX_RANGE_DAYS = 800;

/** How many office days a range holds, both ends included. */
export const rangeDays = ({ from, to }: DayRange): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** The period of the same length just before a range: what its figures are compared with. */
export function previousRange(range: DayRange): DayRange {
  return { from: addDays(range.from, -rangeDays(range)), to: addDays(range.from, -1) };
}

/**
 * A share as the Sources view shows it: `part` per `whole` (enquiries per visit, meetings per
 * enquiry), null when there is nothing to divide by.
 */
export const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/** GET /api/admin/sources?chart=…&from=…&to=… */
export interface SourcesAnswer {
  success: true;
  chart: SourcesChart;
  from: string;
  to: string;
  rows: FunnelRow[] | SourcesDay[] | TopRow[];
  /** The same chart for the period of the same length just before (previousRange), to compare with. */
  previous: DayRange & { rows: FunnelRow[] | SourcesDay[] | TopRow[] };
}
