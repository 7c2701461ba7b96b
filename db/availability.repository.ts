/**
 * The office's editable availability: opening hours per weekday, company closures and whether the
 * Dutch public holidays close the office. The admin edits them; every booking decision reads them
 * (src/shared/office.ts has the rules' meaning, server/office.ts adds the environment's part).
 *
 * Reads are one statement each, with no cache: with several function instances a cache would need
 * a version check per request anyway, which costs the same round trip as reading these few rows.
 * A booking day's rules come in the same statement as each consultant's own (db/consultants.repository.ts).
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { BookingRules, OfficeClosure } from "#shared/api/availability.ts";
import type { BusyInterval } from "#shared/booking.ts";
import {
  defaultGuardrails,
  defaultMeetingPlace,
  type BookingGuardrails,
  type IsoWeekday,
  type OpeningHours,
} from "#shared/office.ts";
import type { AvailabilityPayload, ClosurePayload } from "#shared/schemas/availability.ts";
import { isSerialId } from "./rows.ts";
import type { Database } from "./types.ts";

/** What the database holds of the office rules. */
export interface StoredAvailability {
  hours: OpeningHours[];
  closures: OfficeClosure[];
  publicHolidays: boolean;
  guardrails: BookingGuardrails;
}

type Row = {
  hours: OpeningHours[] | null;
  closures: OfficeClosure[] | null;
  publicHolidays: boolean | null;
  guardrails: BookingGuardrails | null;
};

// The office's rules: hours, the closures of the whole office that can matter from `from` on (yearly
// ones and those not over yet; a consultant's own are theirs, db/consultants.repository.ts), settings.
export const rulesColumns = (from: string, to: string) => sql`
  (SELECT json_agg(json_build_object('weekday', weekday, 'opens', opens, 'closes', closes) ORDER BY weekday, opens)
     FROM office_hours) AS hours,
  (SELECT json_agg(json_build_object('id', id, 'from', starts_on, 'to', ends_on, 'yearly', yearly, 'note', note)
                   ORDER BY starts_on, id)
     FROM office_closures
    WHERE consultant_id IS NULL AND (yearly OR (ends_on >= ${from} AND starts_on <= ${to}))) AS closures,
  (SELECT public_holidays FROM office_settings) AS "publicHolidays",
  (SELECT json_build_object('noticeMinutes', notice_minutes, 'bufferBeforeMinutes', buffer_before_minutes,
            'bufferAfterMinutes', buffer_after_minutes, 'dailyLimit', daily_limit,
            'changeCutoffMinutes', change_cutoff_minutes)
     FROM office_settings) AS guardrails,
  (SELECT json_build_object('meetingPlace', meeting_place, 'videoPattern', video_pattern)
     FROM office_settings) AS place`;

export type RulesRow = Row & { place: MeetingPlace | null };

export function toStored(row: Row | undefined): StoredAvailability {
  return {
    hours: (row?.hours ?? []).map((h) => ({ ...h, weekday: Number(h.weekday) as IsoWeekday })),
    closures: row?.closures ?? [],
    // The settings row is made by the migration; without it the office keeps the holidays.
    publicHolidays: row?.publicHolidays ?? true,
    guardrails: row?.guardrails ?? defaultGuardrails,
  };
}

/** Where a meeting booked now happens by the admin's setting, from a row with the rules columns. */
export const toPlace = (row: RulesRow | undefined): MeetingPlace =>
  row?.place ?? { meetingPlace: defaultMeetingPlace.kind, videoPattern: defaultMeetingPlace.videoPattern };

/** The stored rules, with the closures that touch `from`…`to` (every closure without a range). */
export async function readAvailability(
  db: Kysely<Database>,
  range: { from: string; to: string } = { from: "0000-01-01", to: "9999-12-31" },
): Promise<StoredAvailability> {
  const { rows } = await sql<Row>`SELECT ${rulesColumns(range.from, range.to)}`.execute(db);
  return toStored(rows[0]);
}

/**
 * What to read busy times for: the span (the office day) and, when given, the moment before which a
 * feed that has been failing since counts as stale. A stale feed is busy over the whole span.
 */
export interface BusySpan {
  from: Date;
  to: Date;
  staleBefore?: Date;
}

/**
 * The busy intervals overlapping [from, to) of the office's calendars and of consultant `owner`'s
 * (an SQL expression), as [start, end] epoch milliseconds, with the whole span for each stale feed.
 */
export const busyColumn = (span: BusySpan, owner: RawBuilder<string>) => sql`
  (SELECT json_agg(json_build_array(
            (extract(epoch FROM starts_at) * 1000)::bigint, (extract(epoch FROM ends_at) * 1000)::bigint))
     FROM (SELECT i.starts_at, i.ends_at FROM busy_intervals i JOIN busy_calendars f ON f.id = i.calendar_id
            WHERE (f.consultant_id IS NULL OR f.consultant_id = ${owner})
              AND i.starts_at < ${span.to} AND i.ends_at > ${span.from}
           UNION ALL
           SELECT ${span.from}::timestamptz, ${span.to}::timestamptz FROM busy_calendars
            WHERE (consultant_id IS NULL OR consultant_id = ${owner})
              AND ${span.staleBefore ?? null}::timestamptz IS NOT NULL
              AND failing_since <= ${span.staleBefore ?? null}::timestamptz) AS b)`;

export const toBusy = (rows: [number | string, number | string][] | null | undefined): BusyInterval[] =>
  (rows ?? []).map(([start, end]) => ({ start: Number(start), end: Number(end) }));

/** Where a meeting booked now happens, as the admin set it (src/shared/api/availability.ts BookingRules). */
export type MeetingPlace = Pick<BookingRules, "meetingPlace" | "videoPattern">;

/** Replaces the weekly opening hours and the public-holiday switch, in one transaction. */
export async function saveAvailability(db: Kysely<Database>, value: AvailabilityPayload): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Two admins saving at once: the second waits for the first, then replaces its hours whole.
    await sql`SELECT 1 FROM office_settings FOR UPDATE`.execute(trx);
    await trx.deleteFrom("officeHours").execute();
    if (value.hours.length) await trx.insertInto("officeHours").values(value.hours).execute();
    await trx
      .updateTable("officeSettings")
      .set({ publicHolidays: value.publicHolidays, updatedAt: sql<Date>`now()` })
      .execute();
  });
}

/** Adds a closure: the whole office's, or consultant `consultantId`'s own. */
export async function addClosure(
  db: Kysely<Database>,
  closure: ClosurePayload,
  consultantId: string | null = null,
): Promise<OfficeClosure> {
  const row = await db
    .insertInto("officeClosures")
    .values({ startsOn: closure.from, endsOn: closure.to, yearly: closure.yearly, note: closure.note, consultantId })
    .returning(["id", "startsOn", "endsOn", "yearly", "note"])
    .executeTakeFirstOrThrow();
  return { id: row.id, from: row.startsOn, to: row.endsOn, yearly: row.yearly, note: row.note };
}

/** Removes a closure; false when there is no such closure. */
export async function removeClosure(db: Kysely<Database>, id: number): Promise<boolean> {
  if (!isSerialId(id)) return false;
  const result = await db.deleteFrom("officeClosures").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
