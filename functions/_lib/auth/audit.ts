/**
 * Appends to the audit record (db/audit.repository.ts) what a request did: who (the signed-in
 * person, or the name typed at sign-in), when (the database's clock), from where (country or
 * network prefix, functions/_lib/auth/session-meta.ts) and what it touched.
 */
import type { Context } from "@netlify/functions";
import type { Kysely } from "kysely";
import { appendAudit } from "#db/audit.repository.ts";
import type { Database } from "#db/types.ts";
import type { AuditAction } from "#shared/schemas/security.ts";
import { requestPlace } from "./session-meta.ts";

export interface AuditWhat {
  target?: string;
  subject?: string | null;
  detail?: Record<string, unknown>;
}

/** Records one action by `actor` (null: nobody signed in, e.g. a failed sign-in). */
export async function audit(
  db: Kysely<Database>,
  req: Request,
  context: Partial<Context> | undefined,
  actor: { id: number; username: string } | null,
  action: AuditAction,
  what: AuditWhat = {},
): Promise<void> {
  await appendAudit(db, {
    actorId: actor?.id ?? null,
    actor: actor?.username ?? "",
    place: requestPlace(req, context),
    action,
    ...what,
  });
}
