// Helpers the two admin lists (enquiries, meetings) share.
//
// The admin answers (AdminEnquiry, AdminMeeting of src/shared/api.ts) are written by PostgreSQL as
// JSON text, one json_build_object per row: a list page of 50 then costs the function one string per
// row instead of fifteen parsed values, a Date and an object (measured: about half the CPU of a
// page, so twice the pages per second). The shapes are defined once, in SQL, in the repositories.
import { type RawBuilder, sql } from "kysely";
import { addDays, zonedInstant } from "../src/shared/dates.ts";
import { OFFICE_TIME_ZONE } from "../src/shared/office.ts";

/** The instant an office-time day starts (`days` later than `date`): date filters count office days. */
export const officeDayStart = (date: string, days = 0): Date =>
  zonedInstant(addDays(date, days), "00:00", OFFICE_TIME_ZONE);

/** A timestamp column as the API writes times (ISO 8601 in UTC, milliseconds: toIso() of db/rows.ts); null stays null. */
export const isoText = (column: string): RawBuilder<string | null> =>
  sql`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The note columns as the API shows them (an AdminNote); null when there is no note. */
export const noteJson: RawBuilder<unknown> = sql`CASE WHEN note <> '' AND note_at IS NOT NULL
  THEN json_build_object('text', note, 'by', coalesce(note_by, ''), 'at', ${isoText("note_at")}) END`;

/** A row of a JSON page: the record as JSON text, and the columns its cursor is made of. */
export type JsonRow<Key> = Key & { json: string };

/** The records of JSON rows as objects (for code that reads them, such as the CSV export). */
export const parseJson = <T>(row: { json: string }): T => JSON.parse(row.json) as T;
