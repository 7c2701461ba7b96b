import { type Kysely, sql } from "kysely";

// Frozen in time: every enquiry is a lead with a stage (issue 42, "the lead desk").
// - stage: new → replied → meeting → proposal → client, or lost. It replaces is_processed (one fact
//   once): a processed enquiry becomes replied, a pending one new.
// - processed_at is renamed replied_at: when the lead first left "new" (the answer the dashboard's
//   "within 2 working days" figure, retention and the privacy export count from). A lead back in
//   "new" has none (as a pending enquiry had none); an old processed one may have none either.
// - owner_id: the admin who looks after it, or none; an account removed leaves it unowned.
// - lost carries a reason of lost_reasons (labels: one text per language code, as JSON, so a language
//   added later needs no column; archived, never deleted, so an old lead keeps its reason); client carries the service won and an optional value in euro cents.
// - follow_up_on (a calendar date as yyyy-MM-dd text, as meetings.date is), stage_changed_at, and version (bumped by every change of stage,
//   owner or follow-up date: a change based on an older version is refused).
// - lead_events: the timeline of those changes, with who made them (the name kept as it was).
const STAGES = ["new", "replied", "meeting", "proposal", "client", "lost"];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE lost_reasons (
    id serial PRIMARY KEY,
    labels jsonb NOT NULL CHECK (jsonb_typeof(labels) = 'object'),
    created_at timestamptz(3) NOT NULL DEFAULT now(),
    archived_at timestamptz(3)
  )`.execute(db);
  await sql`INSERT INTO lost_reasons (labels) VALUES
    ('{"en": "No budget", "nl": "Geen budget", "fa": "بودجه ندارد"}'),
    ('{"en": "Chose another firm", "nl": "Koos een ander bureau", "fa": "شرکت دیگری را انتخاب کرد"}'),
    ('{"en": "Not eligible", "nl": "Komt niet in aanmerking", "fa": "واجد شرایط نیست"}'),
    ('{"en": "No answer", "nl": "Geen antwoord", "fa": "پاسخی نداد"}')`.execute(db);

  await sql`ALTER TABLE enquiries RENAME COLUMN processed_at TO replied_at`.execute(db);
  await sql`ALTER TABLE enquiries
    ADD COLUMN stage text NOT NULL DEFAULT 'new',
    ADD COLUMN stage_changed_at timestamptz(3),
    ADD COLUMN owner_id integer REFERENCES users (id) ON DELETE SET NULL,
    ADD COLUMN lost_reason_id integer REFERENCES lost_reasons (id),
    ADD COLUMN client_service text,
    ADD COLUMN client_value_cents integer,
    ADD COLUMN follow_up_on text CHECK (follow_up_on ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    ADD COLUMN version integer NOT NULL DEFAULT 0`.execute(db);
  await sql`UPDATE enquiries SET
    stage = CASE WHEN is_processed THEN 'replied' ELSE 'new' END,
    stage_changed_at = coalesce(replied_at, created_at)`.execute(db);
  await sql`ALTER TABLE enquiries
    ALTER COLUMN stage_changed_at SET NOT NULL,
    ALTER COLUMN stage_changed_at SET DEFAULT now(),
    ADD CONSTRAINT enquiries_stage_check CHECK (stage IN (${sql.join(STAGES.map((s) => sql.lit(s)))})),
    ADD CONSTRAINT enquiries_new_unreplied_check CHECK (stage <> 'new' OR replied_at IS NULL),
    ADD CONSTRAINT enquiries_lost_reason_check CHECK ((stage = 'lost') = (lost_reason_id IS NOT NULL)),
    ADD CONSTRAINT enquiries_client_service_check CHECK ((stage = 'client') = (client_service IS NOT NULL)),
    ADD CONSTRAINT enquiries_client_value_check CHECK (
      client_value_cents IS NULL OR (stage = 'client' AND client_value_cents >= 0))`.execute(db);
  await sql`DROP INDEX enquiries_pending_created_at_id_idx`.execute(db);
  await sql`ALTER TABLE enquiries DROP COLUMN is_processed`.execute(db);
  // The board's columns and the stage filter (newest or oldest first), the owner filter, the
  // follow-up order and the "waiting on us" count.
  await sql`CREATE INDEX enquiries_stage_created_at_id_idx ON enquiries (stage, created_at, id)
    WHERE anonymised_at IS NULL`.execute(db);
  await sql`CREATE INDEX enquiries_owner_created_at_id_idx ON enquiries (owner_id, created_at, id)
    WHERE anonymised_at IS NULL`.execute(db);
  await sql`CREATE INDEX enquiries_follow_up_on_id_idx ON enquiries (follow_up_on, id)
    WHERE anonymised_at IS NULL AND follow_up_on IS NOT NULL`.execute(db);

  await sql`CREATE TABLE lead_events (
    id bigserial PRIMARY KEY,
    enquiry_id integer NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('stage', 'owner', 'follow_up')),
    from_value text,
    to_value text,
    actor_id integer REFERENCES users (id) ON DELETE SET NULL,
    actor_username text,
    at timestamptz(3) NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX lead_events_enquiry_id_at_idx ON lead_events (enquiry_id, at, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE lead_events`.execute(db);
  await sql`DROP INDEX enquiries_stage_created_at_id_idx`.execute(db);
  await sql`DROP INDEX enquiries_owner_created_at_id_idx`.execute(db);
  await sql`DROP INDEX enquiries_follow_up_on_id_idx`.execute(db);
  await sql`ALTER TABLE enquiries ADD COLUMN is_processed boolean NOT NULL DEFAULT false`.execute(db);
  await sql`UPDATE enquiries SET is_processed = stage <> 'new'`.execute(db);
  await sql`ALTER TABLE enquiries
    DROP COLUMN stage,
    DROP COLUMN stage_changed_at,
    DROP COLUMN owner_id,
    DROP COLUMN lost_reason_id,
    DROP COLUMN client_service,
    DROP COLUMN client_value_cents,
    DROP COLUMN follow_up_on,
    DROP COLUMN version`.execute(db);
  await sql`ALTER TABLE enquiries RENAME COLUMN replied_at TO processed_at`.execute(db);
  await sql`CREATE INDEX enquiries_pending_created_at_id_idx ON enquiries (created_at DESC, id DESC) WHERE NOT is_processed`.execute(
    db,
  );
  await sql`DROP TABLE lost_reasons`.execute(db);
}
