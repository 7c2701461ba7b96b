/** The answers of visit counting and the admin's Sources view (GET /api/admin/sources). */
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
  meetings: number;
  meetingsDone: number;
}

/** A page by views, or a referrer by the visits it sent. */
export interface TopRow {
  key: string;
  views: number;
  visits: number;
}

/** GET /api/admin/sources?chart=…&from=…&to=… */
export interface SourcesAnswer {
  success: true;
  chart: SourcesChart;
  from: string;
  to: string;
  rows: FunnelRow[] | SourcesDay[] | TopRow[];
}
