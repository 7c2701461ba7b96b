/**
 * Scheduled every 15 minutes (Netlify Scheduled Functions, UTC cron): the schedule's "frequent" run
 * (functions/_lib/schedule.ts): queues the 24-hour reminders that are due, sends the outbox's due
 * emails, deletes the abuse limits' spent counters, then refreshes the connected calendars' busy
 * times (BUSY_CALENDARS' feeds included). Not reachable over HTTP. Overlapping runs queue and send
 * each message once. `npm start` runs the same jobs on timers (scripts/runtime/runtime.mjs).
 * A run sends side by side over the instance's pooled SMTP connections: a backlog of 2,000 against
 * a server taking 150 ms per message goes out in one run (`npm run rehearse:deploy` measures it).
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { scheduledHandler } from "./_lib/schedule.ts";

export { RUN_BUDGET_MS, RUN_DEADLINE_MS } from "./_lib/schedule.ts";

export default scheduledHandler("frequent", getDb);

// Netlify reads the cron from this file's text: the "frequent" run's cron, which the schedule test compares.
export const config: Config = { schedule: "*/15 * * * *" };
