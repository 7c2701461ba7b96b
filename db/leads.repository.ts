/**
 * The lead desk: a lead's stage, owner and follow-up date, changed by an admin against the version
 * they saw (optimistic concurrency: the row is locked, its version compared, and only then changed),
 * with a timeline row per change; and the editable list of reasons a lead is lost for.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { AdminEnquiry, LeadEvent, LostReason } from "#shared/api/enquiries.ts";
import { DEFAULT_LANGUAGE, LANGUAGES } from "#shared/languages.ts";
import { canMove, type LeadStage } from "#shared/leads.ts";
import type { LeadPatch } from "#shared/schemas/enquiries.ts";
import { newestNote } from "./admin-rows.ts";
import { ADMIN_COLUMNS, toAdminEnquiry } from "./enquiries.repository.ts";
import { isSerialId, toIso } from "./rows.ts";
import type { Database, LeadEventsTable } from "./types.ts";

/** Who makes a change: an admin account. */
export interface Actor {
  id: number;
  username: string;
}

/** What a change asked for that the lead or the database refuses (answered 400 with the field). */
export class LeadChangeError extends Error {
  // A plain field, not a parameter property: Node runs this file by stripping types (npm start).
  readonly field: "stage" | "ownerId" | "lostReasonId";
  constructor(field: "stage" | "ownerId" | "lostReasonId", message: string) {
    super(message);
    this.field = field;
  }
}

/** One change, as changeLead did it: what it was before and after, for the audit record. */
export interface LeadChange {
  kind: LeadEventsTable["kind"];
  from: string | null;
  to: string | null;
  /** An owner change: the usernames of the owners before and after. */
  fromName?: string | null;
  toName?: string | null;
}

export type ChangeResult =
  | { outcome: "changed"; lead: AdminEnquiry; changes: LeadChange[] }
  | { outcome: "conflict"; lead: AdminEnquiry; by: string | null }
  | { outcome: "missing" };

const lastActor = async (trx: Transaction<Database>, id: number) =>
  (
    await trx
      .selectFrom("leadEvents")
      .select("actorUsername")
      .where("enquiryId", "=", id)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst()
  )?.actorUsername ?? null;

/** The new owner's username; throws unless it is an admin account. */
async function checkOwner(trx: Transaction<Database>, ownerId: number): Promise<string> {
  const owner = await trx.selectFrom("users").select(["role", "username"]).where("id", "=", ownerId).executeTakeFirst();
  if (owner?.role !== "admin") throw new LeadChangeError("ownerId", "ownerId must be an admin account");
  return owner.username;
}

const usernameOf = async (trx: Transaction<Database>, id: number | null) =>
  id === null
    ? null
    : ((await trx.selectFrom("users").select("username").where("id", "=", id).executeTakeFirst())?.username ?? null);

async function checkReason(trx: Transaction<Database>, reasonId: number) {
  const reason = await trx.selectFrom("lostReasons").select("archivedAt").where("id", "=", reasonId).executeTakeFirst();
  if (!reason || reason.archivedAt) throw new LeadChangeError("lostReasonId", "lostReasonId must be a reason on offer");
}

/**
 * Changes a lead's stage (with its reason or service and value), owner and follow-up date, if it is
 * still at `patch.version`: otherwise nothing changes and the answer is the lead as it is now, with
 * who changed it last. Throws LeadChangeError for a move the stages do not allow, an owner that is
 * no admin, or a reason not on offer.
 */
export async function changeLead(
  db: Kysely<Database>,
  id: number,
  patch: LeadPatch,
  actor: Actor,
): Promise<ChangeResult> {
  if (!isSerialId(id)) return { outcome: "missing" };
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("enquiries")
      .select(ADMIN_COLUMNS)
      .select(newestNote("enquiries"))
      .where("id", "=", id)
      .where("anonymisedAt", "is", null)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return { outcome: "missing" };
    if (row.version !== patch.version) {
      return { outcome: "conflict", lead: toAdminEnquiry(row), by: await lastActor(trx, id) };
    }

    const changes: LeadChange[] = [];
    const set: Record<string, unknown> = {};
    const stage = patch.stage;
    if (stage !== undefined) {
      if (stage !== row.stage && !canMove(row.stage, stage)) {
        throw new LeadChangeError("stage", `A lead cannot move from ${row.stage} to ${stage}`);
      }
      if (stage === "lost") await checkReason(trx, patch.lostReasonId!);
      Object.assign(set, stageColumns(row.stage, stage, patch));
      if (stage !== row.stage) changes.push({ kind: "stage", from: row.stage, to: stage });
    }
    if (patch.ownerId !== undefined && patch.ownerId !== row.ownerId) {
      const toName = patch.ownerId === null ? null : await checkOwner(trx, patch.ownerId);
      set.ownerId = patch.ownerId;
      changes.push({
        kind: "owner",
        from: idText(row.ownerId),
        to: idText(patch.ownerId),
        fromName: await usernameOf(trx, row.ownerId),
        toName,
      });
    }
    if (patch.followUpOn !== undefined && patch.followUpOn !== row.followUpOn) {
      set.followUpOn = patch.followUpOn;
      changes.push({ kind: "follow_up", from: row.followUpOn, to: patch.followUpOn });
    }

    const updated = await trx
      .updateTable("enquiries")
      .set({ ...set, version: row.version + 1 })
      .where("id", "=", id)
      .returning(ADMIN_COLUMNS)
      .returning(newestNote("enquiries"))
      .executeTakeFirstOrThrow();
    if (changes.length) {
      await trx
        .insertInto("leadEvents")
        .values(
          changes.map((c) => ({
            enquiryId: id,
            kind: c.kind,
            fromValue: c.from,
            toValue: c.to,
            actorId: actor.id,
            actorUsername: actor.username,
          })),
        )
        .execute();
    }
    return { outcome: "changed", lead: toAdminEnquiry(updated), changes };
  });
}

const idText = (id: number | null) => (id === null ? null : String(id));

/**
 * The columns a stage brings: leaving "new" starts the reply time (kept on later moves), going back
 * to "new" clears it; only lost keeps a reason and only a client its service and value.
 */
function stageColumns(from: LeadStage, to: LeadStage, patch: LeadPatch) {
  return {
    stage: to,
    ...(from !== to && { stageChangedAt: sql<Date>`now()` }),
    ...(to === "new" && { repliedAt: null }),
    ...(from === "new" && to !== "new" && { repliedAt: sql<Date>`coalesce(replied_at, now())` }),
    lostReasonId: to === "lost" ? patch.lostReasonId! : null,
    clientService: to === "client" ? patch.clientService! : null,
    clientValueCents: to === "client" ? (patch.clientValueCents ?? null) : null,
  };
}

/** A lead's timeline, oldest first. */
export async function leadEvents(db: Kysely<Database>, id: number): Promise<LeadEvent[]> {
  if (!isSerialId(id)) return [];
  const rows = await db
    .selectFrom("leadEvents")
    .select(["kind", "fromValue", "toValue", "actorUsername", "at"])
    .where("enquiryId", "=", id)
    .orderBy("at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ kind: r.kind, from: r.fromValue, to: r.toValue, by: r.actorUsername, at: toIso(r.at) }));
}

/** A reason's labels in every language of src/shared/languages.ts (English where one has none yet). */
const toLostReason = (row: { id: number; labels: Record<string, string>; archivedAt: Date | null }): LostReason => ({
  id: row.id,
  labels: Object.fromEntries(
    LANGUAGES.map((lang) => [lang, Object.hasOwn(row.labels, lang) ? row.labels[lang] : row.labels[DEFAULT_LANGUAGE]]),
  ) as LostReason["labels"],
  archived: row.archivedAt !== null,
});

const REASON_COLUMNS = ["id", "labels", "archivedAt"] as const;

/** Every lost reason, archived ones included (old leads still name them), in the order they were made. */
export async function listLostReasons(db: Kysely<Database>): Promise<LostReason[]> {
  const rows = await db.selectFrom("lostReasons").select(REASON_COLUMNS).orderBy("id").execute();
  return rows.map(toLostReason);
}

/** Adds a reason, on offer at once. */
export async function addLostReason(db: Kysely<Database>, labels: LostReason["labels"]): Promise<LostReason> {
  const row = await db
    .insertInto("lostReasons")
    .values({ labels: JSON.stringify(labels) })
    .returning(REASON_COLUMNS)
    .executeTakeFirstOrThrow();
  return toLostReason(row);
}

/** Renames a reason, or archives it (no longer offered) or offers it again; undefined when there is none. */
export async function changeLostReason(
  db: Kysely<Database>,
  id: number,
  change: { labels?: LostReason["labels"]; archived?: boolean },
): Promise<LostReason | undefined> {
  if (!isSerialId(id)) return undefined;
  const row = await db
    .updateTable("lostReasons")
    .set((eb) => ({
      ...(change.labels && { labels: JSON.stringify(change.labels) }),
      ...(change.archived !== undefined && {
        archivedAt: change.archived ? eb.fn.coalesce("archivedAt", sql<Date>`now()`) : null,
      }),
    }))
    .where("id", "=", id)
    .returning(REASON_COLUMNS)
    .executeTakeFirst();
  return row && toLostReason(row);
}
