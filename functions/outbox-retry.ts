/**
 * Scheduled every 15 minutes (Netlify Scheduled Functions, UTC cron): queues the 24-hour reminders
 * that are due, then sends the outbox's due emails (those reminders, and the few messages whose
 * first attempt, right after the request, failed or was cut short), and deletes the abuse limits'
 * spent counters (one indexed DELETE), then refreshes the connected calendars' busy times
 * (functions/_lib/calendars/refresh.ts). Not reachable over HTTP. Overlapping runs queue and send each
 * message once.
 *
 * Why every 15 minutes: each run queries the database, and Neon suspends a compute only after
 * 5 idle minutes. Run every minute, the database never sleeps (0.25 CU × 730 h ≈ 183 CU-hours a
 * month); every 15 minutes it is awake at most 5 of every 15 minutes when the site is quiet
 * (≈ 61 CU-hours, within the Free plan's 100). A failed email waits at most 15 minutes more, a
 * reminder leaves between 24 hours and 23 h 45 before its meeting, and spent counters only take room
 * until they are deleted (they never count again).
 * A run sends side by side over the instance's pooled SMTP connections: a backlog of 2,000 against
 * a server taking 150 ms per message goes out in one run (`npm run rehearse:deploy` measures it).
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { pruneCounters } from "#db/rate-limits.repository.ts";
import { now } from "#server/office.ts";
import { refreshCalendars } from "./_lib/calendars/refresh.ts";
import { deliverDue } from "./_lib/mail/delivery.ts";
import { enqueueDueReminders } from "./_lib/mail/outbox.ts";
import { mailTransport } from "./_lib/mail/transport.ts";

/** No new claims after this (ms); nothing waited for after RUN_DEADLINE_MS: well inside the platform's 30 s. */
export const RUN_BUDGET_MS = 20_000;
export const RUN_DEADLINE_MS = 26_000;

export default async (): Promise<void> => {
  await enqueueDueReminders(getDb(), now());
  const { sent, failed, unfinished } = await deliverDue(getDb(), mailTransport(), {
    budgetMs: RUN_BUDGET_MS,
    deadlineMs: RUN_DEADLINE_MS,
  });
  if (sent || failed || unfinished)
    console.log(`[mail] retry run: ${sent} sent, ${failed} failed, ${unfinished} left for the next run`);
  await pruneCounters(getDb());
  const failing = (await refreshCalendars(getDb(), now())).filter((r) => !r.ok);
  for (const r of failing) console.log(`[calendars] feed ${r.id} failed: ${r.error}`);
};

export const config: Config = { schedule: "*/15 * * * *" };
