import type { Kysely } from "kysely";

// Frozen in time: each account remembers the language its admin panel is shown in, chosen by the
// person; null until they choose, when the browser's languages decide. No CHECK on the codes: the
// API validates them against src/shared/languages.ts, so a new language needs no migration.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("panel_language", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("panel_language").execute();
}
