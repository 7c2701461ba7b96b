/**
 * Recovery codes at rest (ASVS 2.6.2): each is stored as `h1:` and HMAC-SHA-256, keyed by a secret
 * derived from JWT_SECRET (server/config.ts), of the SHA-256 of the code as typed. A leaked table
 * alone cannot be searched offline for the 50-bit codes: the key is not in the database.
 *
 * Rows written before the key (bare SHA-256, 64 hex digits) keep working: since the stored value is
 * the HMAC *of* that SHA-256, a bare row is keyed in place without knowing its code. Every check of
 * a recovery code does that first, and so does the daily retention run, so no bare row outlives a
 * day. (Changing JWT_SECRET invalidates the codes, as it does the sealed TOTP secrets.)
 */
import { createHash, createHmac } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "#db/types.ts";
import { recoveryCodeKey } from "#server/config.ts";
import { normalizeRecoveryCode } from "#shared/schemas/factors.ts";

const VERSION = "h1:";

/** The keyed form of a bare SHA-256 (hex). */
const keyed = (sha256Hex: string): string =>
  VERSION + createHmac("sha256", recoveryCodeKey()).update(sha256Hex).digest("hex");

/** What is stored for a recovery code as typed (case, spaces and the dash do not matter). */
export const hashRecoveryCode = (code: string): string =>
  keyed(createHash("sha256").update(normalizeRecoveryCode(code).replace("-", "")).digest("hex"));

/** Keys every bare SHA-256 row in place (one statement per row, few rows); returns how many. */
export async function keyLegacyRecoveryCodes(db: Kysely<Database>): Promise<number> {
  const bare = await db
    .selectFrom("recoveryCodes")
    .select(["id", "codeHash"])
    .where(sql<boolean>`code_hash ~ '^[0-9a-f]{64}$'`)
    .execute();
  for (const row of bare)
    await db
      .updateTable("recoveryCodes")
      .set({ codeHash: keyed(row.codeHash) })
      .where("id", "=", row.id)
      .where("codeHash", "=", row.codeHash)
      .execute();
  return bare.length;
}
