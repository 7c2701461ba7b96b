/**
 * GET /api/admin/sources?chart=…&from=…&to=…: the figures behind one chart of the admin's Sources
 * view (db/sources.repository.ts), for a range of office days (at most MAX_RANGE_DAYS, both ends
 * included), with the same chart for the period of the same length just before it, to compare; with
 * `format=csv` the same table as a CSV download, its rates and the previous period's figures as
 * columns (the lead desk's replied, clients and their value in euros last). Admin only. An unknown or repeated parameter is a 400, as in the audit API.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { sourcesChart } from "#db/sources.repository.ts";
import {
  MAX_RANGE_DAYS,
  previousRange,
  rangeDays,
  rate,
  SOURCES_CHARTS,
  type FunnelRow,
  type SourcesAnswer,
  type SourcesChart,
  type SourcesDay,
  type TopRow,
} from "#shared/api/sources.ts";
import { isCalendarDate } from "#shared/dates.ts";
import { ROUTES } from "#shared/routes.ts";
import { requireAdmin } from "./_lib/auth/auth.ts";
import { csvResponse } from "./_lib/http/csv.ts";
import { HttpError, json, route } from "./_lib/http/http.ts";

const PARAMETERS = ["chart", "from", "to", "format"] as const;

function readQuery(url: URL): { chart: SourcesChart; from: string; to: string; csv: boolean } {
  const raw: Partial<Record<(typeof PARAMETERS)[number], string>> = {};
  for (const [name, value] of url.searchParams) {
    if (!(PARAMETERS as readonly string[]).includes(name))
      throw new HttpError(400, `Unknown parameter ${name.slice(0, 40)}`);
    if (Object.hasOwn(raw, name)) throw new HttpError(400, `${name} is given twice`);
    raw[name as (typeof PARAMETERS)[number]] = value;
  }
  const chart = raw.chart ?? "";
  if (!(SOURCES_CHARTS as readonly string[]).includes(chart)) {
    throw new HttpError(400, `chart must be one of ${SOURCES_CHARTS.join(", ")}`);
  }
  const from = raw.from ?? "";
  const to = raw.to ?? "";
  if (!isCalendarDate(from) || !isCalendarDate(to)) throw new HttpError(400, "from and to must be dates (yyyy-MM-dd)");
  if (from > to) throw new HttpError(400, "from must not be after to");
  if (rangeDays({ from, to }) > MAX_RANGE_DAYS) throw new HttpError(400, `A range is at most ${MAX_RANGE_DAYS} days`);
  const format = raw.format;
  if (format !== undefined && format !== "csv" && format !== "json")
    throw new HttpError(400, "format must be csv or json");
  return { chart: chart as SourcesChart, from, to, csv: format === "csv" };
}

/** A rate as a CSV cell: a decimal fraction to four places, empty when there is nothing to divide by. */
const rateCell = (part: number, whole: number) => {
  const r = rate(part, whole);
  return r === null ? "" : r.toFixed(4);
};

type Rows = SourcesAnswer["rows"];

/**
 * The CSV of one chart: each row with its rates and its figures in the previous period (the same
 * key; for days, the day at the same place in the previous period).
 */
function csvTable(chart: SourcesChart, rows: Rows, previous: Rows): string[][] {
  if (chart === "daily") {
    const days = rows as SourcesDay[];
    const before = previous as SourcesDay[];
    const figures = ["views", "visits", "enquiries", "meetings", "meetingsDone"] as const;
    return [
      [
        "day",
        ...figures,
        "enquiriesPerVisit",
        "meetingsPerEnquiry",
        "previousDay",
        ...figures.map(prefixed),
        ...LEAD_COLUMNS,
      ],
      ...days.map((d, i) => [
        d.day,
        ...figures.map((f) => String(d[f])),
        rateCell(d.enquiries, d.visits),
        rateCell(d.meetings, d.enquiries),
        before[i]?.day ?? "",
        ...figures.map((f) => String(before[i]?.[f] ?? 0)),
        ...leadCells(d, before[i]),
      ]),
    ];
  }
  if (chart === "pages" || chart === "referrers") {
    const before = new Map((previous as TopRow[]).map((r) => [r.key, r]));
    return [
      ["key", "views", "visits", "previousViews", "previousVisits"],
      ...(rows as TopRow[]).map((r) => [
        r.key,
        String(r.views),
        String(r.visits),
        String(before.get(r.key)?.views ?? 0),
        String(before.get(r.key)?.visits ?? 0),
      ]),
    ];
  }
  const before = new Map((previous as FunnelRow[]).map((r) => [r.key, r]));
  const figures = ["visits", "enquiries", "meetings", "meetingsDone"] as const;
  return [
    ["key", ...figures, "enquiriesPerVisit", "meetingsPerEnquiry", ...figures.map(prefixed), ...LEAD_COLUMNS],
    ...(rows as FunnelRow[]).map((r) => [
      r.key,
      ...figures.map((f) => String(r[f])),
      rateCell(r.enquiries, r.visits),
      rateCell(r.meetings, r.enquiries),
      ...figures.map((f) => String(before.get(r.key)?.[f] ?? 0)),
      ...leadCells(r, before.get(r.key)),
    ]),
  ];
}

/** The lead desk's columns, after the earlier ones (a sheet reading those by position still works). */
const LEAD_COLUMNS = [
  "replied",
  "clients",
  "clientValueEur",
  "repliedPerEnquiry",
  "clientsPerEnquiry",
  "previousReplied",
  "previousClients",
  "previousClientValueEur",
];

/** Euro cents as a CSV cell: euros with two decimals ("12000.00"), exact for any sum of cents. */
const euros = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

type LeadFigures = Pick<FunnelRow, "enquiries" | "replied" | "clients" | "clientValueCents">;

function leadCells(r: LeadFigures, before: LeadFigures | undefined): string[] {
  return [
    String(r.replied),
    String(r.clients),
    euros(r.clientValueCents),
    rateCell(r.replied, r.enquiries),
    rateCell(r.clients, r.enquiries),
    String(before?.replied ?? 0),
    String(before?.clients ?? 0),
    euros(before?.clientValueCents ?? 0),
  ];
}

const prefixed = (name: string) => `previous${name[0].toUpperCase()}${name.slice(1)}`;

export default route({
  GET: async (req) => {
    const db = getDb();
    await requireAdmin(db, req);
    const { chart, from, to, csv } = readQuery(new URL(req.url));
    const before = previousRange({ from, to });
    const [rows, previous] = await Promise.all([
      sourcesChart(db, chart, from, to),
      sourcesChart(db, chart, before.from, before.to),
    ]);
    if (csv) return csvResponse(csvTable(chart, rows, previous), `sources-${chart}-${from}-${to}.csv`);
    return json<SourcesAnswer>({ success: true, chart, from, to, rows, previous: { ...before, rows: previous } });
  },
});

export const config: Config = { path: ROUTES.admin.sources };
