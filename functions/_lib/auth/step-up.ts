/**
 * Step-up: what protects an account (its factors, passkeys, notice address, the office's factor
 * setting) and who may use the panel (invitations, roles) change only within STEP_UP_SECONDS of a
 * proof made again in this session: the password, a TOTP code or a passkey assertion
 * (POST /api/account/step-up). The proof is noted on the session's row, so a stolen session cookie
 * alone can never make itself lasting access. The clock is the server's (Date.now()), both when the
 * proof is noted and when it is read.
 */
import type { Kysely } from "kysely";
import { recordStepUp } from "#db/sessions.repository.ts";
import type { Database } from "#db/types.ts";
import type { ReauthPayload } from "#shared/schemas/factors.ts";
import type { Context } from "@netlify/functions";
import { HttpError } from "../http/http.ts";
import type { SessionUser } from "./auth.ts";
import { requireReauth } from "./factors.ts";

/** How long a proof made again counts. */
export const STEP_UP_SECONDS = 5 * 60;

/** The answer's code when a fresh proof is missing: the panel asks for one in place and retries. */
export const STEP_UP_REQUIRED_CODE = "stepUpRequired";

/** Whether the session's last proof is younger than STEP_UP_SECONDS. */
export const steppedUp = (me: Pick<SessionUser, "steppedUpAt">, now = Date.now()): boolean =>
  me.steppedUpAt !== null && now - me.steppedUpAt.getTime() < STEP_UP_SECONDS * 1000 && me.steppedUpAt.getTime() <= now;

/** 403 stepUpRequired unless the session proved who it is within the last five minutes. */
export function requireStepUp(me: Pick<SessionUser, "steppedUpAt">): void {
  if (!steppedUp(me))
    throw new HttpError(403, "Confirm it is you first: enter your password, a code or use a passkey.", {
      code: STEP_UP_REQUIRED_CODE,
    });
}

/** Notes a proof made now in this session; the session user as it is from now on. */
export async function noteStepUp(db: Kysely<Database>, me: SessionUser): Promise<SessionUser> {
  const at = new Date();
  await recordStepUp(db, me.sessionId, at);
  return { ...me, steppedUpAt: at };
}

/**
 * The endpoints that took their proof in the body before step-up existed (removing TOTP, new
 * recovery codes): a password or code sent along is checked and noted as a step-up; without one,
 * the session's own recent proof is needed.
 */
export async function proofInBodyOrStepUp(
  db: Kysely<Database>,
  req: Request,
  context: Partial<Context>,
  me: SessionUser,
  payload: ReauthPayload,
): Promise<void> {
  if (payload.password === undefined && payload.code === undefined) return requireStepUp(me);
  await requireReauth(db, req, context, me, payload);
  await noteStepUp(db, me);
}
