import { type Kysely, sql } from "kysely";

// Frozen in time: the board's counts for one owner ("mine") read an index alone. Counting one
// admin's leads by stage read their rows one by one (the owner index holds no stage): 33,000 heap
// reads for a third of 100,000 leads (npm run bench:admin).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX enquiries_owner_stage_idx ON enquiries (owner_id, stage) WHERE anonymised_at IS NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX enquiries_owner_stage_idx`.execute(db);
}
