/**
 * Step-up in the panel: a call refused with 403 stepUpRequired (functions/_lib/auth/step-up.ts)
 * waits while the step-up dialog (StepUpDialog.tsx, one per page) asks for a proof, then is sent
 * again (src/components/admin/api.ts). The form that made the call keeps everything typed into it,
 * since nothing re-renders it meanwhile. Calls that arrive while the dialog is open share its answer.
 */
import { startAuthentication } from "@simplewebauthn/browser";
import { atom } from "nanostores";
import type { StepUpAnswer } from "#shared/api/factors.ts";
import { ROUTES } from "#shared/routes.ts";
import { ApiError, apiRequest } from "#src/lib/api-client.ts";

/** The open question: the dialog answers it with whether a proof was made. */
export const $stepUp = atom<{ answer: (proved: boolean) => void } | null>(null);

/** Whether this page shows the dialog (without one, a refused call stays refused). */
let hosts = 0;
export const hostStepUp = (): (() => void) => {
  hosts++;
  return () => void hosts--;
};

let asking: Promise<boolean> | null = null;

/** Asks the person for a proof; resolves true once one is recorded, false when they cancel. */
export function askStepUp(): Promise<boolean> {
  if (hosts === 0) return Promise.resolve(false);
  asking ??= new Promise<boolean>((resolve) =>
    $stepUp.set({
      answer: (proved) => {
        asking = null;
        $stepUp.set(null);
        resolve(proved);
      },
    }),
  );
  return asking;
}

/** A refusal that a proof would lift. */
export const needsStepUp = (error: unknown): error is ApiError =>
  error instanceof ApiError &&
  error.status === 403 &&
  typeof error.data === "object" &&
  error.data !== null &&
  (error.data as { code?: unknown }).code === "stepUpRequired";

/** Proves it with the password or a code from the app. */
export const stepUpWith = (body: { password: string } | { code: string }) =>
  apiRequest<StepUpAnswer>("POST", ROUTES.account.stepUp, { body });

/** Proves it with one of the account's passkeys (the browser asks for the fingerprint, face or PIN). */
export async function stepUpWithPasskey(): Promise<StepUpAnswer> {
  const optionsJSON = await apiRequest<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
    "POST",
    ROUTES.account.stepUpOptions,
  );
  const response = await startAuthentication({ optionsJSON });
  return apiRequest<StepUpAnswer>("POST", ROUTES.account.stepUp, { body: { response } });
}
