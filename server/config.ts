/**
 * Server configuration: every environment variable the functions, the database layer and the
 * scripts read, validated (zod) and documented here, in one place. (The site's public settings,
 * read when pages are built, are in `site.ts`.) A wrong value is a ConfigError that names the
 * variable; a missing production secret is an error at start, never a silent demo mode.
 *
 * The environment is read and validated once, and again only after a variable changes: tests and
 * the local runtime set variables as they go. process.env is watched (a Proxy over it that counts
 * writes and deletes), so a call costs one comparison, not a read of every variable: the old check,
 * 60 reads and a JSON.stringify per call, was a tenth of the API's CPU (docs/benchmarks.md).
 */
import { createHmac } from "node:crypto";
import path from "node:path";
// zod/mini, as in src/shared/schemas/fields.ts: every function reads its settings here, so this is on
// every cold start's path.
import * as z from "zod/mini";
import { isCalendarDate } from "#shared/dates.ts";
import { defaultOfficeRules } from "#shared/office.ts";
import { ConfigError } from "./config-error.ts";
import { currentDeployContext } from "./deploy-context.ts";
import { site } from "#config/site.ts";

const optionalText = z.optional(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((v) => v || undefined),
  ),
);
const wholeNumber = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce
    .number({ error: message })
    .check(z.refine(Number.isInteger, message), z.gte(min, message), z.lte(max, message));
};
const url = (name: string, protocols: RegExp, example: string) =>
  optionalText.check(
    z.refine(
      (v) => v === undefined || (URL.canParse(v) && protocols.test(new URL(v).protocol)),
      `${name} must be a URL such as ${example}`,
    ),
  );
const datesOf = (v: string | undefined) => (v ?? "").split(/[\s,]+/).filter(Boolean);

const POSTGRES = /^postgres(ql)?:$/;
const POSTGRES_EXAMPLE = "postgres://user:password@host:5432/name";

const schema = z.object({
  /**
   * `production` turns on the production checks: `npm start` then refuses to run without
   * DATABASE_URL, JWT_SECRET and SMTP_URL, and names every one missing.
   * @group Local server
   */
  NODE_ENV: optionalText,
  /**
   * Netlify's deploy context (`production`, `deploy-preview`, `branch-deploy`), at build time only: a
   * production build runs the production checks and migrates.
   * @group Set by Netlify
   */
  CONTEXT: optionalText,
  /**
   * Set in Netlify's builds and in every deployed function: at run time a function with SITE_ID is
   * in production unless its call says it serves a deploy preview or branch deploy.
   * @group Set by Netlify
   */
  SITE_ID: optionalText,
  /**
   * Set by `netlify dev` (which also sets SITE_ID on a developer's machine): not production.
   * @group Set by Netlify
   */
  NETLIFY_DEV: optionalText,

  /**
   * Calendar feeds (ICS addresses, comma-separated) whose events make the office busy, beside those
   * the admin connects in the availability page. Fetched on the schedule like the admin's: by the
   * scheduled function in production, by `npm start`'s timer locally (docs/operator.md, "Connected calendars").
   * @group Booking
   */
  BUSY_CALENDARS: optionalText,
  /**
   * How long a failing calendar feed's last good copy stands in for it, in hours. Past that, the feed
   * counts as busy all day (no slot is offered) until it is fetched again or removed: a stale copy
   * cannot show what was added to the calendar since (docs/operator.md, "When a feed fails").
   * @group Booking
   */
  CALENDAR_STALE_HOURS: z._default(wholeNumber("CALENDAR_STALE_HOURS", 1, 720), 24),
  /**
   * Test only: `loopback` lets calendar feeds be fetched from 127.0.0.1/::1 (the tests' own servers).
   * Every other private, loopback or link-local address is always refused. Ignored in production.
   * @group Tests and tools
   */
  CALENDAR_FETCH_ALLOW: optionalText,
  /**
   * Test only: the local server runs every job of the schedule (functions/_lib/schedule.ts) this
   * often, in milliseconds, instead of the job's own interval, so a test sees a scheduled run within
   * seconds. Ignored in production (Netlify runs the scheduled functions on their cron).
   * @group Tests and tools
   */
  SCHEDULE_INTERVAL_MS: z.optional(wholeNumber("SCHEDULE_INTERVAL_MS", 100, 86_400_000)),

  /**
   * `off` switches the counted abuse limits of src/shared/limits.ts off (load tests, benchmarks and
   * the browser tests set it), and lets one address have the process's whole share of password
   * comparisons waiting; the bot traps stay on.
   * @group Local server
   */
  RATE_LIMIT: z.pipe(
    optionalText,
    z.pipe(
      z.optional(z.enum(["on", "off"], { error: "RATE_LIMIT must be on or off" })),
      z.transform((v) => v ?? "on"),
    ),
  ),

  /**
   * The functions' connection: any PostgreSQL 15+ (`postgres://user:password@host:5432/name`); on
   * Neon the pooled one (host `ep-…-pooler.…`). Hosts ending in `.neon.tech` use Neon's serverless
   * driver. Required in production; unset locally, `npm start` runs the embedded PostgreSQL.
   * @default the embedded PostgreSQL
   * @group Database
   */
  DATABASE_URL: url("DATABASE_URL", POSTGRES, POSTGRES_EXAMPLE),
  /**
   * The direct connection, for migrations and `npm run admin:create` (Neon: the URL without
   * `-pooler`). Without it, migrations use DATABASE_URL and refuse a pooler's: a pooler in
   * transaction mode cannot hold the migrator's lock.
   * @default `DATABASE_URL`
   * @group Database
   */
  DATABASE_URL_UNPOOLED: url("DATABASE_URL_UNPOOLED", POSTGRES, POSTGRES_EXAMPLE),
  /**
   * Netlify DB's names for the same two URLs, used when DATABASE_URL and DATABASE_URL_UNPOOLED are
   * unset.
   * @group Database
   */
  NETLIFY_DATABASE_URL: url("NETLIFY_DATABASE_URL", POSTGRES, POSTGRES_EXAMPLE),
  NETLIFY_DATABASE_URL_UNPOOLED: url("NETLIFY_DATABASE_URL_UNPOOLED", POSTGRES, POSTGRES_EXAMPLE),
  /**
   * `true` lets a build outside production migrate the database it is given: set it only in a
   * context whose database is its own (a Neon branch per deploy preview), never production's.
   * @default `false`
   * @group Database
   */
  MIGRATE_PREVIEW_DATABASE: z.pipe(
    optionalText,
    z.optional(z.enum(["true", "false"], { error: "MIGRATE_PREVIEW_DATABASE must be true or false" })),
  ),
  /**
   * `neon` forces Neon's serverless driver for a host not ending in .neon.tech; `pg` forbids it.
   * @default by the host
   * @group Database
   */
  DATABASE_DRIVER: z.pipe(
    optionalText,
    z.optional(z.enum(["neon", "pg"], { error: "DATABASE_DRIVER must be neon or pg" })),
  ),
  /**
   * Connections one process keeps open. A deployed function instance serves one request at a time
   * and needs few; `npm start` serves every function from one process and uses 20.
   * @group Database
   */
  DATABASE_POOL_MAX: z._default(wholeNumber("DATABASE_POOL_MAX", 1, 200), 5),
  /**
   * How long a query waits for a connection (opening one, or a free one of the pool) before the
   * answer is a 503, in milliseconds; `npm start` uses 30000.
   * @group Database
   */
  DATABASE_POOL_WAIT_MS: z._default(wholeNumber("DATABASE_POOL_WAIT_MS", 100, 600_000), 5_000),
  /**
   * Folder of the local state: the embedded PostgreSQL (`postgres/`, its generated password), the
   * generated session secret and the file outbox.
   * @group Local server
   */
  DATA_DIR: z.pipe(
    optionalText,
    z.transform((v) => v ?? ".data"),
  ),

  /**
   * Key of admin sessions, 32+ random characters (`openssl rand -hex 32`); the form tokens, limit
   * counters, manage links and newsletter links use keys derived from it. Required in production.
   * @default generated into `DATA_DIR`
   * @group Sessions
   */
  JWT_SECRET: optionalText.check(
    z.refine((v) => v === undefined || v.length >= 32, "JWT_SECRET must be at least 32 characters (random)"),
  ),
  /**
   * The origin passkeys are bound to (their relying party: its host is the RP ID). A passkey made
   * for one origin never works on another, so set it once to the address the panel is used at.
   * @default `SITE_URL`
   * @group Sessions
   */
  PASSKEY_ORIGIN: url("PASSKEY_ORIGIN", /^https?:$/, "https://bridgewise.eu"),
  /**
   * An admin account that `npm start` makes sure exists with this password (both or neither). With
   * neither, the first start on the embedded database creates `admin` with a random password and
   * prints it once.
   * @group Sessions
   */
  ADMIN_USERNAME: optionalText,
  ADMIN_PASSWORD: optionalText,

  /**
   * SMTP server for every email, credentials in the URL: `smtp://user:password@host:587` (STARTTLS
   * when the server offers it) or `smtps://user:password@host:465`; query parameters are nodemailer
   * options. Required in production; unset locally, each email is written to DATA_DIR/outbox/.
   * @default the file outbox
   * @group Email
   */
  SMTP_URL: url("SMTP_URL", /^smtps?:$/, "smtp://user:password@host:587"),
  /**
   * Sender of every email, e.g. `Bridgewise <no-reply@bridgewise.eu>`. Visitors' emails carry
   * `Reply-To: PUBLIC_CONTACT_EMAIL` either way.
   * @default `"<PUBLIC_BRAND_NAME>" <PUBLIC_CONTACT_EMAIL>`
   * @group Email
   */
  MAIL_FROM: optionalText,
  /**
   * Where the company hears of each enquiry and booking; several addresses comma-separated.
   * @default `PUBLIC_CONTACT_EMAIL`
   * @group Email
   */
  NOTIFY_EMAIL: optionalText,
  /**
   * Domain of the per-lead reply addresses (`reply+<token>@<domain>`) put in Reply-To of a reply
   * sent from the panel; its MX records point at Mailgun, whose route forwards to
   * /api/inbound/mailgun-mime (docs/operator.md, "Replies from leads").
   * @default `reply.<host of SITE_URL>`
   * @group Email
   */
  REPLY_DOMAIN: optionalText.check(
    z.refine(
      (v) => v === undefined || /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(v),
      "REPLY_DOMAIN must be a domain name such as reply.bridgewise.eu",
    ),
  ),
  /**
   * Mailgun's HTTP webhook signing key (Mailgun: Sending → Webhooks → HTTP webhook signing key): the
   * inbound route's posts are signed with it, and a post whose signature does not verify is refused.
   * Without it in production the inbound route answers 503 (Mailgun keeps the message and retries).
   * @default generated into `DATA_DIR` (outside production)
   * @group Email
   */
  MAILGUN_SIGNING_KEY: optionalText.check(
    z.refine((v) => v === undefined || v.length >= 16, "MAILGUN_SIGNING_KEY must be at least 16 characters"),
  ),

  /**
   * Extra closing days, comma-separated `yyyy-MM-dd`, added to the office rules.
   * @group Booking
   */
  BOOKING_CLOSED_DATES: z.pipe(
    optionalText.check(
      z.superRefine((v, ctx) => {
        const wrong = datesOf(v).filter((d) => !isCalendarDate(d));
        if (wrong.length)
          ctx.addIssue({
            code: "custom",
            input: v,
            message: `BOOKING_CLOSED_DATES has dates that are not yyyy-MM-dd: ${wrong.join(", ")}`,
          });
      }),
    ),
    z.transform(datesOf),
  ),
  /**
   * How far ahead meetings can be booked, in days.
   * @group Booking
   */
  BOOKING_HORIZON_DAYS: z._default(wholeNumber("BOOKING_HORIZON_DAYS", 1, 365), defaultOfficeRules.horizonDays),
  /**
   * A fixed "now" (ISO date and time) for tests of the local runtime; ignored in production.
   * @group Tests and tools
   */
  BOOKING_NOW: optionalText.check(
    z.refine((v) => v === undefined || !Number.isNaN(Date.parse(v)), "BOOKING_NOW must be an ISO date and time"),
  ),

  /**
   * Days after an email was sent (or given up) that its addresses, body and invite are removed from
   * the outbox. The retention variables are read by the functions and by the build, which states
   * them on the privacy pages: set them for both.
   * @group Privacy
   */
  RETENTION_EMAIL_DAYS: z._default(wholeNumber("RETENTION_EMAIL_DAYS", 1, 3650), 30),
  /**
   * Days that failed sign-ins are kept (the typed username and the address as keyed hashes only).
   * @group Privacy
   */
  RETENTION_LOGIN_ATTEMPT_DAYS: z._default(wholeNumber("RETENTION_LOGIN_ATTEMPT_DAYS", 1, 3650), 30),
  /**
   * Months after an enquiry was processed (or came in, if never processed) or a meeting took place
   * that it is anonymised.
   * @group Privacy
   */
  RETENTION_RECORD_MONTHS: z._default(wholeNumber("RETENTION_RECORD_MONTHS", 1, 120), 24),
  /**
   * Days an unconfirmed newsletter sign-up, or an unsubscribed address, is kept before it is deleted.
   * @group Privacy
   */
  RETENTION_NEWSLETTER_PENDING_DAYS: z._default(wholeNumber("RETENTION_NEWSLETTER_PENDING_DAYS", 1, 3650), 30),

  /**
   * Where the content editor publishes: `git` commits to the local working copy (CONTENT_GIT_DIR;
   * `npm start` then rebuilds the site), `github` commits through GitHub's API with GITHUB_TOKEN (the
   * host, Netlify, rebuilds from the repository).
   * @default `github` in production, `git` otherwise
   * @group Content editor
   */
  CONTENT_PROVIDER: z.pipe(
    optionalText,
    z.optional(z.enum(["git", "github"], { error: "CONTENT_PROVIDER must be git or github" })),
  ),
  /**
   * The git working copy the `git` provider reads and commits to.
   * @default the current folder
   * @group Content editor
   */
  CONTENT_GIT_DIR: optionalText,
  /**
   * `on`: after each save the site is rebuilt from CONTENT_GIT_DIR (scripts/build/build.mjs) and the new
   * build is served; a failed build keeps the last good site and its refusal is shown to the editor.
   * @default `on` under `npm start`, `off` elsewhere
   * @group Content editor
   */
  CONTENT_REBUILD: z.pipe(
    optionalText,
    z.pipe(
      z.optional(z.enum(["on", "off"], { error: "CONTENT_REBUILD must be on or off" })),
      z.transform((v) => v ?? "off"),
    ),
  ),
  /**
   * The site's repository for the `github` provider, `owner/name`.
   * @group Content editor
   */
  GITHUB_REPOSITORY: optionalText.check(
    z.refine((v) => v === undefined || /^[\w.-]+\/[\w.-]+$/.test(v), "GITHUB_REPOSITORY must be owner/name"),
  ),
  /**
   * The branch the site is built from.
   * @default `main`
   * @group Content editor
   */
  GITHUB_BRANCH: z.pipe(
    optionalText,
    z.transform((v) => v ?? "main"),
  ),
  /**
   * A fine-grained token with "Contents: read and write" on GITHUB_REPOSITORY only. Server-side: editors
   * never see it and need no GitHub account.
   * @group Content editor
   */
  GITHUB_TOKEN: optionalText,
  /**
   * GitHub's API address (GitHub Enterprise, or the tests' own server).
   * @default `https://api.github.com`
   * @group Content editor
   */
  GITHUB_API_URL: z.pipe(
    url("GITHUB_API_URL", /^https?:$/, "https://api.github.com"),
    z.transform((v) => (v ?? "https://api.github.com").replace(/\/+$/, "")),
  ),

  /**
   * Port and interface `npm start` listens on.
   * @group Local server
   */
  PORT: z._default(wholeNumber("PORT", 0, 65_535), 8888),
  HOST: z.pipe(
    optionalText,
    z.transform((v) => v ?? "127.0.0.1"),
  ),
});

export type ServerEnv = z.output<typeof schema>;
const NAMES = Object.keys(schema.shape) as (keyof ServerEnv)[];

/** How many times a variable of the schema has been written to or deleted from process.env. */
let changes = 0;
let watched: NodeJS.ProcessEnv | undefined;
/** Only the schema's variables count: a platform that sets its own per call (a trace id) costs nothing. */
const READ = new Set<string | symbol>(NAMES);

/**
 * Puts a Proxy over process.env that counts the changes to the schema's variables. Reads,
 * enumeration and child processes see the same variables; a whole new object assigned to
 * process.env is wrapped again on next use.
 */
function watchEnv(): void {
  const target = process.env;
  const changed = (name: string | symbol) => {
    if (READ.has(name)) changes++;
  };
  watched = new Proxy(target, {
    get: (env, name) => env[name as string],
    set(env, name, value) {
      env[name as string] = value;
      changed(name);
      return true;
    },
    deleteProperty(env, name) {
      delete env[name as string];
      changed(name);
      return true;
    },
    defineProperty(env, name, descriptor) {
      const done = Reflect.defineProperty(env, name, descriptor);
      changed(name);
      return done;
    },
  });
  process.env = watched;
  changes++;
}

let cached: { changes: number; env: ServerEnv } | undefined;

/** The validated environment. Throws a ConfigError naming every wrong variable. */
export function serverEnv(): ServerEnv {
  if (process.env !== watched) watchEnv();
  if (cached?.changes === changes) return cached.env;
  const seen = changes;
  const raw = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  const result = z.safeParse(schema, raw);
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => issue.message).join("; "));
  cached = { changes: seen, env: result.data };
  return result.data;
}

/**
 * A number that changes whenever the environment may have: what a cache derived from serverEnv()
 * keys on (server/office.ts).
 */
export function envVersion(): number {
  serverEnv();
  return changes;
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

/** The calendar feed addresses the deploy sets in BUSY_CALENDARS. */
export const envBusyCalendars = (): string[] =>
  (serverEnv().BUSY_CALENDARS ?? "")
    .split(",")
    .map((url) => url.trim())
    .filter(Boolean);

/**
 * The moment before which a failing feed counts as stale: one failing since then or earlier blocks
 * every slot (its last copy no longer stands in for it).
 */
export const calendarStaleBefore = (at: Date): Date =>
  new Date(at.getTime() - serverEnv().CALENDAR_STALE_HOURS * 3_600_000);

/**
 * The key that seals calendar feed addresses and passwords at rest (AES-256-GCM): derived from
 * JWT_SECRET for this purpose alone, so a session key never opens them nor the other way round.
 */
export function calendarSealKey(): Buffer {
  return createHmac("sha256", jwtSecret()).update("calendar feed credentials v1").digest();
}

/** The key that seals TOTP secrets at rest (db/seal.ts), derived from JWT_SECRET. */
export function factorSealKey(): Buffer {
  return createHmac("sha256", jwtSecret()).update("second factor secrets v1").digest();
}

/**
 * The key of the recovery codes' HMAC at rest (functions/_lib/auth/recovery-codes.ts), derived from
 * JWT_SECRET: a leaked table alone cannot be searched for the 50-bit codes.
 */
export function recoveryCodeKey(): Buffer {
  return createHmac("sha256", jwtSecret()).update("recovery codes v1").digest();
}

/** The key of the failed sign-ins' trail (db/login-attempts.repository.ts): usernames and addresses only as HMACs. */
export function loginTrailKey(): Buffer {
  return createHmac("sha256", jwtSecret()).update("login attempts v1").digest();
}

/** The domain of the per-lead reply addresses (REPLY_DOMAIN, else reply.<site host>), lower case. */
export const replyDomain = (): string => (serverEnv().REPLY_DOMAIN ?? `reply.${site.host}`).toLowerCase();

/**
 * The key of the per-lead reply addresses' tokens (functions/_lib/mail/replies.ts), derived from
 * JWT_SECRET: a reply address cannot be made up for a lead nobody wrote to.
 */
export function replyAddressKey(): Buffer {
  return createHmac("sha256", jwtSecret()).update("lead reply addresses v1").digest();
}

/** Mailgun's signing key of inbound posts; null when none is set (the inbound route then refuses with 503). */
export const mailgunSigningKey = (): string | null => serverEnv().MAILGUN_SIGNING_KEY ?? null;

/** Where passkeys live: the origin the browser reports and its host, the WebAuthn RP ID. */
export function passkeyOrigin(): { origin: string; rpID: string } {
  const origin = new URL(serverEnv().PASSKEY_ORIGIN ?? site.url).origin;
  return { origin, rpID: new URL(origin).hostname };
}

/** Whether calendar feeds may be fetched from loopback (tests only: CALENDAR_FETCH_ALLOW=loopback). */
export const calendarLoopbackAllowed = (): boolean =>
  serverEnv().CALENDAR_FETCH_ALLOW === "loopback" && !isProduction();

/** The interval every scheduled job runs at on the local server when a test sets one (never in production). */
export const scheduleIntervalOverride = (): number | undefined =>
  isProduction() ? undefined : serverEnv().SCHEDULE_INTERVAL_MS;

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
    !databaseConfig().url && "DATABASE_URL or NETLIFY_DATABASE_URL (postgres://…, on Neon the pooled one)",
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

/**
 * How long personal data is kept: the one retention policy. The scheduled function functions/retention.ts
 * and the local server's timer apply it daily; the privacy pages state these same figures.
 */
export interface RetentionPolicy {
  /** An email's addresses, body and invite leave the outbox this many days after it was sent (or given up). */
  emailDays: number;
  /** Login attempts are deleted after this many days. */
  loginAttemptDays: number;
  /** Enquiries (from processing, or receipt while never processed) and meetings (from their day) are anonymised after this many months. */
  recordMonths: number;
  /** Unconfirmed newsletter sign-ups and unsubscribed addresses are deleted after this many days. */
  newsletterPendingDays: number;
}

/** The retention policy: defaults here, each figure overridable by its RETENTION_* variable. */
export function retentionPolicy(): RetentionPolicy {
  const env = serverEnv();
  return {
    emailDays: env.RETENTION_EMAIL_DAYS,
    loginAttemptDays: env.RETENTION_LOGIN_ATTEMPT_DAYS,
    recordMonths: env.RETENTION_RECORD_MONTHS,
    newsletterPendingDays: env.RETENTION_NEWSLETTER_PENDING_DAYS,
  };
}

/** How long a newsletter confirmation link works, in days. */
export const NEWSLETTER_CONFIRM_DAYS = 7;

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

/**
 * Database settings. `url` is what the functions use (on Neon the pooled URL, host `…-pooler…`),
 * `directUrl` what migrations use (Neon's direct URL): ours first, then Netlify DB's names. Without
 * a direct URL, migrations use `url` unless it is a pooler's (see migrationUrl). Both undefined when
 * nothing is configured.
 */
export function databaseConfig() {
  const env = serverEnv();
  return {
    url: env.DATABASE_URL ?? env.NETLIFY_DATABASE_URL,
    directUrl: env.DATABASE_URL_UNPOOLED ?? env.NETLIFY_DATABASE_URL_UNPOOLED,
    driver: env.DATABASE_DRIVER,
    poolMax: env.DATABASE_POOL_MAX,
    poolWaitMs: env.DATABASE_POOL_WAIT_MS,
  };
}

/** Whether a URL's host is a connection pooler's (Neon names them `ep-…-pooler.…`). */
export function isPoolerUrl(connectionString: string): boolean {
  return URL.canParse(connectionString) && new URL(connectionString).hostname.split(".")[0].endsWith("-pooler");
}

/**
 * The URL migrations run on: the direct one, else the functions' URL when it is not a pooler's.
 * A ConfigError otherwise: Kysely's migrator holds a session lock that a transaction-mode pooler
 * hands to another server connection, and the migration hangs.
 */
export function migrationUrl(): string | undefined {
  const { url, directUrl } = databaseConfig();
  if (directUrl) return directUrl;
  if (url && isPoolerUrl(url))
    throw new ConfigError(
      "DATABASE_URL is a pooled connection (-pooler): migrations need the direct one. Set DATABASE_URL_UNPOOLED " +
        "(Neon: Connection details, pooling off).",
    );
  return url;
}

/**
 * A warning for production running on a Neon host without its pooler: every function instance
 * then holds a connection of its own and a burst runs out of them (104 at Neon's smallest size).
 * Undefined when all is well.
 */
export function poolerWarning(): string | undefined {
  const { url } = databaseConfig();
  if (!url || !isProduction() || !URL.canParse(url)) return undefined;
  const host = new URL(url).hostname;
  if (!host.endsWith(".neon.tech") || isPoolerUrl(url)) return undefined;
  return (
    `DATABASE_URL points at Neon's direct host (${host}) in production: use the pooled one ` +
    `(${host.replace(/^([^.]+)/, "$1-pooler")}), or a burst of visitors runs out of connections.`
  );
}

export interface PublishConfig {
  provider: "git" | "github";
  gitDir: string;
  rebuild: boolean;
  github: { repository?: string; branch: string; token?: string; apiUrl: string };
}

/** The content editor's publishing settings (functions/_lib/publish/). */
export function publishConfig(): PublishConfig {
  const env = serverEnv();
  return {
    provider: env.CONTENT_PROVIDER ?? (isProduction() ? "github" : "git"),
    gitDir: path.resolve(env.CONTENT_GIT_DIR ?? "."),
    rebuild: env.CONTENT_REBUILD === "on",
    github: {
      repository: env.GITHUB_REPOSITORY,
      branch: env.GITHUB_BRANCH,
      token: env.GITHUB_TOKEN,
      apiUrl: env.GITHUB_API_URL,
    },
  };
}
