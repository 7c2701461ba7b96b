import { type Kysely, sql } from "kysely";

// The admin lists are paged newest first by (created_at, id). Millisecond timestamps make a page's
// cursor (a JavaScript Date) exact; the two-column indexes serve each page from the index alone.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["contact_submissions", "meetings"]) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN created_at TYPE timestamptz(3)`.execute(db);
    await db.schema.dropIndex(`${table}_created_at_idx`).execute();
    await sql`CREATE INDEX ${sql.id(`${table}_created_at_id_idx`)} ON ${sql.table(table)} (created_at DESC, id DESC)`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["contact_submissions", "meetings"]) {
    await db.schema.dropIndex(`${table}_created_at_id_idx`).execute();
    await db.schema.createIndex(`${table}_created_at_idx`).on(table).column("created_at").execute();
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN created_at TYPE timestamptz`.execute(db);
  }
}
