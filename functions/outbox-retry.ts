/**
 * Scheduled every minute (Netlify Scheduled Functions, UTC cron): queues the 24-hour reminders that
 * are due, then sends the outbox's due emails (those reminders, and messages whose first attempt
 * failed or was cut short), and deletes the abuse limits' spent counters (one indexed DELETE). Not
 * reachable over HTTP. Overlapping runs queue and send each message once.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "../db/client.ts";
import { pruneCounters } from "../db/rate-limits.repository.ts";
import { now } from "../src/config/server.ts";
import { deliverDue, enqueueDueReminders } from "./_lib/mail/outbox.ts";
import { mailTransport } from "./_lib/mail/transport.ts";

export default async (): Promise<void> => {
  await enqueueDueReminders(getDb(), now());
  // A scheduled run may take 30 s: stop claiming after 20 so every claimed message is finished.
  const { sent, failed } = await deliverDue(getDb(), mailTransport(), { limit: 100, budgetMs: 20_000 });
  if (sent || failed) console.log(`[mail] retry run: ${sent} sent, ${failed} failed`);
  await pruneCounters(getDb());
};

export const config: Config = { schedule: "* * * * *" };
