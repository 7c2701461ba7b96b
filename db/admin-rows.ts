// Helpers the two admin lists (enquiries, meetings) share.
import { addDays, zonedInstant } from "#shared/dates.ts";
import type { AdminNote } from "#shared/api/notes.ts";
import { OFFICE_TIME_ZONE } from "#shared/office.ts";
import { toIso } from "./rows.ts";

/** The instant an office-time day starts (`days` later than `date`): date filters count office days. */
export const officeDayStart = (date: string, days = 0): Date =>
  zonedInstant(addDays(date, days), "00:00", OFFICE_TIME_ZONE);

/** A row's note columns as the API shows them; null when there is no note. */
export function toNote(row: { note: string | null; noteBy: string | null; noteAt: Date | null }): AdminNote | null {
  return row.note && row.noteAt ? { text: row.note, by: row.noteBy ?? "", at: toIso(row.noteAt) } : null;
}
