/** The admins' internal notes about a person (table lead_notes): many per person, each by its author. */

/** An admin's internal note on an enquiry or a meeting: never shown to the visitor. */
export interface AdminNote {
  /** The note's id (POST/PATCH/DELETE /api/admin/notes…). */
  id: string;
  text: string;
  /** The username of the admin who wrote it. */
  by: string;
  /** When it was written or last edited: ISO 8601, UTC. */
  at: string;
}
