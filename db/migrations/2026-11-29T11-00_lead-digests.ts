import { type Kysely, sql } from "kysely";

// Frozen in time: the owners' morning digest of due leads (issue 42, "follow-ups that never slip").
// lead_digests holds one row per owner and office day a digest was queued for; the row is claimed
// in the transaction that adds the email to the outbox, so several instances or a retried run
// queue at most one digest per owner per working day. office_date is yyyy-MM-dd text, as
// enquiries.follow_up_on. Deleted with the account; the digest run deletes rows past 30 days.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE lead_digests (
    owner_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    office_date text NOT NULL CHECK (office_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    leads integer NOT NULL,
    outbox_id bigint,
    created_at timestamptz(3) NOT NULL DEFAULT now(),
    PRIMARY KEY (owner_id, office_date)
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE lead_digests`.execute(db);
}
