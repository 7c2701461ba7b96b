/**
 * Scheduled every minute (Netlify Scheduled Functions, UTC cron): sends the outbox's due emails,
 * which are the ones whose first attempt failed or was cut short, and deletes the abuse limits'
 * spent counters (one indexed DELETE). Not reachable over HTTP.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "../db/client.ts";
import { pruneCounters } from "../db/rate-limits.repository.ts";
import { deliverDue } from "./_lib/mail/outbox.ts";
import { mailTransport } from "./_lib/mail/transport.ts";

export default async (): Promise<void> => {
  // A scheduled run may take 30 s: stop claiming after 20 so every claimed message is finished.
  const { sent, failed } = await deliverDue(getDb(), mailTransport(), { limit: 100, budgetMs: 20_000 });
  if (sent || failed) console.log(`[mail] retry run: ${sent} sent, ${failed} failed`);
  await pruneCounters(getDb());
};

export const config: Config = { schedule: "* * * * *" };
