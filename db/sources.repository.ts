import { type Insertable, type Kysely, type RawBuilder, sql } from "kysely";
import type { FunnelRow, SourcesChart, SourcesDay, TopRow } from "#shared/api/sources.ts";
import type { LeadSource } from "#shared/sources.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { officeDayStart } from "./admin-rows.ts";
import type { Database, PageViewKeysTable, PageViewsTable } from "./types.ts";

// Counted views and the Sources view's figures. A view is one row of page_views until its day is
// over; the retention run then folds the day into page_view_days (counts per day and dimensions)
// and deletes its rows in the same transaction, so every figure reads both tables and counts each
// view exactly once. No row holds an identifier: no address, no cookie, no hash of either.

/** One view as stored: every column of page_views but its id; '' stands for "none" in every text column. */
export type NewView = Omit<Insertable<PageViewsTable>, "id">;

/** The per-address limit a view is counted under (null: not limited). */
export interface ViewLimit {
  key: string;
  windowSeconds: number;
  limit: number;
}

/**
 * Stores a view in ONE statement, counting it against the address's limit in the same statement:
 * over the limit nothing is stored. Answers whether it was stored.
 */
export async function recordView(
  db: Kysely<Database>,
  view: NewView,
  limit: ViewLimit | null,
  nowMs = Date.now(),
): Promise<boolean> {
  const values = sql.join([
    view.day,
    view.entry,
    view.path,
    view.lang,
    view.referrer,
    view.utmSource,
    view.utmMedium,
    view.utmCampaign,
    view.device,
    view.country,
  ]);
  const columns = sql`(day, entry, path, lang, referrer, utm_source, utm_medium, utm_campaign, device, country)`;
  if (!limit) {
    const { rows } = await sql`INSERT INTO page_views ${columns} VALUES (${values}) RETURNING id`.execute(db);
    return rows.length === 1;
  }
  const size = limit.windowSeconds * 1000;
  const start = Math.floor(nowMs / size) * size;
  const { rows } = await sql`
    WITH hit AS (
      INSERT INTO rate_counters (key, window_start, hits, expires_at)
      VALUES (${limit.key}, ${new Date(start).toISOString()}::timestamptz, 1, ${new Date(start + 2 * size).toISOString()}::timestamptz)
      ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_counters.hits + 1
      RETURNING hits
    )
    INSERT INTO page_views ${columns}
    SELECT ${values} WHERE (SELECT hits FROM hit) <= ${limit.limit}
    RETURNING id
  `.execute(db);
  return rows.length === 1;
}

/** Each dimension a chart reads, as the key of a view's row: an expression over page_views' columns ('all': the day's totals). */
const VIEW_KEY: Record<PageViewKeysTable["dim"], RawBuilder<string>> = {
  all: sql`''`,
  source: sql`CASE WHEN utm_source <> '' THEN utm_source ELSE referrer END`,
  campaign: sql`utm_campaign`,
  path: sql`path`,
  lang: sql`lang`,
  referrer: sql`referrer`,
};

/** Every dimension of a view's row at once (a LATERAL of one row per dimension): what the rollup folds. */
const VIEW_KEYS = sql`(VALUES ${sql.join(
  Object.entries(VIEW_KEY).map(([dim, key]) => sql`(${sql.lit(dim)}, ${key})`),
)}) AS k(dim, key)`;

/**
 * Folds every view of a day before `today` into page_view_days (every dimension together) and
 * page_view_keys (each dimension a chart reads, apart), and deletes those views, in one statement (a
 * failed run changes nothing; a second run finds nothing). Returns how many views.
 */
export async function rollUpViews(db: Kysely<Database>, today: string): Promise<number> {
  // One statement: the DELETE and the INSERTs of its rows' counts commit together or not at all.
  const { rows } = await sql<{ count: string }>`
    WITH gone AS (
      DELETE FROM page_views WHERE day < ${today}::date
      RETURNING day, entry, path, lang, referrer, utm_source, utm_medium, utm_campaign, device, country
    ), folded AS (
      INSERT INTO page_view_days AS d
        (day, path, lang, referrer, utm_source, utm_medium, utm_campaign, device, country, views, visits)
      SELECT day, path, lang, referrer, utm_source, utm_medium, utm_campaign, device, country,
             count(*), count(*) FILTER (WHERE entry)
      FROM gone
      GROUP BY day, path, lang, referrer, utm_source, utm_medium, utm_campaign, device, country
      ON CONFLICT (day, path, lang, referrer, utm_source, utm_medium, utm_campaign, device, country)
      DO UPDATE SET views = d.views + excluded.views, visits = d.visits + excluded.visits
      RETURNING 1
    ), keyed AS (
      INSERT INTO page_view_keys AS p (day, dim, key, views, visits)
      SELECT day, k.dim, k.key, count(*), count(*) FILTER (WHERE entry)
      FROM gone, LATERAL ${VIEW_KEYS}
      GROUP BY 1, 2, 3
      ON CONFLICT (dim, day, key) DO UPDATE SET views = p.views + excluded.views, visits = p.visits + excluded.visits
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone) AS count, (SELECT count(*) FROM folded) AS folded,
           (SELECT count(*) FROM keyed) AS keyed
  `.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/** Deletes the daily counts older than `months` before `at` (office days); returns how many rows. */
export async function pruneViewDays(db: Kysely<Database>, at: Date, months: number): Promise<number> {
  const before = sql<string>`((${at.toISOString()}::timestamptz - make_interval(months => ${months})) AT TIME ZONE ${OFFICE_TIME_ZONE}::text)::date`;
  await db.deleteFrom("pageViewKeys").where("day", "<", before).execute();
  const result = await db.deleteFrom("pageViewDays").where("day", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Views and visits per value of one dimension over a range of office days: the rolled-up days of
 * page_view_keys and the views not yet rolled up (today's), counted alike; `where` filters on `key`.
 * Columns: key, views, visits. The raw views are read for their one dimension's key, not expanded
 * into every dimension and filtered (today's views are most of a chart's time).
 */
const keysIn = (dim: PageViewKeysTable["dim"], from: string, to: string, where = sql``) => sql`(
  SELECT key, sum(views) AS views, sum(visits) AS visits FROM (
    SELECT key, views, visits FROM page_view_keys
    WHERE dim = ${dim} AND day BETWEEN ${from}::date AND ${to}::date
    UNION ALL
    SELECT ${VIEW_KEY[dim]}, 1, entry::int FROM page_views
    WHERE day BETWEEN ${from}::date AND ${to}::date
  ) AS u WHERE true ${where} GROUP BY key
)`;

/** A lead's source (utm_source, else referrer host) as the views' one. */
const leadSourceKey = sql`coalesce(nullif(source->>'utmSource', ''), nullif(source->>'referrer', ''), '')`;

/** For each breakdown: its dimension among views (of visits only: a visit's landing page) and its key among leads. */
const BREAKDOWNS: Record<
  "source" | "campaign" | "landing" | "language",
  { dim: PageViewKeysTable["dim"]; lead: RawBuilder<unknown> }
> = {
  source: { dim: "source", lead: leadSourceKey },
  campaign: { dim: "campaign", lead: sql`coalesce(source->>'utmCampaign', '')` },
  landing: { dim: "path", lead: sql`coalesce(source->>'landing', '')` },
  language: { dim: "lang", lead: sql`language` },
};

/** The first instant of `from` and the first after `to`, office time: leads are counted by when they came. */
const leadSpan = (from: string, to: string) => [officeDayStart(from), officeDayStart(to, 1)] as const;

const MAX_ROWS = 100;

/**
 * The enquiries of a group and how far they went: replied (they left "new": answered, or moved on
 * without a reply), became clients, and the clients' value in euro cents (a sum of integers, bigint
 * in SQL: no overflow however many clients). Counted by when the enquiry came, as every lead figure.
 */
const LEAD_COUNTS = sql`count(*) AS enquiries, count(*) FILTER (WHERE stage <> 'new') AS replied,
  count(*) FILTER (WHERE stage = 'client') AS clients,
  coalesce(sum(client_value_cents) FILTER (WHERE stage = 'client'), 0) AS value`;

type LeadCounts = { enquiries: string; replied: string; clients: string; value: string };

const leadCounts = (r: LeadCounts) => ({
  enquiries: Number(r.enquiries),
  replied: Number(r.replied),
  clients: Number(r.clients),
  clientValueCents: Number(r.value),
});

/** Visits → enquiries → replied → clients (and their value), meetings, meetings done, per value of one breakdown, most visits first. */
async function breakdown(
  db: Kysely<Database>,
  kind: keyof typeof BREAKDOWNS,
  from: string,
  to: string,
): Promise<FunnelRow[]> {
  const { dim, lead } = BREAKDOWNS[kind];
  const [start, end] = leadSpan(from, to);
  const { rows } = await sql<LeadCounts & { key: string; visits: string; meetings: string; done: string }>`
    WITH v AS (
      SELECT key, visits FROM ${keysIn(dim, from, to)} AS v WHERE visits > 0
    ), e AS (
      SELECT ${lead} AS key, ${LEAD_COUNTS} FROM enquiries
      WHERE created_at >= ${start} AND created_at < ${end} GROUP BY 1
    ), m AS (
      SELECT ${lead} AS key, count(*) AS meetings, count(*) FILTER (WHERE outcome = 'done') AS done FROM meetings
      WHERE created_at >= ${start} AND created_at < ${end} GROUP BY 1
    )
    SELECT key, coalesce(v.visits, 0) AS visits, coalesce(e.enquiries, 0) AS enquiries,
           coalesce(e.replied, 0) AS replied, coalesce(e.clients, 0) AS clients, coalesce(e.value, 0) AS value,
           coalesce(m.meetings, 0) AS meetings, coalesce(m.done, 0) AS done
    FROM v FULL JOIN e USING (key) FULL JOIN m USING (key)
    ORDER BY 2 DESC, 4 DESC, 3 DESC, 1
    LIMIT ${MAX_ROWS}
  `.execute(db);
  return rows.map((r) => ({
    key: r.key,
    visits: Number(r.visits),
    ...leadCounts(r),
    meetings: Number(r.meetings),
    meetingsDone: Number(r.done),
  }));
}

/** Per office day of the range: visits, views, enquiries (replied, clients, value), meetings, meetings done. */
async function daily(db: Kysely<Database>, from: string, to: string): Promise<SourcesDay[]> {
  const [start, end] = leadSpan(from, to);
  const { rows } = await sql<
    LeadCounts & { day: string; views: string; visits: string; meetings: string; done: string }
  >`
    WITH days AS (SELECT generate_series(${from}::date, ${to}::date, interval '1 day')::date AS day),
    v AS (
      SELECT day, sum(views) AS views, sum(visits) AS visits FROM (
        SELECT day, views, visits FROM page_view_keys WHERE dim = 'all' AND day BETWEEN ${from}::date AND ${to}::date
        UNION ALL
        SELECT day, 1, entry::int FROM page_views WHERE day BETWEEN ${from}::date AND ${to}::date
      ) AS u GROUP BY day
    ),
    e AS (
      SELECT (created_at AT TIME ZONE ${OFFICE_TIME_ZONE}::text)::date AS day, ${LEAD_COUNTS} FROM enquiries
      WHERE created_at >= ${start} AND created_at < ${end} GROUP BY 1
    ), m AS (
      SELECT (created_at AT TIME ZONE ${OFFICE_TIME_ZONE}::text)::date AS day, count(*) AS meetings,
             count(*) FILTER (WHERE outcome = 'done') AS done FROM meetings
      WHERE created_at >= ${start} AND created_at < ${end} GROUP BY 1
    )
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day, coalesce(v.views, 0) AS views, coalesce(v.visits, 0) AS visits,
           coalesce(e.enquiries, 0) AS enquiries, coalesce(e.replied, 0) AS replied, coalesce(e.clients, 0) AS clients,
           coalesce(e.value, 0) AS value, coalesce(m.meetings, 0) AS meetings, coalesce(m.done, 0) AS done
    FROM days LEFT JOIN v USING (day) LEFT JOIN e USING (day) LEFT JOIN m USING (day)
    ORDER BY days.day
  `.execute(db);
  return rows.map((r) => ({
    day: r.day,
    views: Number(r.views),
    visits: Number(r.visits),
    ...leadCounts(r),
    meetings: Number(r.meetings),
    meetingsDone: Number(r.done),
  }));
}

/** The most viewed pages, or the referrers that sent the most visits. */
async function top(db: Kysely<Database>, kind: "pages" | "referrers", from: string, to: string): Promise<TopRow[]> {
  const counted = kind === "pages" ? keysIn("path", from, to) : keysIn("referrer", from, to, sql`AND key <> ''`);
  const { rows } = await sql<{ key: string; views: string; visits: string }>`
    SELECT key, views, visits FROM ${counted} AS v ORDER BY 2 DESC, 1 LIMIT ${MAX_ROWS}
  `.execute(db);
  return rows.map((r) => ({ key: r.key, views: Number(r.views), visits: Number(r.visits) }));
}

/** The figures behind one chart of the Sources view, for office days `from` to `to` (both included). */
export async function sourcesChart(
  db: Kysely<Database>,
  chart: SourcesChart,
  from: string,
  to: string,
): Promise<FunnelRow[] | SourcesDay[] | TopRow[]> {
  switch (chart) {
    case "daily":
      return daily(db, from, to);
    case "pages":
    case "referrers":
      return top(db, chart, from, to);
    default:
      return breakdown(db, chart, from, to);
  }
}

/** A stored source column as the API shows it (null, or every key present). */
export function toLeadSource(value: unknown): LeadSource | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const text = (key: string) => (typeof v[key] === "string" && v[key] !== "" ? (v[key] as string) : null);
  return {
    page: text("page"),
    landing: text("landing"),
    referrer: text("referrer"),
    utmSource: text("utmSource"),
    utmMedium: text("utmMedium"),
    utmCampaign: text("utmCampaign"),
    heard: text("heard"),
  };
}
