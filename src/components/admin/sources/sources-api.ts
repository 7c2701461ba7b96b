/** The Sources view's calls: one chart's rows with the period before's, and the address of its CSV. */
import type { DayRange, FunnelRow, SourcesAnswer, SourcesChart, SourcesDay, TopRow } from "#shared/api/sources.ts";
import { ROUTES, withQuery } from "#shared/routes.ts";
import { adminRequest } from "../api.ts";

export type Range = DayRange;

export type RowsOf<C extends SourcesChart> = C extends "daily"
  ? SourcesDay[]
  : C extends "pages" | "referrers"
    ? TopRow[]
    : FunnelRow[];

/** One chart's rows for a range, and for the period of the same length just before it. */
export interface ChartRows<C extends SourcesChart> {
  rows: RowsOf<C>;
  previous: Range & { rows: RowsOf<C> };
}

export const chartUrl = (chart: SourcesChart, range: Range, format?: "csv") =>
  withQuery(ROUTES.admin.sources, { chart, ...range, ...(format ? { format } : {}) });

export async function fetchChart<C extends SourcesChart>(chart: C, range: Range): Promise<ChartRows<C>> {
  const answer = await adminRequest<SourcesAnswer>("GET", chartUrl(chart, range));
  return answer as unknown as ChartRows<C>;
}
