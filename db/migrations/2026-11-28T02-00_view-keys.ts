import { type Kysely, sql } from "kysely";

// Frozen in time: the Sources charts' own daily counts.
// page_view_days keeps a row per day and combination of eight dimensions: with real traffic a day
// holds thousands, and a 30-day chart summed hundreds of thousands of rows. page_view_keys keeps,
// per day, one row per value of each dimension a chart reads ('all' for the day's totals; source is
// utm_source, else the referrer's host): a chart reads a few hundred rows. The rollup fills both.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("page_view_keys")
    .addColumn("day", "date", (col) => col.notNull())
    .addColumn("dim", "text", (col) => col.notNull())
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("views", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("visits", "integer", (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("page_view_keys_pkey", ["dim", "day", "key"])
    .execute();
  // What was already rolled up, folded the same way.
  await sql`
    INSERT INTO page_view_keys (day, dim, key, views, visits)
    SELECT day, d.dim, d.key, sum(views), sum(visits)
    FROM page_view_days,
      LATERAL (VALUES ('all', ''), ('source', CASE WHEN utm_source <> '' THEN utm_source ELSE referrer END),
                      ('campaign', utm_campaign), ('path', path), ('lang', lang), ('referrer', referrer)) AS d(dim, key)
    GROUP BY 1, 2, 3
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("page_view_keys").execute();
}
