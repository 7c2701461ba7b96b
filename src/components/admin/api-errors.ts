/**
 * A refused or failed call in the panel's language. The server's `message` is English (it is the
 * API's, read by developers and logs); the panel names the refusal by its status and code instead,
 * with the panel's own sentence for the statuses a caller knows more about (a 409 "last admin").
 */
import { GUARD_CODES } from "#shared/form-guard.ts";
import { ApiError, NetworkError } from "#src/lib/api-client.ts";
import type { AdminCopy } from "./copy";

export type ApiErrorTexts = AdminCopy["apiErrors"];

const BY_STATUS: Record<number, keyof ApiErrorTexts> = {
  400: "badRequest",
  401: "sessionEnded",
  403: "notAllowed",
  404: "notFound",
  409: "conflict",
  413: "badRequest",
  415: "badRequest",
  429: "tooMany",
  503: "unavailable",
};

const codeOf = (data: unknown) =>
  data && typeof data === "object" && typeof (data as { code?: unknown }).code === "string"
    ? (data as { code: string }).code
    : undefined;

/**
 * The panel's sentence for `error`: the caller's own for its status (`known`), else the panel's for
 * the status, else a generic one. Never the server's English.
 */
export function apiErrorText(
  error: unknown,
  texts: ApiErrorTexts,
  known: Partial<Record<number, string>> = {},
): string {
  if (error instanceof NetworkError) return texts.offline;
  if (!(error instanceof ApiError)) return texts.generic;
  const own = known[error.status];
  if (own) return own;
  if (error.status === 403 && codeOf(error.data) === GUARD_CODES.crossSite) return texts.crossSite;
  if (error.status === 403 && codeOf(error.data) === "stepUpRequired") return texts.stepUpNeeded;
  const key = BY_STATUS[error.status];
  return key ? texts[key] : texts.generic;
}
