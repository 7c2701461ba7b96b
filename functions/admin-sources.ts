/**
 * GET /api/admin/sources?chart=…&from=…&to=…: the figures behind one chart of the admin's Sources
 * view (db/sources.repository.ts), for a range of office days (at most MAX_RANGE_DAYS); with
 * `format=csv` the same table as a CSV download. Admin only.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { sourcesChart } from "#db/sources.repository.ts";
import { SOURCES_CHARTS, type SourcesAnswer, type SourcesChart } from "#shared/api/sources.ts";
import { addDays, isCalendarDate } from "#shared/dates.ts";
import { ROUTES } from "#shared/routes.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { csvResponse } from "./_lib/http/csv.ts";
import { HttpError, json, route } from "./_lib/http/http.ts";

/** The longest range one request may ask for (a little over two years: the statistics' retention). */
export const MAX_RANGE_DAYS = 800;

/** The CSV's columns per chart: header and the row's value. */
const CSV_COLUMNS: Record<SourcesChart, string[]> = {
  daily: ["day", "views", "visits", "enquiries", "meetings", "meetingsDone"],
  source: ["key", "visits", "enquiries", "meetings", "meetingsDone"],
  campaign: ["key", "visits", "enquiries", "meetings", "meetingsDone"],
  landing: ["key", "visits", "enquiries", "meetings", "meetingsDone"],
  language: ["key", "visits", "enquiries", "meetings", "meetingsDone"],
  pages: ["key", "views", "visits"],
  referrers: ["key", "views", "visits"],
};

function readQuery(url: URL): { chart: SourcesChart; from: string; to: string; csv: boolean } {
  const chart = url.searchParams.get("chart") ?? "";
  if (!(SOURCES_CHARTS as readonly string[]).includes(chart)) {
    throw new HttpError(400, `chart must be one of ${SOURCES_CHARTS.join(", ")}`);
  }
  const from = url.searchParams.get("from") ?? "";
  const to = url.searchParams.get("to") ?? "";
  if (!isCalendarDate(from) || !isCalendarDate(to)) throw new HttpError(400, "from and to must be dates (yyyy-MM-dd)");
  if (from > to) throw new HttpError(400, "from must not be after to");
  if (addDays(from, MAX_RANGE_DAYS) < to) throw new HttpError(400, `A range is at most ${MAX_RANGE_DAYS} days`);
  const format = url.searchParams.get("format");
  if (format !== null && format !== "csv" && format !== "json") throw new HttpError(400, "format must be csv or json");
  return { chart: chart as SourcesChart, from, to, csv: format === "csv" };
}

export default route({
  GET: async (req) => {
    const db = getDb();
    await requireAdmin(db, req);
    const { chart, from, to, csv } = readQuery(new URL(req.url));
    const rows = await sourcesChart(db, chart, from, to);
    if (csv) {
      const columns = CSV_COLUMNS[chart];
      const table = rows.map((row) => columns.map((c) => String((row as unknown as Record<string, unknown>)[c])));
      return csvResponse([columns, ...table], `sources-${chart}-${from}-${to}.csv`);
    }
    return json<SourcesAnswer>({ success: true, chart, from, to, rows });
  },
});

export const config: Config = { path: ROUTES.admin.sources };
