/** The admin's internal notes on enquiries and meetings (PUT /api/admin/…/{id}/note). */

/** An admin's internal note on an enquiry or a meeting: never shown to the visitor. */
export interface AdminNote {
  text: string;
  /** The username of the admin who wrote it last. */
  by: string;
  /** ISO 8601, UTC. */
  at: string;
}
