// Helpers the two admin lists (enquiries, meetings) share.
import { addDays, zonedInstant } from "#shared/dates.ts";
import type { AdminNote } from "#shared/api/notes.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { sql } from "kysely";
import { toIso } from "./rows.ts";

/** The instant an office-time day starts (`days` later than `date`): date filters count office days. */
export const officeDayStart = (date: string, days = 0): Date =>
  zonedInstant(addDays(date, days), "00:00", OFFICE_TIME_ZONE);

/** The newest note written on a record, as newestNote selects it. */
export interface NoteCell {
  id: string | number;
  text: string;
  by: string;
  at: string;
}

/**
 * The newest note (table lead_notes) written on each enquiry or meeting, selected as `note` next to
 * the record's columns (a correlated subquery on the lead_notes_*_id indexes).
 */
export const newestNote = (table: "enquiries" | "meetings") =>
  sql<NoteCell | null>`(SELECT json_build_object('id', n.id, 'text', n.body, 'by', n.author_username, 'at', n.updated_at)
    FROM lead_notes n WHERE ${sql.ref(`n.${table === "enquiries" ? "enquiry_id" : "meeting_id"}`)} = ${sql.ref(`${table}.id`)}
    ORDER BY n.created_at DESC, n.id DESC LIMIT 1)`.as("note");

/** A record's newest note as the API shows it; null when it has none. */
export function toNote(row: { note: NoteCell | null }): AdminNote | null {
  const n = row.note;
  return n ? { id: String(n.id), text: n.text, by: n.by, at: toIso(n.at) } : null;
}
