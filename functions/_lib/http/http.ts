/**
 * The HTTP edge of every function: one JSON answer shape, body limits, method dispatch, and one
 * place where errors become answers (400/401/403/404/405/409/413/415/429/503, never a stack trace).
 */
import type { Context } from "@netlify/functions";
import { safeParse } from "zod/mini";
import type { $ZodError, $ZodType } from "zod/v4/core";
import { isDatabaseUnavailable } from "#db/errors.ts";
import type { ErrorAnswer } from "#shared/api/common.ts";
import { ConfigError } from "#server/config-error.ts";
import { noteDeployContext } from "#server/deploy-context.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";
import { breaksSingleLine, hasControlCharacter } from "#shared/text.ts";

export const MAX_BODY_BYTES = 32 * 1024;
/** How deep a JSON body may nest (objects and arrays); every payload of the API nests a few levels. */
export const MAX_JSON_DEPTH = 32;

/**
 * Headers on every function response. Netlify applies netlify.toml's headers to files only, never to
 * functions, so the edge sets them: nothing here is a page, frames or runs scripts; answers are
 * personal (an enquiry, a session, the admin lists) and must never be stored by a cache.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
  "Cache-Control": "no-store",
};

/** API_SECURITY_HEADERS with lower-case names, as a JsonAnswer's headers are kept. */
const SECURITY_HEADERS_LOWER: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(API_SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]),
);

/** Sets each of API_SECURITY_HEADERS the headers do not have yet. */
function addSecurityHeaders(headers: Headers): void {
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
}

/**
 * The answer with API_SECURITY_HEADERS added (a header the function set itself is kept). A
 * response the function made has mutable headers and gets them in place, so its body is not wrapped
 * in a second stream; one with immutable headers (Response.redirect, a fetched one) is copied.
 */
export function withSecurityHeaders<A extends Response | JsonAnswer>(answer: A): A;
export function withSecurityHeaders(answer: Response | JsonAnswer): Response | JsonAnswer {
  if (answer instanceof JsonAnswer) return answer.withDefaults(SECURITY_HEADERS_LOWER);
  try {
    addSecurityHeaders(answer.headers);
    return answer;
  } catch {
    const headers = new Headers(answer.headers);
    addSecurityHeaders(headers);
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
  }
}

/**
 * A JSON answer as json() makes it: status, headers (lower-case names) and the body's text. route()
 * hands Netlify a Response made from it; npm start's server (scripts/runtime/server.mjs) writes it
 * to the socket as it is, without a Response and its body stream in between.
 */
export class JsonAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  constructor(status: number, headers: Record<string, string>, text: string) {
    this.status = status;
    this.headers = headers;
    this.text = text;
  }

  /** The same answer with each of `defaults` it does not set itself. */
  withDefaults(defaults: Readonly<Record<string, string>>): JsonAnswer {
    return new JsonAnswer(this.status, { ...defaults, ...this.headers }, this.text);
  }

  toResponse(): Response {
    return new Response(this.text, { status: this.status, headers: this.headers });
  }
}

/** A Response for what a handler answered. */
export const toResponse = (answer: Response | JsonAnswer): Response =>
  answer instanceof JsonAnswer ? answer.toResponse() : answer;

/** An error that is already an answer. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: ErrorAnswer;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    message: string,
    extra: Omit<Partial<ErrorAnswer>, "success" | "message"> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.body = { success: false, message, ...extra };
    this.headers = headers;
  }
}

/**
 * A JSON answer that no cache keeps. Name the answer's type from src/shared/api/, `json<SlotsAnswer>(…)`,
 * so the compiler holds the function to what the islands read.
 */
export function json<T>(body: T, status = 200, headers: Record<string, string> = {}): JsonAnswer {
  const all: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  };
  for (const name in headers) all[name.toLowerCase()] = headers[name];
  return new JsonAnswer(status, all, JSON.stringify(body));
}

/**
 * Reads a JSON body: 415 for another content type, 413 over 32 KB, 400 when it does not parse, nests
 * deeper than MAX_JSON_DEPTH, repeats a key in one object, or any of its texts holds a control
 * character (src/shared/text.ts), before the caller spends anything.
 */
export async function readJson(req: Request): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") throw new HttpError(415, "Content-Type must be application/json");
  const text = await readText(req);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, "Malformed JSON in request body");
  }
  refuseDeepOrDuplicate(text);
  refuseControlCharacters(body);
  return body;
}

/**
 * 400 when JSON text that parsed nests deeper than MAX_JSON_DEPTH or repeats a key in one object.
 * One pass over the text, no recursion, so 10,000 levels cost no stack: every later walk of the body
 * (the control-character check, the schemas) is recursive. A repeated key is refused rather than left
 * to JSON.parse's "last one wins", which another parser (a proxy, a log reader) may read differently.
 */
function refuseDeepOrDuplicate(text: string): void {
  const stack: (Set<string> | null)[] = []; // an object's keys so far, or null for an array
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "{" || char === "[") {
      if (stack.length >= MAX_JSON_DEPTH) {
        throw new HttpError(400, `Request body is nested too deeply (${MAX_JSON_DEPTH} levels at most)`);
      }
      stack.push(char === "{" ? new Set() : null);
      expectKey = char === "{";
    } else if (char === "}" || char === "]") {
      stack.pop();
      expectKey = false;
    } else if (char === ",") {
      expectKey = stack.at(-1) instanceof Set;
    } else if (char === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const keys = stack.at(-1);
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) throw new HttpError(400, `Duplicate key ${JSON.stringify(key)} in request body`);
        keys.add(key);
        expectKey = false;
      }
      i = end;
    }
  }
}

/** The top-level fields of a parsed body whose texts (nested ones too, and keys) hold a control character. */
function fieldsWithControls(value: unknown, field = "_", found = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    if (hasControlCharacter(value)) found.add(field);
  } else if (Array.isArray(value)) {
    for (const item of value) fieldsWithControls(item, field, found);
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const name = field === "_" ? key : field;
      if (hasControlCharacter(key)) found.add(name);
      fieldsWithControls(item, name, found);
    }
  }
  return found;
}

const invalidCharacters = (fields: Iterable<string>, where: string) => {
  const names = [...fields];
  const errors = Object.fromEntries(names.map((f) => [f, [`${f} contains invalid characters`]]));
  return new HttpError(400, `${names[0]} contains invalid characters${where}`, { errors });
};

/** 400 with field errors when any text of a parsed JSON body holds a control character. */
export function refuseControlCharacters(body: unknown): void {
  const fields = fieldsWithControls(body);
  if (fields.size) throw invalidCharacters(fields, "");
}

/** 400 when a query parameter (name or value) holds a control character, tab or line break included. */
function refuseControlsInQuery(url: URL): void {
  const fields = new Set<string>();
  for (const [name, value] of url.searchParams) if (breaksSingleLine(name) || breaksSingleLine(value)) fields.add(name);
  if (fields.size) throw invalidCharacters(fields, " (query string)");
}

/** Whether this is a plain HTML form post (the no-JavaScript path). */
export function isFormPost(req: Request): boolean {
  return (
    (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase() === "application/x-www-form-urlencoded"
  );
}

/** Reads a form-encoded body, with the same 32 KB limit. */
export async function readForm(req: Request): Promise<URLSearchParams> {
  return new URLSearchParams(await readText(req));
}

/** The body as text, refusing anything over MAX_BODY_BYTES whatever Content-Length claims. */
export async function readText(req: Request): Promise<string> {
  const declared = Number(req.headers.get("content-length"));
  if (declared > MAX_BODY_BYTES) throw new HttpError(413, "Request body is too large (32 KB at most)");
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new HttpError(413, "Request body is too large (32 KB at most)");
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

/** Field errors in the API's shape: `{ field: [messages] }`. */
function fieldErrors(error: $ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Validates with a shared schema; a failure is 400 with the first message and every field's messages. */
export function validate<T>(schema: $ZodType<T>, data: unknown): T {
  const result = safeParse(schema, data);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  const first = result.error.issues[0];
  const message = first?.path.length ? first.message : "Request body must be a JSON object";
  throw new HttpError(400, message, { errors });
}

/**
 * Refuses a state-changing request from another site (403, code crossSiteRefused), based on what
 * the browser says about it (Sec-Fetch-Site, Origin). For the admin, SameSite=Strict cookies already
 * stop most of these; for the public forms it is the only lock. A client that sends neither header
 * (curl, a server) is not a browser on another site and may post.
 */
export function requireSameOrigin(req: Request): void {
  const site = req.headers.get("sec-fetch-site");
  const origin = req.headers.get("origin");
  if ((site && site !== "same-origin" && site !== "none") || (origin && origin !== new URL(req.url).origin)) {
    throw new HttpError(403, "Cross-site request refused: only the site's own pages may send this", {
      code: GUARD_CODES.crossSite,
    });
  }
}

/**
 * The request's URL as the platform parsed it for the Context (Netlify's and npm start's give it),
 * or parsed here when there is no Context. Read it; a URL to change is a copy (`new URL(url)`).
 */
export const requestUrl = (req: Request, context?: Partial<Context>): URL => context?.url ?? new URL(req.url);

type Handler = (req: Request, context: Context) => Promise<Response | JsonAnswer>;

/**
 * A function's entry point as Netlify calls it (a Response), with `answer`: the same call answering a
 * JsonAnswer as it is, for npm start's server.
 */
export type Entry = ((req: Request, context: Context) => Promise<Response>) & {
  answer: (req: Request, context: Context) => Promise<Response | JsonAnswer>;
};

const entry = (answer: Entry["answer"]): Entry =>
  Object.assign(async (req: Request, context: Context) => toResponse(await answer(req, context)), { answer });

/**
 * A function's entry point: dispatches on method (405 with Allow otherwise), turns every thrown
 * error into a clear JSON answer (unexpected ones are logged here and answered 500), and puts
 * API_SECURITY_HEADERS on whatever it answers.
 */
export function route(handlers: Partial<Record<"GET" | "POST" | "PATCH" | "PUT" | "DELETE", Handler>>): Entry {
  const allowed = Object.keys(handlers).join(", ");
  return entry(async (req, context) => {
    noteDeployContext(context);
    const handler = handlers[req.method as keyof typeof handlers];
    if (!handler)
      return withSecurityHeaders(
        json<ErrorAnswer>({ success: false, message: `Method ${req.method} is not allowed` }, 405, { Allow: allowed }),
      );
    try {
      refuseControlsInQuery(requestUrl(req, context));
      return withSecurityHeaders(await handler(req, context));
    } catch (error) {
      return withSecurityHeaders(errorResponse(error, req));
    }
  });
}

/**
 * One function serving several paths (its `config.path` list): the path's last segment picks the
 * handlers, so a method one path does not serve is a 405 with that path's own `Allow`.
 */
export function routes(byEndpoint: Record<string, Entry>): Entry {
  return entry(async (req, context) => {
    const name = requestUrl(req, context).pathname.replace(/\/+$/, "").split("/").pop() ?? "";
    const handler = Object.hasOwn(byEndpoint, name) ? byEndpoint[name] : undefined;
    return handler
      ? handler.answer(req, context)
      : withSecurityHeaders(json<ErrorAnswer>({ success: false, message: "Not found" }, 404));
  });
}

/** Maps an error to its answer. */
export function errorResponse(error: unknown, req: Request): JsonAnswer {
  if (error instanceof HttpError) return json(error.body, error.status, error.headers);
  if (isDatabaseUnavailable(error)) {
    console.error(`[api] ${req.method} ${new URL(req.url).pathname}: database unavailable:`, describe(error));
    return json<ErrorAnswer>(
      { success: false, message: "The service is temporarily unavailable. Please try again in a few minutes." },
      503,
      { "Retry-After": "30" },
    );
  }
  if (error instanceof ConfigError) {
    console.error(`[api] configuration error: ${error.message}`);
    return json<ErrorAnswer>({ success: false, message: "The service is not configured correctly." }, 500);
  }
  console.error(`[api] ${req.method} ${new URL(req.url).pathname} failed:`, error);
  return json<ErrorAnswer>(
    { success: false, message: "Something went wrong on our side. Please try again later." },
    500,
  );
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * The visitor's address as the platform reports it: Netlify's `context.ip`, or the header its edge
 * (and our local server) sets after dropping the client's own. Never X-Forwarded-For, which any
 * client can write.
 */
export function clientIp(req: Request, context?: Partial<Context>): string {
  return context?.ip || req.headers.get("x-nf-client-connection-ip") || "unknown";
}
