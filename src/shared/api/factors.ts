/** Answer types of the second factor: the account's factors, TOTP set-up, passkeys, the login's steps. */
import type { MessageAnswer } from "./common.ts";

/** A passkey as the account's list shows it (ISO times). */
export interface PasskeyInfo {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** GET /api/account/factors */
export interface FactorsAnswer {
  success: true;
  totp: boolean;
  /** Unused recovery codes (0 while TOTP is off). */
  recoveryCodesLeft: number;
  passkeys: PasskeyInfo[];
  email: string | null;
  /** Every account must have a second factor (the admin's setting). */
  required: boolean;
  /** This session may only set up a factor: the setting is on and the account had none. */
  limited: boolean;
  /** The asking person is an admin (may change `required`). */
  admin: boolean;
}

/** A QR code as one SVG path: `size` modules square, the dark ones drawn by `path`. */
export interface QrCode {
  size: number;
  path: string;
}

/** POST /api/account/step-up: the session may change what protects the account until `until` (ISO). */
export interface StepUpAnswer {
  success: true;
  until: string;
}

/** POST /api/account/factors/totp: a new secret to confirm with a first code. */
export interface TotpSetupAnswer {
  success: true;
  /** The secret in base32, for typing into the app by hand. */
  secret: string;
  /** otpauth://totp/… */
  uri: string;
  qr: QrCode;
}

/** POST /api/account/factors/totp/confirm and …/recovery-codes: the codes, shown this once. */
export interface RecoveryCodesAnswer {
  success: true;
  recoveryCodes: string[];
}

/** POST /api/login: a correct password; `next` says what the person still has to do. */
export interface LoginAnswer extends MessageAnswer {
  /** "second-factor": send a code to /api/login/second-factor; "setup": signed in only to set one up. */
  next?: "second-factor" | "setup";
  /** With "second-factor": what the account can finish with (a code, a recovery code, a passkey). */
  methods?: ("totp" | "passkey")[];
}

/** POST /api/account/passkeys */
export interface PasskeyAnswer {
  success: true;
  passkey: PasskeyInfo;
}

/** GET/PUT /api/admin/security-settings */
export interface SecuritySettingsAnswer {
  success: true;
  requireSecondFactor: boolean;
}
