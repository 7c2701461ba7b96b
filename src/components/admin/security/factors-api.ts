/** The second factor's calls: the account's factors, TOTP, recovery codes, passkeys, and the sign-in's steps. */
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import type { MessageAnswer } from "#shared/api/common.ts";
import type {
  FactorsAnswer,
  LoginAnswer,
  PasskeyAnswer,
  RecoveryCodesAnswer,
  SecuritySettingsAnswer,
  TotpSetupAnswer,
} from "#shared/api/factors.ts";
import { fill, ROUTES } from "#shared/routes.ts";
import { adminRequest, apiRequest } from "../api";

export const fetchFactors = () => adminRequest<FactorsAnswer>("GET", ROUTES.account.factors);
export const startTotp = () => adminRequest<TotpSetupAnswer>("POST", ROUTES.account.totp);
export const confirmTotp = (code: string) =>
  adminRequest<RecoveryCodesAnswer>("POST", ROUTES.account.totpConfirm, { code });
export const removeTotp = (password: string) =>
  adminRequest<MessageAnswer>("POST", ROUTES.account.totpRemove, { password });
export const regenerateRecoveryCodes = (password: string) =>
  adminRequest<RecoveryCodesAnswer>("POST", ROUTES.account.recoveryCodes, { password });
export const saveEmail = (email: string) => adminRequest<MessageAnswer>("PUT", ROUTES.account.email, { email });
export const saveRequirement = (requireSecondFactor: boolean) =>
  adminRequest<SecuritySettingsAnswer>("PUT", ROUTES.admin.securitySettings, { requireSecondFactor });

/** Registers a passkey on this device (the browser asks for a fingerprint, face or PIN) under `name`. */
export async function addPasskey(name: string): Promise<PasskeyAnswer> {
  const optionsJSON = await adminRequest<Parameters<typeof startRegistration>[0]["optionsJSON"]>(
    "POST",
    ROUTES.account.passkeyOptions,
  );
  const response = await startRegistration({ optionsJSON });
  return adminRequest<PasskeyAnswer>("POST", ROUTES.account.passkeys, { name, response });
}

export const renamePasskey = (id: number, name: string) =>
  adminRequest<MessageAnswer>("PATCH", fill(ROUTES.account.passkey, { id }), { name });
export const removePasskey = (id: number) =>
  adminRequest<MessageAnswer>("DELETE", fill(ROUTES.account.passkey, { id }));

/** The sign-in's second step: a TOTP code or a recovery code (the challenge cookie names the account). */
export const secondStep = (body: { code: string } | { recoveryCode: string }) =>
  apiRequest<LoginAnswer>("POST", ROUTES.loginSecondFactor, { body });

/** Signs in with a passkey of this site (no username: the browser offers them). */
export async function signInWithPasskey(): Promise<LoginAnswer> {
  const optionsJSON = await apiRequest<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
    "POST",
    ROUTES.loginPasskeyOptions,
  );
  const response = await startAuthentication({ optionsJSON });
  return apiRequest<LoginAnswer>("POST", ROUTES.loginPasskey, { body: { response } });
}
