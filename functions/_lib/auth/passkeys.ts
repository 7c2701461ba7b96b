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
import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from "@simplewebauthn/server";
import { passkeyByCredential, storeChallenge, takeChallenge, usePasskey } from "#db/factors.repository.ts";
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

/**
 * Verifies a passkey's assertion against the stored key and a challenge of `purpose` kept for
 * `userId`, with user verification, and advances the key's counter. False for any failure: a
 * wrong origin or RP ID, a spent or foreign challenge, a replayed counter.
 */
export async function verifiedPasskey(
  db: Kysely<Database>,
  response: AuthenticationResponseJSON,
  stored: NonNullable<Awaited<ReturnType<typeof passkeyByCredential>>>,
  purpose: "passkey-signin" | "passkey-step-up",
  userId: number | null,
): Promise<boolean> {
  const { origin, rpID } = relyingParty();
  let verified = false;
  let newCounter = 0;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => takeChallenge(db, { purpose, challenge, userId }),
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: stored.credentialId,
        publicKey: new Uint8Array(stored.publicKey),
        counter: Number(stored.counter),
        transports: stored.transports,
      },
      requireUserVerification: true,
    });
    verified = result.verified;
    newCounter = result.authenticationInfo.newCounter;
  } catch {
    verified = false;
  }
  return verified && (await usePasskey(db, stored.id, newCounter));
}
