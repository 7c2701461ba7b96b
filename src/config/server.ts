/**
 * Server configuration: every environment variable the functions, the database layer and the
 * scripts read, validated (zod) and documented here, in one place. (The site's public settings,
 * read when pages are built, are in `site.ts`.) A wrong value is a ConfigError that names the
 * variable; a missing production secret is an error at start, never a silent demo mode.
 *
 * Values are read on each call, not once: tests and the local runtime set variables as they go,
 * and parsing is cached until a variable changes.
 */
import path from "node:path";
import { z } from "zod";
import { isCalendarDate } from "../shared/dates.ts";
import { defaultOfficeRules, type OfficeRules } from "../shared/office.ts";
import { ConfigError } from "./config-error.ts";
import { currentDeployContext } from "./deploy-context.ts";
import { site } from "./site.ts";

const optionalText = z
  .string()
  .trim()
  .transform((v) => v || undefined)
  .optional();
const wholeNumber = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from ${min} to ${max}` })
    .int(`${name} must be a whole number from ${min} to ${max}`)
    .min(min, `${name} must be a whole number from ${min} to ${max}`)
    .max(max, `${name} must be a whole number from ${min} to ${max}`);
const url = (name: string, protocols: RegExp, example: string) =>
  optionalText.refine(
    (v) => v === undefined || (URL.canParse(v) && protocols.test(new URL(v).protocol)),
    `${name} must be a URL such as ${example}`,
  );

const schema = z.object({
  /** `production` turns on the production checks (also set by Netlify's build as CONTEXT). */
  NODE_ENV: optionalText,
  /** Netlify's deploy context: exists at build time only (see isProduction for run time). */
  CONTEXT: optionalText,
  /** Set by Netlify in its builds and, at run time, in every deployed function (a sign of production). */
  SITE_ID: optionalText,
  /** Set by `netlify dev`, which also sets SITE_ID on a developer's machine. */
  NETLIFY_DEV: optionalText,

  /** `off` switches the abuse limits of src/config/limits.ts off (load tests, benchmarks); on otherwise. */
  RATE_LIMIT: optionalText.pipe(
    z
      .enum(["on", "off"], { error: "RATE_LIMIT must be on or off" })
      .optional()
      .transform((v) => v ?? "on"),
  ),

  /** Any PostgreSQL 15+; unset locally, `npm start` runs the embedded one and sets it. */
  DATABASE_URL: url("DATABASE_URL", /^postgres(ql)?:$/, "postgres://user:password@host:5432/name"),
  /** `neon` forces Neon's serverless driver for a host not ending in .neon.tech; `pg` forbids it. */
  DATABASE_DRIVER: optionalText.pipe(
    z.enum(["neon", "pg"], { error: "DATABASE_DRIVER must be neon or pg" }).optional(),
  ),
  /** Connections one process keeps open (5; the local server asks for 20). */
  DATABASE_POOL_MAX: wholeNumber("DATABASE_POOL_MAX", 1, 200).default(5),
  /** How long a query waits for a connection before the answer is a 503 (ms). */
  DATABASE_POOL_WAIT_MS: wholeNumber("DATABASE_POOL_WAIT_MS", 100, 600_000).default(5_000),
  /** Folder of the embedded database, its generated secrets and the file outbox. */
  DATA_DIR: optionalText.transform((v) => v ?? ".data"),

  /** HS256 key of admin sessions, 32+ characters; generated into DATA_DIR locally. */
  JWT_SECRET: optionalText.refine(
    (v) => v === undefined || v.length >= 32,
    "JWT_SECRET must be at least 32 characters (random)",
  ),
  /** Admin account that `npm start` makes sure exists (both or neither). */
  ADMIN_USERNAME: optionalText,
  ADMIN_PASSWORD: optionalText,

  /** SMTP server for every email; unset locally, emails are written to DATA_DIR/outbox/. */
  SMTP_URL: url("SMTP_URL", /^smtps?:$/, "smtp://user:password@host:587"),
  /** Sender of every email (default: the brand and company address of site.ts). */
  MAIL_FROM: optionalText,
  /** Where the company hears of enquiries and bookings, comma-separated (default: the company address). */
  NOTIFY_EMAIL: optionalText,

  /** Extra closed dates, comma-separated yyyy-MM-dd. */
  BOOKING_CLOSED_DATES: optionalText.transform((v, ctx) => {
    const dates = (v ?? "").split(/[\s,]+/).filter(Boolean);
    const wrong = dates.filter((d) => !isCalendarDate(d));
    if (wrong.length) {
      ctx.addIssue({
        code: "custom",
        message: `BOOKING_CLOSED_DATES has dates that are not yyyy-MM-dd: ${wrong.join(", ")}`,
      });
    }
    return dates;
  }),
  /** How far ahead meetings can be booked, in days. */
  BOOKING_HORIZON_DAYS: wholeNumber("BOOKING_HORIZON_DAYS", 1, 365).default(defaultOfficeRules.horizonDays),
  /** A fixed "now" for tests of the local runtime; ignored in production. */
  BOOKING_NOW: optionalText.refine(
    (v) => v === undefined || !Number.isNaN(Date.parse(v)),
    "BOOKING_NOW must be an ISO date and time",
  ),

  /** Where `npm start` listens. */
  PORT: wholeNumber("PORT", 0, 65_535).default(8888),
  HOST: optionalText.transform((v) => v ?? "127.0.0.1"),
});

export type ServerEnv = z.output<typeof schema>;
const NAMES = Object.keys(schema.shape) as (keyof ServerEnv)[];

let cached: { key: string; env: ServerEnv } | undefined;

/** The validated environment. Throws a ConfigError naming every wrong variable. */
export function serverEnv(): ServerEnv {
  const raw = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  const key = JSON.stringify(raw);
  if (cached?.key === key) return cached.env;
  const result = schema.safeParse(raw);
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => issue.message).join("; "));
  cached = { key, env: result.data };
  return result.data;
}

/**
 * Production: NODE_ENV=production, a production build (CONTEXT), or a deployed function. At run time
 * Netlify's functions get no CONTEXT, but SITE_ID (with URL and SITE_NAME); a call then tells its
 * deploy's context, and only a deploy preview or branch deploy that said so is not production.
 * Never decided by a request header.
 */
export function isProduction(): boolean {
  const env = serverEnv();
  if (env.NODE_ENV === "production" || env.CONTEXT === "production") return true;
  if (env.CONTEXT) return false; // a Netlify build of another context
  const context = currentDeployContext();
  if (context) return context === "production";
  return Boolean(env.SITE_ID) && env.NETLIFY_DEV !== "true";
}

/** Whether the abuse limits are counted (RATE_LIMIT is not `off`). */
export const rateLimitsOn = (): boolean => serverEnv().RATE_LIMIT === "on";

/**
 * The production checks, written once: what a production deploy or `NODE_ENV=production npm start`
 * cannot run without. Throws a ConfigError listing every missing variable.
 */
export function assertProductionReady(): void {
  if (!isProduction()) return;
  const env = serverEnv();
  const missing = [
    !env.DATABASE_URL && "DATABASE_URL (postgres://…)",
    !env.JWT_SECRET && "JWT_SECRET (32+ random characters)",
    !env.SMTP_URL && "SMTP_URL (smtp://user:password@host:587)",
  ].filter(Boolean);
  if (missing.length) throw new ConfigError(`Production needs ${missing.join(", ")}.`);
}

const encoder = new TextEncoder();

/** The HS256 key for session tokens. */
export function jwtSecret(): Uint8Array {
  const secret = serverEnv().JWT_SECRET;
  if (!secret) throw new ConfigError("JWT_SECRET is not set: sessions cannot be signed.");
  return encoder.encode(secret);
}

/**
 * The key of the public forms' "form shown at" tokens and of the limit counters' HMACs: derived from
 * JWT_SECRET (domain-separated, so never the session key itself).
 */
export function guardKey(): Uint8Array {
  return encoder.encode(`abuse-guard:${new TextDecoder().decode(jwtSecret())}`);
}

/** The office rules: the defaults of src/shared/office.ts, with the horizon and extra closed dates of the environment. */
export function officeRules(): OfficeRules {
  const env = serverEnv();
  return {
    ...defaultOfficeRules,
    horizonDays: env.BOOKING_HORIZON_DAYS,
    closedDates: [...new Set([...defaultOfficeRules.closedDates, ...env.BOOKING_CLOSED_DATES])].sort(),
  };
}

/** "Now", overridable by BOOKING_NOW in tests of the local runtime only (never in production). */
export function now(): Date {
  const fixed = serverEnv().BOOKING_NOW;
  return fixed && !isProduction() ? new Date(fixed) : new Date();
}

export interface MailConfig {
  /** SMTP server (smtp:// or smtps://, credentials in the URL); null means the file outbox. */
  smtpUrl: string | null;
  /** Sender of every email. */
  from: string;
  /** Where the company hears of new enquiries and bookings (comma-separated for several). */
  notifyTo: string;
  /** The folder of the file outbox: one .eml per message when there is no SMTP server. */
  outboxDir: string;
}

/** Email settings. */
export function mailConfig(): MailConfig {
  const env = serverEnv();
  return {
    smtpUrl: env.SMTP_URL ?? null,
    from: env.MAIL_FROM ?? `"${site.name.replace(/["\\\r\n]/g, "")}" <${site.email}>`,
    notifyTo: env.NOTIFY_EMAIL ?? site.email,
    outboxDir: path.join(env.DATA_DIR, "outbox"),
  };
}

/** Database settings: the URL (undefined when none is configured) and the pool. */
export function databaseConfig() {
  const env = serverEnv();
  return {
    url: env.DATABASE_URL,
    driver: env.DATABASE_DRIVER,
    poolMax: env.DATABASE_POOL_MAX,
    poolWaitMs: env.DATABASE_POOL_WAIT_MS,
  };
}
