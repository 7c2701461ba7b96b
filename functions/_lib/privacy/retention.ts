/** The retention run the scheduled function and the local server's timer share. */
import type { Kysely } from "kysely";
import { AUDIT_RETENTION_DAYS, purgeAudit } from "#db/audit.repository.ts";
import { applyRetention, type RetentionResult } from "#db/retention.repository.ts";
import { deleteOldSessions } from "#db/sessions.repository.ts";
import type { Database } from "#db/types.ts";
import { retentionPolicy } from "#server/config.ts";
import { now } from "#server/office.ts";
import { keyLegacyRecoveryCodes } from "../auth/recovery-codes.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Applies the configured retention policy now; returns what it did and a log line (null when nothing was due). */
export async function runRetention(db: Kysely<Database>): Promise<{
  result: RetentionResult & { auditEntriesDeleted: number; sessionsDeleted: number; recoveryCodesKeyed: number };
  summary: string | null;
}> {
  const at = now();
  const result = {
    ...(await applyRetention(db, retentionPolicy(), at)),
    // The audit record keeps a year; ended or expired sessions are kept a week (the list shows live ones only).
    auditEntriesDeleted: await purgeAudit(db, new Date(at.getTime() - AUDIT_RETENTION_DAYS * DAY_MS)),
    sessionsDeleted: await deleteOldSessions(db, new Date(at.getTime() - 7 * DAY_MS)),
    // Recovery codes stored before they were keyed are keyed now (none left after the first run).
    recoveryCodesKeyed: await keyLegacyRecoveryCodes(db),
  };
  const parts = Object.entries(result)
    .filter(([, count]) => count > 0)
    .map(([what, count]) => `${what} ${count}`);
  return { result, summary: parts.length ? `[retention] ${parts.join(", ")}` : null };
}
