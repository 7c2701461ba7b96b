/**
 * The second factor's meaning: TOTP (RFC 6238: SHA-1, six digits, 30-second steps, a code accepted
 * one step early or late, each step once), recovery codes (ten random codes of 50 bits, stored as
 * keyed hashes by recovery-codes.ts, each spent once), and the login's second step: after a right
 * password an account with a factor gets no session but a signed, five-minute, single-use challenge cookie that only
 * POST /api/login/second-factor reads.
 */
import { randomBytes, randomInt } from "node:crypto";
import type { Context } from "@netlify/functions";
import { SignJWT, jwtVerify } from "jose";
import type { Kysely } from "kysely";
import { Secret, TOTP } from "otpauth";
import { encode } from "uqr";
import { ComparisonsBusy, verifyPassword } from "#db/admins.ts";
import {
  acceptTotpStep,
  LastFactorError,
  spendRecoveryCode,
  storeChallenge,
  totpSecrets,
} from "#db/factors.repository.ts";
import { recordFailure } from "#db/login-attempts.repository.ts";
import { seal, unseal } from "#db/seal.ts";
import type { Database } from "#db/types.ts";
import { findUserById } from "#db/users.repository.ts";
import { site } from "#config/site.ts";
import { factorSealKey, jwtSecret } from "#server/config.ts";
import type { QrCode } from "#shared/api/factors.ts";
import {
  normalizeTotp,
  RECOVERY_CODE_COUNT,
  type ReauthPayload,
  type SecondStepPayload,
} from "#shared/schemas/factors.ts";
import { ROUTES } from "#shared/routes.ts";
import { HttpError, clientIp } from "../http/http.ts";
import { addressKey } from "../forms/limits.ts";
import { hashRecoveryCode, keyLegacyRecoveryCodes } from "./recovery-codes.ts";
import { codeSucceeded, loginNotEvaluated, loginSucceeded, takeCodeTry, takeLoginTry } from "./throttle.ts";

/** TOTP's step, in seconds; a code is accepted in its own step and one before or after. */
export const TOTP_PERIOD = 30;
const TOTP_WINDOW = 1;
const TOTP_OPTIONS = { algorithm: "SHA1", digits: 6, period: TOTP_PERIOD } as const;

/** A new TOTP secret for `username`: its base32 text, the otpauth:// URI, the QR code of it, and the sealed form to store. */
export function newTotpSetup(username: string): { secret: string; uri: string; qr: QrCode; sealed: string } {
  const secret = new Secret({ size: 20 });
  const totp = new TOTP({ ...TOTP_OPTIONS, issuer: site.name, label: username, secret });
  const uri = totp.toString();
  return { secret: secret.base32, uri, qr: qrCode(uri), sealed: seal(secret.base32, factorSealKey()) };
}

/** A QR code as one SVG path (a 1×1 square per dark module), drawn by the panel without inline script or style. */
export function qrCode(text: string): QrCode {
  const { size, data } = encode(text, { border: 2, ecc: "M" });
  let path = "";
  data.forEach((row, y) => row.forEach((dark, x) => (path += dark ? `M${x} ${y}h1v1h-1z` : "")));
  return { size, path };
}

/** The time step a code was made at (the current one ±1), or null when it is none of them. */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const delta = TOTP.validate({
    ...TOTP_OPTIONS,
    token: normalizeTotp(code),
    secret: Secret.fromBase32(secretBase32),
    timestamp: now,
    window: TOTP_WINDOW,
  });
  return delta === null ? null : TOTP.counter({ period: TOTP_PERIOD, timestamp: now }) + delta;
}

/** The base32 secret of a stored (sealed) one. */
export const openSecret = (sealed: string): string => unseal(sealed, factorSealKey());

export { hashRecoveryCode };

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** RECOVERY_CODE_COUNT new codes ("abcde-fgh23", 50 random bits each) and their hashes. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => BASE32[randomInt(32)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map(hashRecoveryCode) };
}

/**
 * Checks a TOTP or recovery code of the user and spends it (the code's step, or the recovery code)
 * in one statement; the factor used, or null when the code is wrong or already used.
 */
export async function useFactorCode(
  db: Kysely<Database>,
  userId: number,
  payload: { code?: string; recoveryCode?: string },
  now = Date.now(),
): Promise<"totp" | "recovery" | null> {
  const { secret } = await totpSecrets(db, userId);
  if (!secret) return null;
  if (payload.code !== undefined) {
    const step = totpStep(openSecret(secret), payload.code, now);
    return step !== null && (await acceptTotpStep(db, userId, step)) ? "totp" : null;
  }
  if (payload.recoveryCode !== undefined) {
    await keyLegacyRecoveryCodes(db);
    return (await spendRecoveryCode(db, userId, hashRecoveryCode(payload.recoveryCode))) ? "recovery" : null;
  }
  return null;
}

/**
 * Checks a code under the login throttle (per account and per address, as passwords are, and the
 * account's own count of wrong codes): 429 when the tries are used up, even for a right code; a
 * wrong one counts as a failed sign-in.
 */
export async function throttledFactorCode(
  db: Kysely<Database>,
  req: Request,
  context: Partial<Context>,
  user: { id: number; username: string },
  payload: SecondStepPayload,
): Promise<"totp" | "recovery" | null> {
  const ip = clientIp(req, context);
  const ticket = await takeLoginTry(db, user.username, ip);
  // Codes also count per account on their own, so a right password in between gives no new tries.
  const codeTicket = await takeCodeTry(db, user.id).catch(async (error: unknown) => {
    await loginNotEvaluated(db, ticket);
    throw error;
  });
  const factor = await useFactorCode(db, user.id, payload);
  if (factor) await Promise.all([loginSucceeded(db, ticket), codeSucceeded(db, codeTicket)]);
  else await recordFailure(db, [`user:${user.username.trim().toLowerCase()}`, `ip:${ip}`]);
  return factor;
}

/**
 * Removing TOTP or making new recovery codes asks again who this is: the password (checked like a
 * sign-in) or a current code. A wrong one is 403 and counts as a failed sign-in.
 */
export async function requireReauth(
  db: Kysely<Database>,
  req: Request,
  context: Partial<Context>,
  me: { id: number; username: string },
  payload: ReauthPayload,
): Promise<"password" | "totp"> {
  if (payload.code !== undefined) {
    if ((await throttledFactorCode(db, req, context, me, { code: payload.code })) === "totp") return "totp";
    throw new HttpError(403, "The code is not right", { errors: { code: ["The code is not right"] } });
  }
  const ip = clientIp(req, context);
  const ticket = await takeLoginTry(db, me.username, ip);
  const user = await findUserById(db, me.id);
  if (!user) throw new HttpError(401, "Authentication required");
  let ok: boolean;
  try {
    ok = await verifyPassword(payload.password ?? "", user.password, addressKey(ip));
  } catch (error) {
    if (!(error instanceof ComparisonsBusy)) throw error;
    await loginNotEvaluated(db, ticket);
    throw new HttpError(429, error.message, {}, { "Retry-After": "1" });
  }
  if (!ok) {
    await recordFailure(db, [`user:${me.username.trim().toLowerCase()}`, `ip:${ip}`]);
    throw new HttpError(403, "The password is not right", { errors: { password: ["The password is not right"] } });
  }
  await loginSucceeded(db, ticket);
  return "password";
}

/** LastFactorError (db/factors.repository.ts) as its answer: 409 lastFactor; anything else as it is. */
export function lastFactorAnswer(error: unknown): unknown {
  if (error instanceof LastFactorError) return new HttpError(409, error.message, { code: "lastFactor" });
  return error;
}

// ——— The login's second step ———

export const SECOND_STEP_COOKIE = `${site.slug}_second_step`;
/** How long the second step may wait after the password. */
export const SECOND_STEP_SECONDS = 5 * 60;
const SECOND_STEP_AUDIENCE = "second-step";

/** A signed challenge for the second step of `userId`: its row (single use) and the token naming it. */
export async function issueSecondStep(db: Kysely<Database>, userId: number): Promise<string> {
  const id = randomBytes(16).toString("base64url");
  await storeChallenge(db, {
    id,
    purpose: "second-step",
    userId,
    expiresAt: new Date(Date.now() + SECOND_STEP_SECONDS * 1000),
  });
  return new SignJWT({ cid: id })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(String(userId))
    .setAudience(SECOND_STEP_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${SECOND_STEP_SECONDS}s`)
    .sign(jwtSecret());
}

/** The challenge a request's cookie names, if its signature and time hold (the row is checked by its taker). */
export async function readSecondStep(req: Request): Promise<{ id: string; userId: number } | null> {
  const token = readCookie(req, SECOND_STEP_COOKIE);
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, jwtSecret(), { algorithms: ["HS256"], audience: SECOND_STEP_AUDIENCE });
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId) || typeof payload.cid !== "string") return null;
    return { id: payload.cid, userId };
  } catch {
    return null;
  }
}

const secure = (req: Request) =>
  new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";

/** The challenge cookie: HttpOnly, SameSite=Strict, sent to the login's own endpoints only. */
export function secondStepCookie(token: string, req: Request, maxAge = SECOND_STEP_SECONDS): string {
  return `${SECOND_STEP_COOKIE}=${token}; Path=${ROUTES.login}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure(req) ? "; Secure" : ""}`;
}

export const clearedSecondStepCookie = (req: Request): string => secondStepCookie("", req, 0);

function readCookie(req: Request, name: string): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return null;
}
