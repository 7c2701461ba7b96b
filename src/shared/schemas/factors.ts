/** Payload schemas of the second factor: TOTP, recovery codes, passkeys, the login's second step. */
import * as z from "zod/mini";
import { email, noControl } from "./fields.ts";
import { loginSchema } from "./people.ts";

/** A TOTP code as typed: six digits, spaces allowed ("123 456"). */
export const TOTP_DIGITS = 6;
/** How many recovery codes an enrollment (or a regeneration) makes. */
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code as shown: two groups of five base32 letters and digits, "abcde-12345". */
export const RECOVERY_CODE = /^[a-z2-7]{5}-?[a-z2-7]{5}$/;
/** A passkey's name: what the person calls the device that holds it. */
export const PASSKEY_NAME_MAX = 60;

/** Digits only, spaces and dashes dropped. */
export const normalizeTotp = (code: string) => code.replace(/[\s-]/g, "");
/** Lower case, spaces dropped, so "ABCDE 12345" and "abcde-12345" are the same code. */
export const normalizeRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/\s+/g, "");

const totpCode = z.string({ error: "code must be six digits" }).check(
  z.maxLength(20, "code must be six digits"),
  z.refine((v) => new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(normalizeTotp(v)), "code must be six digits"),
);
const recoveryCode = z.string({ error: "recoveryCode must be a recovery code" }).check(
  z.maxLength(40, "recoveryCode must be a recovery code"),
  z.refine((v) => RECOVERY_CODE.test(normalizeRecoveryCode(v)), "recoveryCode must be a recovery code"),
);

/** POST /api/account/factors/totp/confirm: the first code from the authenticator app. */
export const totpConfirmSchema = z.strictObject({ code: totpCode });

/** POST /api/login/second-factor: a TOTP code or a recovery code, one of them. */
export const secondStepSchema = z
  .strictObject({ code: z.optional(totpCode), recoveryCode: z.optional(recoveryCode) })
  .check(
    z.refine((v) => (v.code === undefined) !== (v.recoveryCode === undefined), {
      error: "Send either code or recoveryCode",
      path: ["code"],
    }),
  );
export type SecondStepPayload = z.output<typeof secondStepSchema>;

/**
 * Removing TOTP or making new recovery codes: the password, or a current code, or neither (then the
 * session's step-up of the last five minutes is the proof).
 */
export const reauthSchema = z
  .strictObject({ password: z.optional(loginSchema.shape.password), code: z.optional(totpCode) })
  .check(
    z.refine((v) => v.password === undefined || v.code === undefined, {
      error: "Send either password or code",
      path: ["password"],
    }),
  );
export type ReauthPayload = z.output<typeof reauthSchema>;

/** PUT /api/account/email: the address for security notices; "" or null removes it. */
export const accountEmailSchema = z.strictObject({
  email: z.nullable(z.union([z.literal(""), email])),
});

const passkeyName = z
  .string({ error: "name is required" })
  .check(
    z.trim(),
    z.minLength(1, "name is required"),
    z.maxLength(PASSKEY_NAME_MAX, `name must be at most ${PASSKEY_NAME_MAX} characters`),
    z.refine(...noControl("name")),
  );

/** PATCH /api/account/passkeys/:id */
export const passkeyRenameSchema = z.strictObject({ name: passkeyName });

const b64url = (field: string, max: number) =>
  z
    .string({ error: `${field} must be base64url` })
    .check(z.maxLength(max, `${field} is too long`), z.regex(/^[A-Za-z0-9_-]*$/, `${field} must be base64url`));

/** What startAuthentication answers (a passkey's assertion), checked in shape; the server verifies the rest. */
const authenticationResponse = z.object({
  id: b64url("response.id", 1400),
  rawId: b64url("response.rawId", 1400),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: b64url("clientDataJSON", 4000),
    authenticatorData: b64url("authenticatorData", 8000),
    // ML-DSA-44 (post-quantum, offered first where the runtime has it) signs in 2,420 bytes.
    signature: b64url("signature", 8000),
    userHandle: z.optional(b64url("userHandle", 200)),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.enum(["platform", "cross-platform"])),
});

/** POST /api/account/step-up: exactly one proof, the password, a current TOTP code or a passkey's assertion. */
export const stepUpSchema = z
  .strictObject({
    password: z.optional(loginSchema.shape.password),
    code: z.optional(totpCode),
    response: z.optional(authenticationResponse),
  })
  .check(
    z.refine((v) => [v.password, v.code, v.response].filter((x) => x !== undefined).length === 1, {
      error: "Send one of password, code or response",
      path: ["password"],
    }),
  );
export type StepUpPayload = z.output<typeof stepUpSchema>;

/** What @simplewebauthn/browser's startRegistration answers (its shape; the server verifies the rest). */
const registrationResponse = z.object({
  id: b64url("response.id", 1400),
  rawId: b64url("response.rawId", 1400),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: b64url("clientDataJSON", 4000),
    attestationObject: b64url("attestationObject", 16000),
    transports: z.optional(z.array(z.string().check(z.maxLength(20))).check(z.maxLength(10))),
    publicKeyAlgorithm: z.optional(z.number()),
    publicKey: z.optional(b64url("publicKey", 8000)),
    authenticatorData: z.optional(b64url("authenticatorData", 8000)),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.enum(["platform", "cross-platform"])),
});

/** POST /api/account/passkeys: a new passkey's name and the browser's registration answer. */
export const passkeyRegisterSchema = z.strictObject({ name: passkeyName, response: registrationResponse });
export type PasskeyRegisterPayload = z.output<typeof passkeyRegisterSchema>;

/** POST /api/login/passkey: what startAuthentication answers. */
export const passkeySigninSchema = z.strictObject({ response: authenticationResponse });
export type PasskeySigninPayload = z.output<typeof passkeySigninSchema>;

/** PUT /api/admin/security-settings */
export const securitySettingsSchema = z.strictObject({
  requireSecondFactor: z.boolean({ error: "requireSecondFactor must be true or false" }),
});
