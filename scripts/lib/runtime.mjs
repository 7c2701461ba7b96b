// What the functions need before `npm start` serves them: a database (DATABASE_URL, or the embedded
// PostgreSQL server), migrations applied, a session secret, and an admin account. While it runs, a timer
// sends the email outbox's due messages (Netlify's scheduled function does this in production).
import { migrateToLatest } from "../../db/migrate.ts";
import { closeDb, createDb, getDb } from "../../db/client.ts";
import { createInitialAdminIfNone, ensureAdmin } from "../../db/admins.ts";
import { deliverDue } from "../../functions/_lib/mail/outbox.ts";
import { mailTransport } from "../../functions/_lib/mail/transport.ts";
import { loadOrCreateJwtSecret, startEmbeddedDatabase } from "./embedded-db.mjs";

/** How often the local runtime sends the outbox's due (retried) messages. */
export const OUTBOX_INTERVAL_MS = 30_000;

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
    log.log(`Embedded PostgreSQL: ${dataDir}/postgres on ${new URL(embedded.url).host}`);
  }

  if (!process.env.JWT_SECRET) {
    if (production()) throw new Error("JWT_SECRET is required in production (at least 32 random characters).");
    process.env.JWT_SECRET = loadOrCreateJwtSecret(dataDir);
  }

  if (!process.env.SMTP_URL) {
    if (production()) throw new Error("SMTP_URL is required in production (smtp://user:password@host:587).");
    log.log(`No SMTP_URL: emails are written to ${dataDir}/outbox/ as .eml files.`);
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
        log.log(
          `\n  First start: created the admin account.\n    username: ${created.username}\n    password: ${created.password}\n  (shown once; change it with npm run admin:create)\n`,
        );
      }
    }
  } finally {
    await db.destroy();
  }

  // One process serves every function: one pool, sized for many requests at once.
  process.env.DATABASE_POOL_MAX ||= "20";
  const outbox = startOutboxTimer(log);
  return {
    async close() {
      await outbox.stop();
      await closeDb();
      await embedded?.close();
    },
  };
}

/** Every OUTBOX_INTERVAL_MS, sends what is due; one run at a time. Returns `stop()`. */
function startOutboxTimer(log) {
  const db = getDb(); // the functions' pool: one per process
  let running = null;
  const timer = setInterval(() => {
    if (running) return;
    running = deliverDue(db, mailTransport())
      .then(({ sent, failed }) => {
        if (sent || failed) log.log(`[mail] retry run: ${sent} sent, ${failed} failed`);
      })
      .catch((error) => log.error(`[mail] retry run failed: ${error instanceof Error ? error.message : error}`))
      .finally(() => {
        running = null;
      });
  }, OUTBOX_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
