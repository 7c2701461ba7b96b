/**
 * Sealing a secret at rest: AES-256-GCM with a random 96-bit nonce, stored as
 * `sealed:v1:<base64 nonce|tag|ciphertext>`. A value without the prefix is read as it is (a row
 * stored before sealing), and sealed again the next time it is written.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const PREFIX = "sealed:v1:";

/** The sealed form of `plain` under `key` (32 bytes). */
export function seal(plain: string, key: Buffer): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64");
}

/** Thrown when a sealed value does not open under the key (JWT_SECRET changed, or the value was altered). */
export class SealBrokenError extends Error {}

/** The plain text of a sealed value; an unsealed value as it is. */
export function unseal(stored: string, key: Buffer): string {
  if (!stored.startsWith(PREFIX)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SealBrokenError("the stored value cannot be opened with this key");
  }
}

/** Whether a stored value is sealed. */
export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);
