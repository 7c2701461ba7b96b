/**
 * The one schedule: every job that runs on a timer rather than on a request, with how often it runs.
 * Production runs it as Netlify Scheduled Functions, one per run below (functions/outbox-retry.ts,
 * functions/retention.ts: their `config.schedule` is that run's cron, written out because Netlify
 * reads it from the source); `npm start` runs the same jobs on timers (scripts/runtime/runtime.mjs).
 * functions/_tests/schedule.test.ts fails when a job runs in one place and not the other, or when a
 * function's cron is not its run's.
 *
 * Why every 15 minutes: each run queries the database, and Neon suspends a compute only after
 * 5 idle minutes. Run every minute, the database never sleeps (0.25 CU × 730 h ≈ 183 CU-hours a
 * month); every 15 minutes it is awake at most 5 of every 15 minutes when the site is quiet
 * (≈ 61 CU-hours, within the Free plan's 100). A failed email waits at most 15 minutes more, a
 * reminder leaves between 24 hours and 23 h 45 before its meeting, spent counters only take room
 * until they are deleted (they never count again), and a calendar's new busy time hides its slots
 * within 15 minutes.
 */
import type { Kysely } from "kysely";
import { pruneCounters } from "#db/rate-limits.repository.ts";
import type { Database } from "#db/types.ts";
import { now } from "#server/office.ts";
import { storedOfficeRules } from "./lead-lists.ts";
import { refreshCalendars } from "./calendars/refresh.ts";
import { deliverDue } from "./mail/delivery.ts";
import { queueDigests } from "./mail/digest.ts";
import { enqueueDueReminders } from "./mail/outbox.ts";
import { mailTransport } from "./mail/transport.ts";
import { runRetention } from "./privacy/retention.ts";

/** A job's log: what it did, in one line, when there was something to say. */
export interface JobLog {
  log(line: string): void;
  error(line: string): void;
}

/** One scheduled job. */
export interface ScheduledJob {
  readonly name: string;
  /** What it does, for the operator's documentation. */
  readonly what: string;
  /**
   * How often `npm start` runs it when that differs from its run's interval: only for work that costs
   * nothing extra locally and that a developer waits for (an email written to .data/outbox/).
   */
  readonly localEveryMs?: number;
  run(db: Kysely<Database>, log: JobLog): Promise<void>;
}

/** A group of jobs run one after another, in this order, on one cron in production. */
export interface ScheduledRun {
  readonly name: string;
  /** Netlify's cron (UTC); the scheduled function's `config.schedule` repeats it. */
  readonly cron: string;
  /** The same interval in milliseconds, which `npm start` runs the jobs at. */
  readonly everyMs: number;
  /** The Netlify function that runs it in production, a file in functions/. */
  readonly fn: string;
  readonly jobs: readonly ScheduledJob[];
}

/** No new email claims after this (ms); nothing waited for after RUN_DEADLINE_MS: well inside the platform's 30 s. */
export const RUN_BUDGET_MS = 20_000;
export const RUN_DEADLINE_MS = 26_000;

const MINUTE = 60_000;
/** Locally an email is written to .data/outbox/ within this long of being due. */
const LOCAL_MAIL_EVERY_MS = 30_000;

const reminders: ScheduledJob = {
  name: "reminders",
  what: "queues the 24-hour meeting reminders that are due",
  localEveryMs: LOCAL_MAIL_EVERY_MS,
  run: async (db) => {
    await enqueueDueReminders(db, now());
  },
};

const digests: ScheduledJob = {
  name: "digests",
  what: "queues each owner's morning digest of due leads, on working days from 08:30 office time, once per owner and day",
  localEveryMs: LOCAL_MAIL_EVERY_MS,
  run: async (db, log) => {
    const queued = await queueDigests(db, now(), await storedOfficeRules(db));
    if (queued) log.log(`[digests] ${queued} morning digest(s) queued`);
  },
};

const outbox: ScheduledJob = {
  name: "outbox",
  what: "sends the outbox's due emails (the reminders, and messages whose first try failed or was cut short)",
  localEveryMs: LOCAL_MAIL_EVERY_MS,
  run: async (db, log) => {
    const { sent, failed, unfinished } = await deliverDue(db, mailTransport(), {
      budgetMs: RUN_BUDGET_MS,
      deadlineMs: RUN_DEADLINE_MS,
    });
    if (sent || failed || unfinished)
      log.log(`[mail] retry run: ${sent} sent, ${failed} failed, ${unfinished} left for the next run`);
  },
};

const counters: ScheduledJob = {
  name: "counters",
  what: "deletes the abuse limits' spent counters (one indexed DELETE)",
  run: async (db) => {
    await pruneCounters(db);
  },
};

const calendars: ScheduledJob = {
  name: "calendars",
  what: "refreshes the connected calendars' busy times, BUSY_CALENDARS' feeds included",
  run: async (db, log) => {
    const failing = (await refreshCalendars(db, now())).filter((r) => !r.ok);
    for (const r of failing) log.log(`[calendars] feed ${r.id} failed: ${r.error}`);
  },
};

const retention: ScheduledJob = {
  name: "retention",
  what: "applies the retention policy (emails emptied, login attempts deleted, old records anonymised, audit entries past a year and ended sessions deleted)",
  run: async (db, log) => {
    const { summary } = await runRetention(db);
    if (summary) log.log(summary);
  },
};

/** The schedule: every run, its interval and its jobs. */
export const SCHEDULE: readonly ScheduledRun[] = [
  {
    name: "frequent",
    cron: "*/15 * * * *",
    everyMs: 15 * MINUTE,
    fn: "outbox-retry.ts",
    jobs: [reminders, digests, outbox, counters, calendars],
  },
  { name: "daily", cron: "17 3 * * *", everyMs: 24 * 60 * MINUTE, fn: "retention.ts", jobs: [retention] },
];

/** The run named `name`. */
export function scheduledRun(name: string): ScheduledRun {
  const run = SCHEDULE.find((r) => r.name === name);
  if (!run) throw new Error(`no scheduled run named ${name}`);
  return run;
}

/**
 * Runs `jobs` one after another; a job that throws is logged and the next one still runs (a mail
 * server that is down does not stop the calendars' refresh). Answers the names of the jobs that ran
 * and of those that failed.
 */
export async function runJobs(
  db: Kysely<Database>,
  jobs: readonly ScheduledJob[],
  log: JobLog = console,
): Promise<{ ran: string[]; failed: string[] }> {
  const ran: string[] = [];
  const failed: string[] = [];
  for (const job of jobs) {
    try {
      await job.run(db, log);
      ran.push(job.name);
    } catch (error) {
      failed.push(job.name);
      log.error(`[${job.name}] run failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { ran, failed };
}

/** A scheduled function's handler for the run `name`: its jobs, in order. Marked with the run's name for the test. */
export function scheduledHandler(name: string, db: () => Kysely<Database>) {
  const run = scheduledRun(name);
  const handler = async (): Promise<void> => {
    const { failed } = await runJobs(db(), run.jobs);
    // A failed run is a failed invocation in Netlify's log, after every other job had its turn.
    if (failed.length) throw new Error(`scheduled run ${name}: ${failed.join(", ")} failed`);
  };
  return Object.assign(handler, { runName: name });
}

/**
 * The local server's timers: every job of every run, at its own interval (`localEveryMs`, else its
 * run's), or every `overrideMs` when a test sets SCHEDULE_INTERVAL_MS. Jobs on the same interval run
 * together, in the schedule's order, one run at a time.
 */
export function localTimers(overrideMs?: number): { everyMs: number; jobs: ScheduledJob[] }[] {
  const byInterval = new Map<number, ScheduledJob[]>();
  for (const run of SCHEDULE)
    for (const job of run.jobs) {
      const everyMs = overrideMs ?? job.localEveryMs ?? run.everyMs;
      byInterval.set(everyMs, [...(byInterval.get(everyMs) ?? []), job]);
    }
  return [...byInterval].map(([everyMs, jobs]) => ({ everyMs, jobs }));
}
