import { type Kysely, type RawBuilder, sql } from "kysely";

// Frozen in time: what the admin needs to run a pipeline of 100,000 enquiries.
//
// - search_fold(text): the one normalisation of searchable text, used by the stored search columns
//   AND applied to every query (db/search.ts calls it in SQL), so both sides always fold alike:
//   compatibility decomposition (NFKD) with the marks dropped (é → e, ﻙ → ك, أ → ا), lower case,
//   Arabic ي ى ك ة written as the Persian ی ی ک ه, Persian and Arabic digits as 0–9, ß æ œ ø ł đ
//   spelled out, invisible characters (zero-width non-joiner and joiner, bidi marks, soft hyphen,
//   byte-order mark) removed, runs of white space made one space.
// - search_text: a generated column per list, indexed with pg_trgm (GIN) so `LIKE '%…%'` finds
//   any fragment without reading the table. pg_trgm is a trusted contrib extension: PostgreSQL 15,
//   18, the embedded server and Neon all ship it, and a database owner may create it.
// - processed_at (added by the privacy migration): when an enquiry was marked processed, read by the
//   "processed within 2 working days" figure.
// - note, note_by, note_at: one short internal note per record, with the admin who wrote it and when.
// - email_status: the summary of a record's emails, kept by a trigger on email_outbox, so a list page
//   reads one column instead of aggregating the outbox for each row.
// - Indexes for the filters the lists offer: pending enquiries newest first, the meetings' slot order.

const FOLD = sql`
CREATE FUNCTION search_fold(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN trim(regexp_replace(
  replace(replace(replace(replace(
    translate(
      regexp_replace(
        lower(normalize(value, NFKD)),
        '[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed\u0640\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]',
        '', 'g'),
      'يىكةەۀ۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩øłđħı',
      'ییکههه01234567890123456789oldhi'),
    'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'), 'ĳ', 'ij'),
  '\\s+', ' ', 'g'))`;

// The CASE the admin lists used to compute per row (db/outbox.repository.ts before this migration).
const STATUS_SUMMARY = (key: string, id: RawBuilder<unknown>) => sql`(
  SELECT CASE
    WHEN count(*) = 0 THEN NULL
    WHEN bool_or(o.status IN ('failed', 'dead') AND o.attempts >= 1) THEN 'failing'
    WHEN bool_and(o.status = 'sent') THEN 'sent'
    ELSE 'pending'
  END
  FROM email_outbox AS o WHERE o.${sql.raw(key)} = ${id})`;

/** Sets email_status of the records of `table` whose ids `ids` (a SELECT) names, writing only real changes. */
const summarise = (table: string, key: string, ids: RawBuilder<unknown>) => sql`
  UPDATE ${sql.table(table)} AS r SET email_status = s.status
  FROM (SELECT t.id, ${STATUS_SUMMARY(key, sql`t.id`)} AS status FROM (${ids}) AS t (id)) AS s
  WHERE r.id = s.id AND r.email_status IS DISTINCT FROM s.status`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await FOLD.execute(db);

  await sql`ALTER TABLE enquiries
    ADD COLUMN search_text text GENERATED ALWAYS AS (search_fold(
      first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(company, '') || ' ' || message)) STORED,
    ADD COLUMN note text,
    ADD COLUMN note_by text,
    ADD COLUMN note_at timestamptz(3),
    ADD COLUMN email_status text`.execute(db);
  await sql`ALTER TABLE meetings
    ADD COLUMN search_text text GENERATED ALWAYS AS (search_fold(name || ' ' || email || ' ' || phone)) STORED,
    ADD COLUMN note text,
    ADD COLUMN note_by text,
    ADD COLUMN note_at timestamptz(3),
    ADD COLUMN email_status text`.execute(db);

  for (const table of ["enquiries", "meetings"]) {
    await sql`CREATE INDEX ${sql.id(`${table}_search_text_idx`)} ON ${sql.table(table)} USING gin (search_text gin_trgm_ops)`.execute(
      db,
    );
  }
  // The admin's default view (what waits for an answer) and the pending count of the figures.
  await sql`CREATE INDEX enquiries_pending_created_at_id_idx ON enquiries (created_at DESC, id DESC) WHERE NOT is_processed`.execute(
    db,
  );
  // Meetings in slot order (upcoming soonest first, past latest first) and the next-7-days count.
  await sql`CREATE INDEX meetings_date_time_id_idx ON meetings (date, time, id)`.execute(db);

  // The email summary of a record, recomputed once per statement for the records it touched.
  await sql`
    CREATE FUNCTION email_outbox_summarise() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${summarise("enquiries", "enquiry_id", sql`SELECT DISTINCT enquiry_id FROM touched WHERE enquiry_id IS NOT NULL`)};
      ${summarise("meetings", "meeting_id", sql`SELECT DISTINCT meeting_id FROM touched WHERE meeting_id IS NOT NULL`)};
      RETURN NULL;
    END $$`.execute(db);
  for (const [event, table] of [
    ["INSERT", "NEW TABLE"],
    ["UPDATE", "NEW TABLE"],
    ["DELETE", "OLD TABLE"],
  ] as const) {
    await sql`CREATE TRIGGER ${sql.id(`email_outbox_summarise_${event.toLowerCase()}`)}
      AFTER ${sql.raw(event)} ON email_outbox REFERENCING ${sql.raw(table)} AS touched
      FOR EACH STATEMENT EXECUTE FUNCTION email_outbox_summarise()`.execute(db);
  }
  await summarise("enquiries", "enquiry_id", sql`SELECT DISTINCT enquiry_id FROM email_outbox`).execute(db);
  await summarise("meetings", "meeting_id", sql`SELECT DISTINCT meeting_id FROM email_outbox`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ["insert", "update", "delete"]) {
    await sql`DROP TRIGGER ${sql.id(`email_outbox_summarise_${event}`)} ON email_outbox`.execute(db);
  }
  await sql`DROP FUNCTION email_outbox_summarise()`.execute(db);
  await sql`DROP INDEX meetings_date_time_id_idx`.execute(db);
  await sql`DROP INDEX enquiries_pending_created_at_id_idx`.execute(db);
  await sql`ALTER TABLE meetings DROP COLUMN search_text, DROP COLUMN note, DROP COLUMN note_by, DROP COLUMN note_at, DROP COLUMN email_status`.execute(
    db,
  );
  await sql`ALTER TABLE enquiries DROP COLUMN search_text, DROP COLUMN note, DROP COLUMN note_by, DROP COLUMN note_at, DROP COLUMN email_status`.execute(
    db,
  );
  await sql`DROP FUNCTION search_fold(text)`.execute(db);
  // pg_trgm stays: other databases objects may use it, and it costs nothing unused.
}
