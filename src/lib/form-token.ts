/**
 * The islands' side of the "form shown at" token (functions/_lib/forms/form-guard.ts): one is fetched when
 * a form hydrates, and `send` posts with it, waiting out the token's first moments if the visitor
 * was quicker than that, fetching a fresh one when it went stale, and retrying once with a fresh one
 * when the server refused it. Each token serves one submission.
 */
import type { FormTokenAnswer } from "../shared/api/common";
import { GUARD_CODES, HONEYPOT_FIELD, TOKEN_FIELD } from "../shared/form-guard";
import { ApiError, apiRequest } from "./api-client";
import { ROUTES } from "#shared/routes.ts";

interface Held {
  token: string;
  validAt: number;
  expiresAt: number;
}

/** Seconds of margin before a token's expiry at which a fresh one is fetched instead. */
const STALE_MARGIN_MS = 60_000;

export interface FormTokens {
  /** Fetches a token ahead of the first submission (call when the form hydrates). */
  prefetch(): void;
  /**
   * Posts `body` with a token and the honeypot's value, as apiRequest does (throws ApiError), retrying
   * once with a fresh token if the server refused the token.
   */
  send<T>(url: string, body: Record<string, unknown>, honeypot: string): Promise<T>;
}

export function formTokens(): FormTokens {
  let pending: Promise<Held> | null = null;

  const fetchToken = (): Promise<Held> => {
    const started = Date.now();
    // Counted from the answer's arrival, which is after the server issued the token: waiting that
    // long is enough whatever the two clocks say.
    const request = apiRequest<FormTokenAnswer>("GET", ROUTES.formToken).then((answer) => ({
      token: answer.token,
      validAt: Date.now() + answer.validInMs,
      expiresAt: started + answer.expiresInMs,
    }));
    request.catch(() => {
      if (pending === request) pending = null; // try again on the next call
    });
    return request;
  };

  /** A usable token: the held one unless it is stale, waiting until it may be used. */
  const take = async (): Promise<string> => {
    let held = await (pending ??= fetchToken());
    if (Date.now() > held.expiresAt - STALE_MARGIN_MS) held = await (pending = fetchToken());
    pending = null; // used: the next submission gets its own
    const wait = held.validAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return held.token;
  };

  const post = async <T>(url: string, body: Record<string, unknown>, honeypot: string) =>
    apiRequest<T>("POST", url, { body: { ...body, [TOKEN_FIELD]: await take(), [HONEYPOT_FIELD]: honeypot } });

  const prefetch = () => {
    pending ??= fetchToken();
    pending.catch(() => {});
  };

  return {
    prefetch,
    async send<T>(url: string, body: Record<string, unknown>, honeypot: string): Promise<T> {
      try {
        return await post<T>(url, body, honeypot);
      } catch (error) {
        if (!(error instanceof ApiError) || (error.data as { code?: string } | null)?.code !== GUARD_CODES.token) {
          throw error;
        }
        pending = fetchToken();
        return post<T>(url, body, honeypot);
      } finally {
        prefetch();
      }
    },
  };
}

/** The refusal code of an API error, if it is one of the guards' (src/shared/form-guard.ts). */
export const guardCode = (error: unknown): string | undefined =>
  error instanceof ApiError ? (error.data as { code?: string } | null)?.code : undefined;

/** The texts a public form shows for the guards, in the page's language (`formGuard` in the locale files). */
export interface GuardLabels {
  /** The honeypot's label (only bots meet it). */
  honeypot: string;
  /** Past a flood limit. */
  tooMany: string;
  /** The token was refused twice. */
  tokenFailed: string;
  /** Newsletter sign-ups paused while the breaker is tripped. */
  paused: string;
}

/** The message for a guard's refusal, or null when the error is not one. */
export function guardMessage(error: unknown, labels: GuardLabels): string | null {
  const code = guardCode(error);
  if (code === GUARD_CODES.tooMany) return labels.tooMany;
  if (code === GUARD_CODES.token) return labels.tokenFailed;
  if (code === GUARD_CODES.paused) return labels.paused;
  return null;
}
