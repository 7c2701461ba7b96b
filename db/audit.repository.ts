import { type Kysely, sql } from "kysely";
import type { Database } from "./types.ts";
import type { AuditEntry } from "#shared/api/security.ts";
import type { AuditAction, AuditQuery } from "#shared/schemas/security.ts";

export { AUDIT_RETENTION_DAYS } from "#shared/schemas/security.ts";

/** What an entry says; `subject` is whom it is about (a visitor's address, a typed username), if anyone. */
export interface NewAuditEntry {
  actorId: number | null;
  actor: string;
  place: string;
  action: AuditAction;
  target?: string;
  subject?: string | null;
  detail?: Record<string, unknown>;
}

/** Appends one entry. The table refuses UPDATE and DELETE (a trigger), so this is the only write. */
export async function appendAudit(db: Kysely<Database>, entry: NewAuditEntry): Promise<void> {
  await db
    .insertInto("auditLog")
    .values({
      actorId: entry.actorId,
      actor: entry.actor,
      place: entry.place,
      action: entry.action,
      target: entry.target ?? "",
      subject: entry.subject ? entry.subject.trim().toLowerCase() : null,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
}

const toEntry = (row: {
  id: string;
  at: Date;
  actor: string;
  place: string;
  action: string;
  target: string;
  subject: string | null;
  detail: Record<string, unknown>;
}): AuditEntry => ({ ...row, id: String(row.id), at: new Date(row.at).toISOString() });

/**
 * Entries newest first, filtered: actor by name (exact, case-insensitive), action, UTC days `from`
 * to `to` (both included), and `before` an entry id for the next page.
 */
export async function listAudit(db: Kysely<Database>, query: AuditQuery, limit: number): Promise<AuditEntry[]> {
  let select = db
    .selectFrom("auditLog")
    .select(["id", "at", "actor", "place", "action", "target", "subject", "detail"])
    .orderBy("id", "desc")
    .limit(limit);
  if (query.actor) select = select.where(sql`lower(actor)`, "=", query.actor.trim().toLowerCase());
  if (query.action) select = select.where("action", "=", query.action);
  if (query.from) select = select.where("at", ">=", sql<Date>`${query.from}::date::timestamp AT TIME ZONE 'UTC'`);
  if (query.to) select = select.where("at", "<", sql<Date>`(${query.to}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  if (query.before) select = select.where("id", "<", query.before);
  return (await select.execute()).map(toEntry);
}

/**
 * The erasure scrub: entries about this address (as their subject, or as the actor's typed name)
 * keep what happened and lose who it was about. Run inside the erasure's own transaction or alone.
 */
export async function scrubAuditSubject(db: Kysely<Database>, email: string): Promise<number> {
  const key = email.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('app.audit_scrub', 'on', true)`.execute(trx);
    const result = await trx
      .updateTable("auditLog")
      .set({
        subject: null,
        actor: sql<string>`CASE WHEN lower(actor) = ${key} THEN '' ELSE actor END`,
        target: sql<string>`CASE WHEN lower(target) = ${key} THEN '' ELSE target END`,
      })
      .where((eb) =>
        eb.or([eb("subject", "=", key), eb(sql`lower(actor)`, "=", key), eb(sql`lower(target)`, "=", key)]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

/** The retention purge: deletes entries older than `before`; returns how many. */
export async function purgeAudit(db: Kysely<Database>, before: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('app.audit_purge', 'on', true)`.execute(trx);
    const result = await trx.deleteFrom("auditLog").where("at", "<", before).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
