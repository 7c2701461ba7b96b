/** The retention run the scheduled function and the local server's timer share. */
import type { Kysely } from "kysely";
import { applyRetention, type RetentionResult } from "#db/retention.repository.ts";
import type { Database } from "#db/types.ts";
import { retentionPolicy } from "#server/config.ts";
import { now } from "#server/office.ts";

/** Applies the configured retention policy now; returns what it did and a log line (null when nothing was due). */
export async function runRetention(db: Kysely<Database>): Promise<{ result: RetentionResult; summary: string | null }> {
  const result = await applyRetention(db, retentionPolicy(), now());
  const parts = Object.entries(result)
    .filter(([, count]) => count > 0)
    .map(([what, count]) => `${what} ${count}`);
  return { result, summary: parts.length ? `[retention] ${parts.join(", ")}` : null };
}
