/** The Sources view's calls: one chart's rows, and the address of its CSV. */
import type { FunnelRow, SourcesAnswer, SourcesChart, SourcesDay, TopRow } from "#shared/api/sources.ts";
import { ROUTES, withQuery } from "#shared/routes.ts";
import { adminRequest } from "../api.ts";

export interface Range {
  from: string;
  to: string;
}

type RowsOf<C extends SourcesChart> = C extends "daily"
  ? SourcesDay[]
  : C extends "pages" | "referrers"
    ? TopRow[]
    : FunnelRow[];

export const chartUrl = (chart: SourcesChart, range: Range, format?: "csv") =>
  withQuery(ROUTES.admin.sources, { chart, ...range, ...(format ? { format } : {}) });

export async function fetchChart<C extends SourcesChart>(chart: C, range: Range): Promise<RowsOf<C>> {
  const answer = await adminRequest<SourcesAnswer>("GET", chartUrl(chart, range));
  return answer.rows as RowsOf<C>;
}
