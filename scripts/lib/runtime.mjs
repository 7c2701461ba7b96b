// What the functions need before `npm start` serves them: a database (DATABASE_URL, or the embedded
// PostgreSQL server), migrations applied, a session secret, and an admin account. While it runs, timers
// queue the due meeting reminders and send the email outbox's due messages, and apply the retention
// policy daily (Netlify's scheduled functions do these in production).
import { migrateToLatest } from "#db/migrate.ts";
import { closeDb, createDb, getDb } from "#db/client.ts";
import { createInitialAdminIfNone, ensureAdmin } from "#db/admins.ts";
import { deliverDue, enqueueDueReminders } from "#functions/_lib/mail/outbox.ts";
import { pruneCounters } from "#db/rate-limits.repository.ts";
import { mailTransport } from "#functions/_lib/mail/transport.ts";
import { runRetention } from "#functions/_lib/retention.ts";
import { ConfigError } from "#server/config-error.ts";
import { assertProductionReady, databaseConfig, migrationUrl, serverEnv } from "#server/config.ts";
import { now } from "#server/office.ts";
import { loadOrCreateJwtSecret, startEmbeddedDatabase } from "./embedded-db.mjs";

/** How often the local runtime sends the outbox's due (retried) messages. */
export const OUTBOX_INTERVAL_MS = 30_000;
/** How often the local runtime applies the retention policy (and once shortly after start). */
export const RETENTION_INTERVAL_MS = 24 * 60 * 60 * 1000;
const RETENTION_FIRST_RUN_MS = 60_000;

/**
 * Prepares the environment for the functions and returns a `close()` for shutdown: fills in what a
 * local run may leave unset (the embedded database, a generated session secret, a larger pool) as
 * environment variables, which the functions read through server/config.ts like any others.
 * Throws a ConfigError naming what is wrong or, in production, missing.
 * With `supervise` (npm start, which handles the stop signals itself), the embedded PostgreSQL is
 * restarted when it dies (scripts/lib/embedded-db.mjs).
 */
export async function prepareRuntime({ supervise = false, log = console } = {}) {
  assertProductionReady();
  const env = serverEnv();
  const dataDir = env.DATA_DIR;
  if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD)) {
    throw new ConfigError("Set both ADMIN_USERNAME and ADMIN_PASSWORD, or neither.");
  }
  let embedded = null;

  if (!databaseConfig().url) {
    embedded = await startEmbeddedDatabase({ dataDir, supervise });
    process.env.DATABASE_URL = embedded.url;
    log.log(`Embedded PostgreSQL: ${dataDir}/postgres on ${new URL(embedded.url).host}`);
  }
  if (!env.JWT_SECRET) process.env.JWT_SECRET = loadOrCreateJwtSecret(dataDir);
  if (!env.SMTP_URL) log.log(`No SMTP_URL: emails are written to ${dataDir}/outbox/ as .eml files.`);

  // Migrations over the direct connection when one is given (a pooler cannot hold their lock).
  const db = createDb(migrationUrl() ?? databaseConfig().url);
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) log.log(`Migrations applied: ${applied.join(", ")}`);
    const { ADMIN_USERNAME, ADMIN_PASSWORD } = env;
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
  // A burst of requests queues for the pool's connections instead of failing after 5 s.
  process.env.DATABASE_POOL_WAIT_MS ||= "30000";
  serverEnv(); // validates what was filled in
  const outbox = startOutboxTimer(log);
  const retention = startRetentionTimer(log);
  return {
    async close() {
      await retention.stop();
      await outbox.stop();
      await closeDb();
      await embedded?.close();
    },
  };
}

/** Every OUTBOX_INTERVAL_MS, queues the due reminders and sends what is due; one run at a time. Returns `stop()`. */
function startOutboxTimer(log) {
  const db = getDb(); // the functions' pool: one per process
  let running = null;
  const timer = setInterval(() => {
    if (running) return;
    running = enqueueDueReminders(db, now())
      .then(() => deliverDue(db, mailTransport()))
      .then(({ sent, failed }) => {
        if (sent || failed) log.log(`[mail] retry run: ${sent} sent, ${failed} failed`);
      })
      // The abuse limits' spent counters go on the same timer (the scheduled function in production).
      .then(() => pruneCounters(db))
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

/** Applies the retention policy a minute after start, then daily; one run at a time. Returns `stop()`. */
function startRetentionTimer(log) {
  const db = getDb();
  let running = null;
  let timer = null;
  const run = () => {
    if (running) return;
    running = runRetention(db)
      .then(({ summary }) => summary && log.log(summary))
      .catch((error) => log.error(`[retention] run failed: ${error instanceof Error ? error.message : error}`))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(() => {
    run();
    timer = setInterval(run, RETENTION_INTERVAL_MS);
    timer.unref();
  }, RETENTION_FIRST_RUN_MS);
  first.unref();
  return {
    async stop() {
      clearTimeout(first);
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
