/**
 * Calls functions through their real handlers with real Request objects, against a throwaway
 * database copied from the run's migrated template (embedded PostgreSQL, or TEST_DATABASE_URL's).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Config, Context } from "@netlify/functions";
import { afterAll, beforeAll } from "vitest";
import { DUMMY_HASH } from "#db/admins.ts";
import { bookingAsBefore, createTestDatabase } from "#db/testing.ts";
import { closeDb } from "#db/client.ts";
import { createUser } from "#db/users.repository.ts";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "#shared/form-guard.ts";
import { issueFormToken } from "../_lib/forms/form-guard.ts";
import { SESSION_COOKIE, signSession } from "../_lib/auth/auth.ts";
import type { TestMailServer } from "./mail-server.ts";

export const ORIGIN = "http://localhost:8888";

type Handler = (req: Request, context: Context) => Promise<Response>;

/** Every function in functions/ as its module exports it (its file name, handler and config), in file order. */
export async function functionModules(): Promise<{ file: string; handler: Handler; config?: Config }[]> {
  const dir = path.resolve(import.meta.dirname, "..");
  const modules = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .sort()) {
    const module = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: Handler; config?: Config };
    modules.push({ file, handler: module.default, config: module.config });
  }
  return modules;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** Raw body text or bytes, sent as is (for malformed, oversized or invalid UTF-8 bodies). */
  raw?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  cookie?: string;
  params?: Record<string, string>;
  ip?: string;
  country?: string;
  /**
   * An object body posted to a public form gets what every real page sends with it: a "form shown at" token from a few
   * seconds ago and the empty honeypot (functions/_lib/forms/form-guard.ts). `false` sends the body as is.
   */
  guard?: boolean;
}

/** Runs one request through a function and returns the response with its parsed JSON. */
export async function call(handler: Handler, path: string, options: CallOptions = {}) {
  const { method = options.body !== undefined || options.raw !== undefined ? "POST" : "GET" } = options;
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers["content-type"] ??= "application/json";
  if (options.cookie) headers.cookie = options.cookie;
  const sent =
    options.guard !== false && PUBLIC_FORMS.has(path) && isPlainObject(options.body) && !(TOKEN_FIELD in options.body)
      ? formBody(options.body)
      : options.body;
  const body = options.raw ?? (sent !== undefined ? JSON.stringify(sent) : undefined);
  const req = new Request(new URL(path, ORIGIN), { method, headers, body });
  const context = {
    params: options.params ?? {},
    ip: options.ip ?? "203.0.113.7",
    geo: { country: options.country ? { code: options.country, name: options.country } : undefined },
  } as unknown as Context;
  const res = await handler(req, context);
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/**
 * A database for one test file; DATABASE_URL and JWT_SECRET point the functions at it. Emails go to
 * the file outbox in a throwaway DATA_DIR (a test that wants SMTP sets SMTP_URL itself).
 */
export async function setupApiDatabase() {
  const test = await createTestDatabase();
  process.env.DATABASE_URL = test.url;
  process.env.JWT_SECRET = "test-secret-that-is-long-enough-for-hs256-0123456789";
  const dataDir = mkdtempSync(path.join(tmpdir(), "api-test-"));
  process.env.DATA_DIR = dataDir;
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  return {
    ...test,
    /** Closes the functions' shared client before the database goes away. */
    async destroy() {
      await closeDb();
      await test.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type ApiTestDatabase = Awaited<ReturnType<typeof setupApiDatabase>>;

export interface ApiTestbedOptions {
  /** Creates this admin user and signs a session for it (`cookie`). */
  admin?: string;
  /** Started before the tests and stopped after them. */
  smtp?: TestMailServer;
  /** Turns the abuse limits off, for files that book or send many times from one address (abuse.test.ts tests them). */
  rateLimitOff?: boolean;
  /** One consultant and no notice, as an upgraded install books (db/testing.ts bookingAsBefore). */
  bookingAsBefore?: boolean;
}

/**
 * The beforeAll/afterAll most API test files share: a throwaway database (setupApiDatabase), then
 * optionally the abuse limits off, a running SMTP server and a signed-in admin. `ready` receives the
 * database and the admin's `cookie` header value once they exist; afterAll stops and removes them.
 */
export function apiTestbed(
  options: ApiTestbedOptions,
  ready: (bed: { t: ApiTestDatabase; cookie: string }) => void,
): void {
  let t: ApiTestDatabase | undefined;
  beforeAll(async () => {
    t = await setupApiDatabase();
    if (options.rateLimitOff) process.env.RATE_LIMIT = "off";
    await options.smtp?.start();
    let cookie = "";
    if (options.admin) {
      const admin = await createUser(t.db, options.admin, DUMMY_HASH);
      cookie = `${SESSION_COOKIE}=${await signSession({ id: admin.id, sessionVersion: 1 })}`;
    }
    if (options.bookingAsBefore) await bookingAsBefore(t.db);
    ready({ t, cookie });
  }, 60_000);
  afterAll(async () => {
    await options.smtp?.stop();
    await t?.destroy();
  });
}

/** The public forms' endpoints: their posts carry a token and the honeypot. */
const PUBLIC_FORMS = new Set(["/api/contact", "/api/meetings/schedule", "/api/newsletter"]);

const isPlainObject = (value: unknown): value is object =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A public form's body with what a real page sends besides the fields: a "form shown at" token
 * issued `shownSecondsAgo` ago (as GET /api/form-token would have, then) and the empty honeypot.
 */
export function formBody<T extends object>(fields: T, shownSecondsAgo = 5): T & Record<string, string> {
  return { ...fields, [TOKEN_FIELD]: issueFormToken(Date.now() - shownSecondsAgo * 1000), [HONEYPOT_FIELD]: "" };
}
