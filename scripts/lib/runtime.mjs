// What the functions need before `npm start` serves them: a database (DATABASE_URL, or the embedded
// PGlite server), migrations applied, a session secret, and an admin account.
import { migrateToLatest } from "../../db/migrate.ts";
import { createDb } from "../../db/client.ts";
import { createInitialAdminIfNone, ensureAdmin } from "../../db/admins.ts";
import { loadOrCreateJwtSecret, startEmbeddedDatabase } from "./embedded-db.mjs";

const production = () => process.env.NODE_ENV === "production" || process.env.CONTEXT === "production";

/**
 * Prepares the environment for the functions (process.env is what they read) and returns a
 * `close()` for shutdown. Throws with a clear message when something required is missing.
 */
export async function prepareRuntime({ log = console } = {}) {
  const dataDir = process.env.DATA_DIR || ".data";
  let embedded = null;

  if (!process.env.DATABASE_URL) {
    if (production()) throw new Error("DATABASE_URL is required in production.");
    embedded = await startEmbeddedDatabase({ dataDir });
    process.env.DATABASE_URL = embedded.url;
    log.log(`Embedded database (PGlite) serving ${dataDir}/ on ${new URL(embedded.url).host}`);
  }

  if (!process.env.JWT_SECRET) {
    if (production()) throw new Error("JWT_SECRET is required in production (at least 32 random characters).");
    process.env.JWT_SECRET = loadOrCreateJwtSecret(dataDir);
  }

  const db = createDb(process.env.DATABASE_URL);
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) log.log(`Migrations applied: ${applied.join(", ")}`);
    const { ADMIN_USERNAME, ADMIN_PASSWORD } = process.env;
    if (ADMIN_USERNAME && ADMIN_PASSWORD) {
      await ensureAdmin(db, ADMIN_USERNAME, ADMIN_PASSWORD);
    } else if (embedded) {
      const created = await createInitialAdminIfNone(db);
      if (created) {
        log.log(`\n  First start: created the admin account.\n    username: ${created.username}\n    password: ${created.password}\n  (shown once; change it with npm run admin:create)\n`);
      }
    }
  } finally {
    await db.destroy();
  }

  return {
    async close() {
      await embedded?.close();
    },
  };
}
