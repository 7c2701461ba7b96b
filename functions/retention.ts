/**
 * Scheduled daily (Netlify Scheduled Functions, UTC cron): applies the retention policy of
 * server/config.ts (emails emptied, login attempts deleted, old enquiries and meetings
 * anonymised, stale newsletter sign-ups deleted). Not reachable over HTTP.
 */
import type { Config } from "@netlify/functions";
import { getDb } from "#db/client.ts";
import { runRetention } from "./_lib/privacy/retention.ts";

export default async (): Promise<void> => {
  const { summary } = await runRetention(getDb());
  if (summary) console.log(summary);
};

export const config: Config = { schedule: "17 3 * * *" };
