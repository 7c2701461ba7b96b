import { type Kysely, sql } from "kysely";

// Frozen in time: one name for the visitor's enquiry. The table the first migration called
// contact_submissions, and everything named after it, takes the name the code, the admin and the
// emails use. Only names change: rows, ids, defaults and constraints stay as they are. The public
// URLs (/api/contact, /api/admin/submissions) are not database names and do not change.

const RENAMES = [
  ["TABLE", "contact_submissions", "enquiries"],
  ["SEQUENCE", "contact_submissions_id_seq", "enquiries_id_seq"],
  ["INDEX", "contact_submissions_pkey", "enquiries_pkey"],
  ["INDEX", "contact_submissions_created_at_id_idx", "enquiries_created_at_id_idx"],
  ["INDEX", "email_outbox_submission_id_idx", "email_outbox_enquiry_id_idx"],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [kind, from, to] of RENAMES)
    await sql`ALTER ${sql.raw(kind)} ${sql.id(from)} RENAME TO ${sql.id(to)}`.execute(db);
  await sql`ALTER TABLE email_outbox RENAME COLUMN submission_id TO enquiry_id`.execute(db);
  await sql`ALTER TABLE email_outbox RENAME CONSTRAINT email_outbox_submission_id_fkey TO email_outbox_enquiry_id_fkey`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE email_outbox RENAME CONSTRAINT email_outbox_enquiry_id_fkey TO email_outbox_submission_id_fkey`.execute(
    db,
  );
  await sql`ALTER TABLE email_outbox RENAME COLUMN enquiry_id TO submission_id`.execute(db);
  for (const [kind, from, to] of [...RENAMES].reverse()) {
    await sql`ALTER ${sql.raw(kind)} ${sql.id(to)} RENAME TO ${sql.id(from)}`.execute(db);
  }
}
