/**
 * Passkeys (WebAuthn through @simplewebauthn/server): the relying party is PASSKEY_ORIGIN (else
 * SITE_URL), its host the RP ID. Registration and sign-in both require user verification (a PIN or
 * a fingerprint on the device), so a passkey alone counts as two factors. Sign-in is usernameless:
 * the credentials are discoverable (resident keys), the browser offers the person's passkeys for
 * this site and the credential id names the account. Every challenge is stored server side and taken
 * (deleted) by the verification that reads it, so each works once, within five minutes.
 */
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#db/types.ts";
import { storeChallenge } from "#db/factors.repository.ts";
import { passkeyOrigin } from "#server/config.ts";

/** How long a passkey ceremony may take, from its options to its answer. */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;

/** What the verifications expect: the origin, and its host as RP ID. */
export const relyingParty = (): { origin: string; rpID: string } => passkeyOrigin();

/** Stores a ceremony's challenge for its verification to take. */
export async function keepChallenge(
  db: Kysely<Database>,
  purpose: "passkey-register" | "passkey-signin" | "passkey-step-up",
  userId: number | null,
  challenge: string,
): Promise<void> {
  await storeChallenge(db, {
    id: randomBytes(16).toString("base64url"),
    purpose,
    userId,
    challenge,
    expiresAt: new Date(Date.now() + PASSKEY_CHALLENGE_SECONDS * 1000),
  });
}
