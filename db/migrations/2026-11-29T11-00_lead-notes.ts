import { type Kysely, sql } from "kysely";

// Frozen in time: notes become many (issue 42, "one timeline per person").
// - lead_notes: every internal note an admin writes about a person, kept under the person's email
//   address (lower-cased, as an erasure matches an address: lower(email) = lower(address)), with the
//   one enquiry or meeting it was written on (deleted with it; retention takes it with it), its author (the name kept as it
//   was; an account removed leaves the name) and when it was written and last edited. A body is 1 to
//   500 characters (NOTE_MAX_LENGTH of the time).
// - The one note per record (note, note_by, note_at on enquiries and meetings) is copied in, then
//   dropped: a note is held in one place only. Down puts each record's newest note back.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE lead_notes (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email text NOT NULL CHECK (email <> '' AND email = lower(email)),
    enquiry_id integer REFERENCES enquiries (id) ON DELETE CASCADE,
    meeting_id integer REFERENCES meetings (id) ON DELETE CASCADE,
    author_id integer REFERENCES users (id) ON DELETE SET NULL,
    author_username text NOT NULL,
    body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 500),
    created_at timestamptz(3) NOT NULL DEFAULT now(),
    updated_at timestamptz(3) NOT NULL DEFAULT now(),
    CHECK (num_nonnulls(enquiry_id, meeting_id) = 1)
  )`.execute(db);
  await sql`CREATE INDEX lead_notes_email_idx ON lead_notes (email, created_at, id)`.execute(db);
  await sql`CREATE INDEX lead_notes_enquiry_id_idx ON lead_notes (enquiry_id, created_at, id)
    WHERE enquiry_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX lead_notes_meeting_id_idx ON lead_notes (meeting_id, created_at, id)
    WHERE meeting_id IS NOT NULL`.execute(db);

  for (const [table, column] of [
    ["enquiries", "enquiry_id"],
    ["meetings", "meeting_id"],
  ] as const) {
    await sql`INSERT INTO lead_notes (email, ${sql.id(column)}, author_id, author_username, body, created_at, updated_at)
      SELECT lower(r.email), r.id, u.id, coalesce(r.note_by, ''), left(r.note, 500),
        coalesce(r.note_at, r.created_at), coalesce(r.note_at, r.created_at)
      FROM ${sql.table(table)} r LEFT JOIN users u ON u.username = r.note_by
      WHERE r.note IS NOT NULL AND btrim(r.note) <> '' AND r.email <> ''
      ORDER BY coalesce(r.note_at, r.created_at), r.id`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN note, DROP COLUMN note_by, DROP COLUMN note_at`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of [
    ["enquiries", "enquiry_id"],
    ["meetings", "meeting_id"],
  ] as const) {
    await sql`ALTER TABLE ${sql.table(table)}
      ADD COLUMN note text, ADD COLUMN note_by text, ADD COLUMN note_at timestamptz(3)`.execute(db);
    await sql`UPDATE ${sql.table(table)} r SET note = n.body, note_by = n.author_username, note_at = n.updated_at
      FROM (SELECT DISTINCT ON (${sql.id(column)}) ${sql.id(column)} AS record_id, body, author_username, updated_at
            FROM lead_notes WHERE ${sql.id(column)} IS NOT NULL
            ORDER BY ${sql.id(column)}, created_at DESC, id DESC) n
      WHERE r.id = n.record_id`.execute(db);
  }
  await sql`DROP TABLE lead_notes`.execute(db);
}
