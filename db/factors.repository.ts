/**
 * Second factors (functions/_lib/auth/factors.ts gives them meaning): TOTP's sealed secret and last
 * accepted time step, one-time recovery codes (their SHA-256), passkeys, the short-lived single-use
 * challenges of the sign-in and of a passkey's registration, and the setting that every account
 * must have a factor. Every "once" is one UPDATE or DELETE whose WHERE holds the condition, so two
 * concurrent requests cannot both pass.
 */
import { type Kysely, sql } from "kysely";
import { isSerialId } from "./rows.ts";
import type { AuthChallengesTable, Database } from "./types.ts";

/** A passkey as the account's list shows it. */
export interface PasskeyRow {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  transports: string[];
}

/** What the account's factors page needs. */
export interface FactorState {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: PasskeyRow[];
  email: string | null;
}

/** Ends the user's live sessions but `keep`; returns how many ended. */
async function endOtherSessions(trx: Kysely<Database>, userId: number, keep?: string): Promise<number> {
  let query = trx
    .updateTable("adminSessions")
    .set({ endedAt: sql`now()` })
    .where("userId", "=", userId)
    .where("endedAt", "is", null);
  if (keep) query = query.where("id", "!=", keep);
  return Number((await query.executeTakeFirst()).numUpdatedRows);
}

export async function factorState(db: Kysely<Database>, userId: number): Promise<FactorState> {
  const user = await db.selectFrom("users").select(["totpSecret", "email"]).where("id", "=", userId).executeTakeFirst();
  const { left } = await db
    .selectFrom("recoveryCodes")
    .select((eb) => eb.fn.countAll<string>().as("left"))
    .where("userId", "=", userId)
    .where("usedAt", "is", null)
    .executeTakeFirstOrThrow();
  return {
    totp: Boolean(user?.totpSecret),
    recoveryCodesLeft: user?.totpSecret ? Number(left) : 0,
    passkeys: await listPasskeys(db, userId),
    email: user?.email ?? null,
  };
}

/** Whether the user has TOTP or a passkey. */
export async function hasSecondFactor(
  db: Kysely<Database>,
  userId: number,
): Promise<{ totp: boolean; passkey: boolean }> {
  const row = await db
    .selectFrom("users as u")
    .select([
      sql<boolean>`u.totp_secret IS NOT NULL`.as("totp"),
      sql<boolean>`EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = u.id)`.as("passkey"),
    ])
    .where("u.id", "=", userId)
    .executeTakeFirst();
  return { totp: Boolean(row?.totp), passkey: Boolean(row?.passkey) };
}

/** Keeps a new sealed secret to be confirmed; false when TOTP is already on. */
export async function setPendingTotp(db: Kysely<Database>, userId: number, sealed: string): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ totpPendingSecret: sealed })
    .where("id", "=", userId)
    .where("totpSecret", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The sealed secret being set up, and the one in use, of a user. */
export async function totpSecrets(
  db: Kysely<Database>,
  userId: number,
): Promise<{ pending: string | null; secret: string | null }> {
  if (!isSerialId(userId)) return { pending: null, secret: null };
  const row = await db
    .selectFrom("users")
    .select(["totpPendingSecret", "totpSecret"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return { pending: row?.totpPendingSecret ?? null, secret: row?.totpSecret ?? null };
}

/**
 * Switches TOTP on with the pending secret `sealed` (the one the first code was checked against),
 * noting `step` as used, and replaces the recovery codes; false when the pending secret changed
 * meanwhile or TOTP is already on.
 */
export async function enableTotp(
  db: Kysely<Database>,
  userId: number,
  sealed: string,
  step: number,
  codeHashes: string[],
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("users")
      .set({
        totpSecret: sealed,
        totpPendingSecret: null,
        totpEnabledAt: sql`now()`,
        totpLastStep: step,
      })
      .where("id", "=", userId)
      .where("totpPendingSecret", "=", sealed)
      .where("totpSecret", "is", null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await writeRecoveryCodes(trx, userId, codeHashes);
    return true;
  });
}

/**
 * Accepts a TOTP code's time step once: raises the user's last used step to `step` only if it is
 * lower (one UPDATE, so of two concurrent uses of one code exactly one passes).
 */
export async function acceptTotpStep(db: Kysely<Database>, userId: number, step: number): Promise<boolean> {
  const row = await db
    .updateTable("users")
    .set({ totpLastStep: step })
    .where("id", "=", userId)
    .where("totpSecret", "is not", null)
    .where((eb) => eb.or([eb("totpLastStep", "is", null), eb("totpLastStep", "<", String(step))]))
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Thrown instead of removing an account's last factor while every account must have one. */
export class LastFactorError extends Error {
  constructor() {
    super("Every account must have a second factor: set up another before removing this one.");
  }
}

/**
 * Locks the user's row for the rest of the transaction, then, while every account must have a
 * factor, throws LastFactorError unless the account keeps one besides `removing`. Two removals at
 * once queue on the lock: the second counts after the first's delete.
 */
async function keepOneFactor(
  trx: Kysely<Database>,
  userId: number,
  removing: { totp: true } | { passkey: number },
): Promise<void> {
  const user = await trx
    .selectFrom("users")
    .select("totpSecret")
    .where("id", "=", userId)
    .forUpdate()
    .executeTakeFirst();
  if (!user || ("totp" in removing && user.totpSecret === null) || !(await secondFactorRequired(trx))) return;
  let others = trx
    .selectFrom("passkeys")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("userId", "=", userId);
  if ("passkey" in removing) others = others.where("id", "!=", removing.passkey);
  const { n } = await others.executeTakeFirstOrThrow();
  const totpStays = "passkey" in removing && user.totpSecret !== null;
  if (!totpStays && Number(n) === 0) throw new LastFactorError();
}

/**
 * Switches TOTP off, drops the recovery codes and ends the other sessions; returns how many ended,
 * or null if it was off. LastFactorError when it is the last factor and every account must have one.
 */
export async function disableTotp(db: Kysely<Database>, userId: number, keep: string): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    await keepOneFactor(trx, userId, { totp: true });
    const result = await trx
      .updateTable("users")
      .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null })
      .where("id", "=", userId)
      .where("totpSecret", "is not", null)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return null;
    await trx.deleteFrom("recoveryCodes").where("userId", "=", userId).execute();
    return endOtherSessions(trx, userId, keep);
  });
}

async function writeRecoveryCodes(trx: Kysely<Database>, userId: number, codeHashes: string[]): Promise<void> {
  await trx.deleteFrom("recoveryCodes").where("userId", "=", userId).execute();
  await trx
    .insertInto("recoveryCodes")
    .values(codeHashes.map((codeHash) => ({ userId, codeHash })))
    .execute();
}

/** Replaces all recovery codes (TOTP must be on); false when it is off. */
export async function replaceRecoveryCodes(
  db: Kysely<Database>,
  userId: number,
  codeHashes: string[],
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const on = await trx
      .selectFrom("users")
      .select("id")
      .where("id", "=", userId)
      .where("totpSecret", "is not", null)
      .forUpdate()
      .executeTakeFirst();
    if (!on) return false;
    await writeRecoveryCodes(trx, userId, codeHashes);
    return true;
  });
}

/** Spends a recovery code: true exactly once per code. */
export async function spendRecoveryCode(db: Kysely<Database>, userId: number, codeHash: string): Promise<boolean> {
  const row = await db
    .updateTable("recoveryCodes")
    .set({ usedAt: sql`now()` })
    .where("userId", "=", userId)
    .where("codeHash", "=", codeHash)
    .where("usedAt", "is", null)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** The user's passkeys, oldest first. */
export async function listPasskeys(db: Kysely<Database>, userId: number): Promise<PasskeyRow[]> {
  return db
    .selectFrom("passkeys")
    .select(["id", "name", "createdAt", "lastUsedAt", "transports"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
}

/** The credential ids of the user's passkeys (a new registration excludes them). */
export async function passkeyCredentialIds(
  db: Kysely<Database>,
  userId: number,
): Promise<{ credentialId: string; transports: string[] }[]> {
  return db.selectFrom("passkeys").select(["credentialId", "transports"]).where("userId", "=", userId).execute();
}

/** Stores a verified passkey; false when the credential is already registered. */
export async function addPasskey(
  db: Kysely<Database>,
  passkey: {
    userId: number;
    credentialId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    name: string;
  },
): Promise<PasskeyRow | undefined> {
  return db
    .insertInto("passkeys")
    .values(passkey)
    .onConflict((oc) => oc.column("credentialId").doNothing())
    .returning(["id", "name", "createdAt", "lastUsedAt", "transports"])
    .executeTakeFirst();
}

/** A passkey by its credential id, with its owner. */
export async function passkeyByCredential(db: Kysely<Database>, credentialId: string) {
  return db
    .selectFrom("passkeys as p")
    .innerJoin("users as u", "u.id", "p.userId")
    .select([
      "p.id",
      "p.credentialId",
      "p.publicKey",
      "p.counter",
      "p.transports",
      "p.name",
      "u.id as userId",
      "u.username",
      "u.role",
      "u.sessionVersion",
      "u.panelLanguage",
      "u.email",
    ])
    .where("p.credentialId", "=", credentialId)
    .executeTakeFirst();
}

/**
 * Notes a passkey's use with its new signature counter: only if the counter went up (or the
 * authenticator counts nothing, both zero), in one UPDATE: a cloned or replayed assertion fails.
 */
export async function usePasskey(db: Kysely<Database>, id: number, counter: number): Promise<boolean> {
  const row = await db
    .updateTable("passkeys")
    .set({ counter, lastUsedAt: sql`now()` })
    .where("id", "=", id)
    .where((eb) =>
      eb.or([eb("counter", "<", String(counter)), eb.and([eb("counter", "=", "0"), eb(sql.lit(counter), "=", 0)])]),
    )
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Renames one of the user's passkeys; false when there is no such passkey of theirs. */
export async function renamePasskey(db: Kysely<Database>, userId: number, id: number, name: string): Promise<boolean> {
  if (!isSerialId(id)) return false;
  const result = await db
    .updateTable("passkeys")
    .set({ name })
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Removes one of the user's passkeys and ends their other sessions; the removed name, or undefined.
 * LastFactorError when it is the last factor and every account must have one (checked under the
 * user's row lock, in the same transaction as the delete).
 */
export async function removePasskey(
  db: Kysely<Database>,
  userId: number,
  id: number,
  keep: string,
): Promise<{ name: string; sessionsEnded: number } | undefined> {
  if (!isSerialId(id)) return undefined;
  return db.transaction().execute(async (trx) => {
    await keepOneFactor(trx, userId, { passkey: id });
    const row = await trx
      .deleteFrom("passkeys")
      .where("id", "=", id)
      .where("userId", "=", userId)
      .returning("name")
      .executeTakeFirst();
    if (!row) return undefined;
    return { name: row.name, sessionsEnded: await endOtherSessions(trx, userId, keep) };
  });
}

type Purpose = AuthChallengesTable["purpose"];

/** Stores a challenge (and clears those that expired over an hour ago). */
export async function storeChallenge(
  db: Kysely<Database>,
  challenge: { id: string; purpose: Purpose; userId: number | null; challenge?: string; expiresAt: Date },
): Promise<void> {
  await db
    .deleteFrom("authChallenges")
    .where("expiresAt", "<", sql<Date>`now() - interval '1 hour'`)
    .execute();
  await db.insertInto("authChallenges").values(challenge).execute();
}

/** Whether a challenge is live (not taken, not expired). */
export async function challengeLive(
  db: Kysely<Database>,
  id: string,
  purpose: Purpose,
  userId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom("authChallenges")
    .select("id")
    .where("id", "=", id)
    .where("purpose", "=", purpose)
    .where("userId", "=", userId)
    .where("expiresAt", ">", sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes a live challenge: deletes it and answers whether it was there, so it works once. Found by
 * id, or by its WebAuthn challenge text; `userId` null matches a challenge issued to nobody yet.
 */
export async function takeChallenge(
  db: Kysely<Database>,
  where: { purpose: Purpose; id?: string; challenge?: string; userId: number | null },
): Promise<boolean> {
  if (where.id === undefined && where.challenge === undefined) return false;
  let query = db
    .deleteFrom("authChallenges")
    .where("purpose", "=", where.purpose)
    .where("expiresAt", ">", sql<Date>`now()`)
    .where("userId", where.userId === null ? "is" : "=", where.userId);
  if (where.id !== undefined) query = query.where("id", "=", where.id);
  if (where.challenge !== undefined) query = query.where("challenge", "=", where.challenge);
  return (await query.returning("id").executeTakeFirst()) !== undefined;
}

/** Whether every account must have a second factor. */
export async function secondFactorRequired(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom("officeSettings").select("requireSecondFactor").executeTakeFirst();
  return row?.requireSecondFactor ?? false;
}

export async function setSecondFactorRequired(db: Kysely<Database>, required: boolean): Promise<void> {
  await db
    .updateTable("officeSettings")
    .set({ requireSecondFactor: required, updatedAt: sql<Date>`now()` })
    .execute();
}
