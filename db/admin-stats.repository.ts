/**
 * The figures above the dashboard's tabs, in one statement: each is a count that an index answers
 * (created_at, the (stage, created_at) index and the answers of the leads waiting on us (db/waiting.ts), the meetings' slot index), and the "processed
 * within 2 working days" share joins the last 30 days' enquiries to their deadlines, which the
 * office rules give (src/shared/working-days.ts) and the query receives as a small array.
 * The counts of what the lists show (new, pending, next meetings) leave out an erased person's
 * records, as the lists do; the on-time share and the outcomes are history and keep them.
 */
import { type Kysely, sql } from "kysely";
import type { AdminStats } from "#shared/api/stats.ts";
import { addDays, isoWeekday, officeNow } from "#shared/dates.ts";
import type { OfficeRules } from "#shared/office.ts";
import { answerDeadlineDate } from "#shared/working-days.ts";
import { officeDayStart } from "./admin-rows.ts";
import type { Database } from "./types.ts";
import { waitingOnUs } from "./waiting.ts";

/** The days of enquiries the on-time share looks back over, today included. */
export const ON_TIME_WINDOW_DAYS = 30;

/** The one statement behind the figures (exported for the benchmark's query plan). */
export function adminStatsQuery(now: Date, rules: OfficeRules) {
  const office = officeNow(now, rules.timeZone);
  const weekStart = officeDayStart(addDays(office.date, 1 - isoWeekday(office.date)));
  const days = Array.from({ length: ON_TIME_WINDOW_DAYS }, (_, i) => addDays(office.date, i + 1 - ON_TIME_WINDOW_DAYS));
  const starts = days.map((day) => officeDayStart(day).toISOString());
  const ends = days.map((day) => officeDayStart(day, 1).toISOString());
  // An enquiry is in time when processed before the day after its deadline date begins.
  const deadlines = days.map((day) => officeDayStart(answerDeadlineDate(day, rules), 1).toISOString());

  return sql<{
    newThisWeek: string;
    pending: string;
    meetingsNext7Days: string;
    onTime: string;
    known: string;
    meetingsDone: string;
    meetingsNoShow: string;
  }>`
    WITH days (starts, ends, deadline) AS (
      SELECT * FROM unnest(${starts}::timestamptz[], ${ends}::timestamptz[], ${deadlines}::timestamptz[])
    ),
    window_enquiries AS (
      SELECT e.stage, e.replied_at, d.deadline
      FROM days AS d JOIN enquiries AS e ON e.created_at >= d.starts AND e.created_at < d.ends
    )
    SELECT
      (SELECT count(*) FROM enquiries WHERE created_at >= ${weekStart} AND anonymised_at IS NULL) AS new_this_week,
      (SELECT count(*) FROM enquiries WHERE ${waitingOnUs("enquiries")} AND anonymised_at IS NULL) AS pending,
      (SELECT count(*) FROM meetings
        WHERE (date, time) >= (${office.date}, ${office.time}) AND date <= ${addDays(office.date, 6)}
          AND cancelled_at IS NULL AND anonymised_at IS NULL) AS meetings_next7_days,
      (SELECT count(*) FROM window_enquiries WHERE replied_at <= deadline) AS on_time,
      (SELECT count(*) FROM window_enquiries
        WHERE replied_at IS NOT NULL OR (stage = 'new' AND deadline <= ${now})) AS known,
      (SELECT count(*) FILTER (WHERE outcome = 'done') FROM meetings
        WHERE date >= ${days[0]} AND date <= ${office.date} AND outcome IS NOT NULL) AS meetings_done,
      (SELECT count(*) FILTER (WHERE outcome = 'no-show') FROM meetings
        WHERE date >= ${days[0]} AND date <= ${office.date} AND outcome IS NOT NULL) AS meetings_no_show`;
}

export async function adminStats(db: Kysely<Database>, now: Date, rules: OfficeRules): Promise<AdminStats> {
  const {
    rows: [row],
  } = await adminStatsQuery(now, rules).execute(db);
  const known = Number(row.known);
  return {
    newThisWeek: Number(row.newThisWeek),
    pending: Number(row.pending),
    meetingsNext7Days: Number(row.meetingsNext7Days),
    processedOnTime: known ? Number(row.onTime) / known : null,
    processedOnTimeOf: known,
    windowDays: ON_TIME_WINDOW_DAYS,
    meetingsDone: Number(row.meetingsDone),
    meetingsNoShow: Number(row.meetingsNoShow),
  };
}
