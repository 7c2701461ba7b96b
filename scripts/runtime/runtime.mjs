// What the functions need before `npm start` serves them: a database (DATABASE_URL, or the embedded
// PostgreSQL server), migrations applied, a session secret, and an admin account. While it runs, timers
// run the schedule's jobs (functions/_lib/schedule.ts): reminders, outbox, counters, connected
// calendars and retention, each at its production interval (mail every 30 s locally), as Netlify's
// scheduled functions run them in production.
import path from "node:path";
import { migrateToLatest } from "#db/migrate.ts";
import { closeDb, createDb, getDb } from "#db/client.ts";
import { createInitialAdminIfNone, ensureAdmin, passwordProblem } from "#db/admins.ts";
import { localTimers, runJobs } from "#functions/_lib/schedule.ts";
import { ConfigError } from "#server/config-error.ts";
import {
  assertProductionReady,
  databaseConfig,
  isProduction,
  migrationUrl,
  scheduleIntervalOverride,
  serverEnv,
} from "#server/config.ts";
import { loadOrCreateJwtSecret, loadOrCreateMailgunKey, startEmbeddedDatabase } from "./embedded-db.mjs";

/** The first run of each timer comes this long after start (not at once: the start stays quick). */
const FIRST_RUN_MS = 60_000;

/**
 * Prepares the environment for the functions and returns a `close()` for shutdown: fills in what a
 * local run may leave unset (the embedded database, a generated session secret, a larger pool) as
 * environment variables, which the functions read through server/config.ts like any others.
 * Throws a ConfigError naming what is wrong or, in production, missing.
 * With `supervise` (npm start, which handles the stop signals itself), the embedded PostgreSQL is
 * restarted when it dies (scripts/runtime/embedded-db.mjs).
 */
export async function prepareRuntime({ supervise = false, log = console } = {}) {
  assertProductionReady();
  const env = serverEnv();
  const dataDir = env.DATA_DIR;
  if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD)) {
    throw new ConfigError("Set both ADMIN_USERNAME and ADMIN_PASSWORD, or neither.");
  }
  // The password rule every password follows (src/shared/passwords.ts), before anything starts.
  const weak = env.ADMIN_PASSWORD && passwordProblem(env.ADMIN_PASSWORD);
  if (weak) throw new ConfigError(`ADMIN_PASSWORD: ${weak}`);
  let embedded = null;

  if (!databaseConfig().url) {
    embedded = await startEmbeddedDatabase({ dataDir, supervise });
    process.env.DATABASE_URL = embedded.url;
    log.log(`Embedded PostgreSQL: ${shownPath(embedded.cluster)} on ${new URL(embedded.url).host}`);
  }
  if (!env.JWT_SECRET) process.env.JWT_SECRET = loadOrCreateJwtSecret(dataDir);
  if (!env.MAILGUN_SIGNING_KEY && !isProduction()) {
    process.env.MAILGUN_SIGNING_KEY = loadOrCreateMailgunKey(dataDir);
    log.log(
      `Inbound replies: posts to /api/inbound/mailgun-mime are signed with the key in ${dataDir}/mailgun-signing-key.`,
    );
  }
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
  const schedule = startSchedule(log);
  return {
    async close() {
      await schedule.stop();
      await closeDb();
      await embedded?.close();
    },
  };
}

/** `file` relative to the working folder when it is inside it (.data/postgres), else in full (/var/lib/…). */
function shownPath(file) {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

/**
 * The schedule's timers (functions/_lib/schedule.ts localTimers): each group of jobs first a minute
 * after start (or after SCHEDULE_INTERVAL_MS when a test sets it), then at its interval; one run of a
 * group at a time. Returns `stop()`, which waits for the runs in flight.
 */
function startSchedule(log) {
  const db = getDb(); // the functions' pool: one per process
  const override = scheduleIntervalOverride();
  const running = new Set();
  const timers = localTimers(override).map(({ everyMs, jobs }) => {
    let current = null;
    const run = () => {
      if (current) return;
      current = runJobs(db, jobs, log).finally(() => {
        running.delete(current);
        current = null;
      });
      running.add(current);
    };
    const timer = { interval: null };
    timer.first = setTimeout(
      () => {
        run();
        timer.interval = setInterval(run, everyMs);
        timer.interval.unref();
      },
      Math.min(override ?? FIRST_RUN_MS, everyMs),
    );
    timer.first.unref();
    return timer;
  });
  return {
    async stop() {
      for (const timer of timers) {
        clearTimeout(timer.first);
        if (timer.interval) clearInterval(timer.interval);
      }
      await Promise.all(running);
    },
  };
}
