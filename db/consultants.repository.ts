/**
 * Consultants and what a booking needs to know of each one: their own hours, closures, connected
 * calendars (and the office's, which apply to everyone) and meetings on a day, read in one
 * statement; the fair rule's loads; and the lock that makes "whoever is free" one assignment at a
 * time. The rules' meaning is in src/shared/consultants.ts and src/shared/booking.ts.
 */
import { type Kysely, sql } from "kysely";
import type { OfficeClosure } from "#shared/api/availability.ts";
import type { BusyInterval } from "#shared/booking.ts";
import { CONSULTANT_ID, CONSULTANT_ID_MAX, FAIR_WINDOW_DAYS, type ConsultantLoad } from "#shared/consultants.ts";
import { addDays } from "#shared/dates.ts";
import type { IsoWeekday, OpeningHours } from "#shared/office.ts";
import {
  busyColumn,
  rulesColumns,
  toBusy,
  toPlace,
  toStored,
  type BusySpan,
  type MeetingPlace,
  type RulesRow,
  type StoredAvailability,
} from "./availability.repository.ts";
import { prepare } from "./prepared.ts";
import { toIso } from "./rows.ts";
import type { Database } from "./types.ts";

/** A consultant as the database holds them. */
export interface Consultant {
  id: string;
  userId: number;
  active: boolean;
  /** Their own weekly hours; null: the office's. */
  hours: OpeningHours[] | null;
}

/** One consultant's part of a booking day: their own rules and what already fills their time. */
export interface ConsultantDay extends Consultant {
  /** Their own closures touching the day (the office's are in the office rules). */
  closures: OfficeClosure[];
  /** Their standing meetings' start times that day, ascending. */
  taken: string[];
  /** Their calendars' and the office's calendars' busy times in the day's span (a stale feed: the whole span). */
  busy: BusyInterval[];
}

/** Whether `value` has the shape of a consultant id (anything else cannot name one). */
export const isConsultantId = (value: unknown): value is string =>
  typeof value === "string" && value.length <= CONSULTANT_ID_MAX && CONSULTANT_ID.test(value);

const toHours = (hours: OpeningHours[] | null): OpeningHours[] | null =>
  hours && hours.map((h) => ({ weekday: Number(h.weekday) as IsoWeekday, opens: h.opens, closes: h.closes }));

/** Every consultant, by id. */
export async function listConsultants(db: Kysely<Database>): Promise<Consultant[]> {
  const rows = await db.selectFrom("consultants").select(["id", "userId", "active", "hours"]).orderBy("id").execute();
  return rows.map((row) => ({ ...row, hours: toHours(row.hours) }));
}

/** The consultant the account is, or undefined. */
export async function consultantOfUser(db: Kysely<Database>, userId: number): Promise<Consultant | undefined> {
  const row = await db
    .selectFrom("consultants")
    .select(["id", "userId", "active", "hours"])
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row && { ...row, hours: toHours(row.hours) };
}

/** Adds a consultant for account `userId`; fails with a unique violation when the id or the account is one already. */
export async function addConsultant(
  db: Kysely<Database>,
  consultant: { id: string; userId: number; hours?: OpeningHours[] | null; active?: boolean },
): Promise<Consultant> {
  const row = await db
    .insertInto("consultants")
    .values({
      id: consultant.id,
      userId: consultant.userId,
      active: consultant.active ?? true,
      hours: consultant.hours ? JSON.stringify(consultant.hours) : null,
    })
    .returning(["id", "userId", "active", "hours"])
    .executeTakeFirstOrThrow();
  return { ...row, hours: toHours(row.hours) };
}

/** Sets a consultant's own weekly hours (null: the office's) and whether they take new meetings. */
export async function updateConsultant(
  db: Kysely<Database>,
  id: string,
  change: { hours?: OpeningHours[] | null; active?: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable("consultants")
    .set({
      ...(change.hours !== undefined && { hours: change.hours ? JSON.stringify(change.hours) : null }),
      ...(change.active !== undefined && { active: change.active }),
    })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Makes account `userId` the install's first consultant, `id`, when there is none yet: what a new
 * install's first admin becomes (an upgraded install got theirs from the migration). Two first
 * admins at once: one wins, the other stays an account.
 */
export async function ensureFirstConsultant(db: Kysely<Database>, userId: number, id: string): Promise<void> {
  await sql`
    INSERT INTO consultants (id, user_id)
    SELECT ${id}, ${userId} WHERE NOT EXISTS (SELECT 1 FROM consultants)
    ON CONFLICT DO NOTHING`.execute(db);
}

type DayRow = {
  consultants:
    | (Omit<ConsultantDay, "busy" | "userId"> & { userId: number; busy: [number | string, number | string][] | null })[]
    | null;
};

type DayParams = {
  date: string;
  from: Date;
  to: Date;
  /** Undefined: no feed counts as stale (sent as null). */
  staleBefore: Date | undefined;
  except: number | null;
  include: string | null;
};

// The slots answer's read, which every booking page makes: compiled once per client (db/prepared.ts).
const dayStatement = prepare<Database, DayParams, RulesRow & DayRow>(
  ["date", "from", "to", "staleBefore", "except", "include"],
  (_, { date, from, to, staleBefore, except, include }) => sql<RulesRow & DayRow>`
    SELECT ${rulesColumns(date, date)},
      (SELECT json_agg(json_build_object(
          'id', c.id, 'userId', c.user_id, 'active', c.active, 'hours', c.hours,
          'closures', coalesce((SELECT json_agg(json_build_object('id', id, 'from', starts_on, 'to', ends_on,
                                  'yearly', yearly, 'note', note) ORDER BY starts_on, id)
                                FROM office_closures
                                WHERE consultant_id = c.id AND (yearly OR (ends_on >= ${date} AND starts_on <= ${date}))),
                               '[]'::json),
          'taken', coalesce((SELECT json_agg(time ORDER BY time) FROM meetings
                             WHERE consultant_id = c.id AND date = ${date} AND cancelled_at IS NULL
                               AND id IS DISTINCT FROM ${except}::int), '[]'::json),
          'busy', ${busyColumn({ from, to, staleBefore }, sql<string>`c.id`)}) ORDER BY c.id)
         FROM consultants c WHERE c.active OR c.id = ${include}) AS consultants`,
);

/**
 * What booking on `date` needs, in one statement: the office rules that apply to it (its closures
 * only), where a meeting booked now happens, and for each active consultant (and `include`, even when inactive) their own hours and
 * closures, their standing meetings that day (leaving out meeting `except`, one being moved) and
 * their busy times in `span` (their own calendars and the office's).
 */
export async function bookingDay(
  db: Kysely<Database>,
  date: string,
  span: BusySpan,
  options: { except?: number; include?: string } = {},
): Promise<{ stored: StoredAvailability; place: MeetingPlace; consultants: ConsultantDay[] }> {
  const [row] = await dayStatement(db, {
    date,
    from: span.from,
    to: span.to,
    staleBefore: span.staleBefore,
    except: options.except ?? null,
    include: options.include ?? null,
  });
  return {
    stored: toStored(row),
    place: toPlace(row),
    consultants: (row?.consultants ?? []).map((c) => ({ ...c, hours: toHours(c.hours), busy: toBusy(c.busy) })),
  };
}

/**
 * The consultants' own rules over `from`…`to`, for the date picker: active ones (and `include`),
 * their hours and their closures touching the range, and when the office has a daily cap, the
 * dates on which each has reached it.
 */
export async function consultantsOverRange(
  db: Kysely<Database>,
  range: { from: string; to: string },
  dailyLimit: number | null,
  include?: string,
): Promise<(Consultant & { closures: OfficeClosure[]; fullDates: string[] })[]> {
  const { rows } = await sql<Consultant & { closures: OfficeClosure[]; fullDates: string[] }>`
    SELECT c.id, c.user_id AS "userId", c.active, c.hours,
      coalesce((SELECT json_agg(json_build_object('id', id, 'from', starts_on, 'to', ends_on, 'yearly', yearly,
                                                  'note', note) ORDER BY starts_on, id)
                FROM office_closures
                WHERE consultant_id = c.id AND (yearly OR (ends_on >= ${range.from} AND starts_on <= ${range.to}))),
               '[]'::json) AS closures,
      coalesce((SELECT json_agg(date ORDER BY date) FROM (
                  SELECT date FROM meetings
                  WHERE consultant_id = c.id AND cancelled_at IS NULL AND date BETWEEN ${range.from} AND ${range.to}
                    AND ${dailyLimit}::int IS NOT NULL
                  GROUP BY date HAVING count(*) >= ${dailyLimit}::int) AS f), '[]'::json) AS "fullDates"
    FROM consultants c WHERE c.active OR c.id = ${include ?? null} ORDER BY c.id`.execute(db);
  return rows.map((row) => ({ ...row, hours: toHours(row.hours) }));
}

/**
 * The fair rule's loads of consultants `ids`: their standing meetings dated from FAIR_WINDOW_DAYS
 * before `today` on (those booked ahead included) and when their latest meeting was booked.
 */
export async function consultantLoads(
  db: Kysely<Database>,
  ids: readonly string[],
  today: string,
): Promise<ConsultantLoad[]> {
  if (!ids.length) return [];
  const since = addDays(today, -FAIR_WINDOW_DAYS);
  const rows = await db
    .selectFrom("consultants as c")
    .select((eb) => [
      "c.id",
      eb
        .selectFrom("meetings")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("meetings.consultantId", "=", "c.id")
        .where("meetings.cancelledAt", "is", null)
        .where("meetings.date", ">=", since)
        .as("recent"),
      eb
        .selectFrom("meetings")
        .select(sql<Date | null>`max(created_at)`.as("at"))
        .whereRef("meetings.consultantId", "=", "c.id")
        .as("lastBookedAt"),
    ])
    .where("c.id", "in", ids)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    recent: Number(row.recent ?? 0),
    lastBookedAt: row.lastBookedAt ? toIso(row.lastBookedAt) : null,
  }));
}

/**
 * Takes the lock of "whoever is free" until the transaction ends: one fair assignment at a time,
 * so each reads the loads the one before left (a named consultant's booking does not wait for it).
 */
export async function lockAssignment(db: Kysely<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('meetings-assign'))`.execute(db);
}
