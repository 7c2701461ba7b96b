import { type Kysely, sql } from "kysely";

// Frozen in time: a meeting's moves are kept (the lead desk: the person's timeline shows
// their meetings booked, moved by them or by staff, cancelled, and how they went). A move overwrote
// the slot, so the earlier one, and who moved it, were lost.
//
// - meeting_changes: one row per move or hand-over: the slot before and after (office-local date
//   and time, and the consultant), and who made it: the visitor (on the manage page) or an admin
//   (their account, and their username as it was: the account may be renamed or removed later).
//   Nothing of the visitor is in it, so an erasure leaves it with the anonymised meeting; a
//   meeting deleted (retention) takes its changes with it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE meeting_changes (
    id bigserial PRIMARY KEY,
    meeting_id integer NOT NULL REFERENCES meetings (id) ON DELETE CASCADE,
    at timestamptz(3) NOT NULL DEFAULT now(),
    from_date text NOT NULL,
    from_time text NOT NULL,
    from_consultant text NOT NULL,
    to_date text NOT NULL,
    to_time text NOT NULL,
    to_consultant text NOT NULL,
    by text NOT NULL CHECK (by IN ('visitor', 'admin')),
    by_user_id integer REFERENCES users (id) ON DELETE SET NULL,
    by_username text,
    CHECK ((by = 'visitor') = (by_username IS NULL) AND (by = 'admin' OR by_user_id IS NULL))
  )`.execute(db);
  await sql`CREATE INDEX meeting_changes_meeting_id_at_idx ON meeting_changes (meeting_id, at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE meeting_changes`.execute(db);
}
