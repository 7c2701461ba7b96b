/**
 * Scheduled daily at 03:17 UTC (Netlify Scheduled Functions): the schedule's "daily" run
 * (functions/_lib/schedule.ts), which applies the retention policy of server/config.ts (emails
 * emptied, login attempts deleted, old enquiries and meetings anonymised, stale newsletter sign-ups
 * deleted). Not reachable over HTTP. `npm start` runs it on a timer (scripts/runtime/runtime.mjs).
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { scheduledHandler } from "./_lib/schedule.ts";

export default scheduledHandler("daily", getDb);

// Netlify reads the cron from this file's text: the "daily" run's cron, which the schedule test compares.
export const config: Config = { schedule: "17 3 * * *" };
