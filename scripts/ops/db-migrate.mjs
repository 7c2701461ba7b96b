// `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database when it
// is unset). `npm run db:migrate -- --down` reverts the latest one. Exits non-zero on failure.
import { parseArgs } from "node:util";
import { isDatabaseUnavailable } from "#db/errors.ts";
import { migrateDown, migrateToLatest } from "#db/migrate.ts";
import { openScriptDatabase } from "../runtime/embedded-db.mjs";

let options;
try {
  options = parseArgs({
    options: { down: { type: "boolean", default: false }, help: { type: "boolean", short: "h" } },
  }).values;
} catch (error) {
  console.error(`${error.message}\nUsage: npm run db:migrate [-- --down]`);
  process.exit(2);
}
if (options.help) {
  console.log("Usage: npm run db:migrate [-- --down]\n  Applies pending migrations; --down reverts the latest one.");
  process.exit(0);
}

let database;
try {
  database = await openScriptDatabase();
  if (options.down) {
    const [reverted] = await migrateDown(database.db);
    console.log(reverted ? `Reverted ${reverted}` : "Nothing to revert: no migration is applied.");
  } else {
    const applied = await migrateToLatest(database.db);
    for (const name of applied) console.log(`Applied ${name}`);
    console.log(
      applied.length ? `Database is up to date (${applied.length} applied).` : "Database was already up to date.",
    );
  }
} catch (error) {
  console.error(`db:migrate failed: ${describe(error)}`);
  process.exitCode = 1;
} finally {
  await database?.close();
}

function describe(error) {
  if (!(error instanceof Error)) return String(error);
  // AggregateError (both localhost addresses refused) has an empty message of its own.
  const message = error.message || error.errors?.map((e) => e.message).join("; ") || error.name;
  return isDatabaseUnavailable(error)
    ? `${message}\nCannot reach the database: is it running, and is DATABASE_URL right?`
    : message;
}
