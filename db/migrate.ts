import { type Kysely, type MigrationResultSet, Migrator } from "kysely";
import { migrations } from "./migrations/index.ts";

function migrator(db: Kysely<any>): Migrator {
  return new Migrator({
    // Migrations are written in SQL's snake_case; the app client's CamelCasePlugin must not touch them.
    db: db.withoutPlugins(),
    provider: { getMigrations: async () => migrations },
  });
}

/** Applies every pending migration; returns the names applied, throws if one fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return applied(await migrator(db).migrateToLatest(), "up");
}

/** Reverts the most recent migration; returns its name (empty when none was applied). */
export async function migrateDown(db: Kysely<any>): Promise<string[]> {
  return applied(await migrator(db).migrateDown(), "down");
}

function applied({ error, results = [] }: MigrationResultSet, direction: "up" | "down"): string[] {
  if (error) {
    const failed = results.find((r) => r.status === "Error")?.migrationName;
    const detail = error instanceof Error ? error.message || error.name : String(error);
    const what = failed ? `Migration ${failed} (${direction})` : `Migrating ${direction}`;
    throw new Error(`${what} failed: ${detail}`, { cause: error });
  }
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
}
