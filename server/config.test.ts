import { afterEach, describe, expect, test, vi } from "vitest";
import { ConfigError } from "./config-error.ts";
import { noteDeployContext } from "./deploy-context.ts";
import {
  assertProductionReady,
  databaseConfig,
  isPoolerUrl,
  isProduction,
  migrationUrl,
  poolerWarning,
  serverEnv,
} from "./config.ts";
import { now, officeRules } from "./office.ts";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("serverEnv", () => {
  test("defaults for a local run with nothing set", () => {
    for (const name of ["DATABASE_POOL_MAX", "DATA_DIR", "PORT", "BOOKING_HORIZON_DAYS", "BOOKING_CLOSED_DATES"]) {
      vi.stubEnv(name, undefined);
    }
    expect(serverEnv()).toMatchObject({
      DATABASE_POOL_MAX: 5,
      DATA_DIR: ".data",
      PORT: 8888,
      BOOKING_HORIZON_DAYS: 60,
      BOOKING_CLOSED_DATES: [],
    });
  });

  test.each([
    ["DATABASE_POOL_MAX", "many", /DATABASE_POOL_MAX must be a whole number from 1 to 200/],
    ["DATABASE_URL", "mysql://x@y/z", /DATABASE_URL must be a URL such as postgres:/],
    ["SMTP_URL", "http://mail.example.com", /SMTP_URL must be a URL such as smtp:/],
    ["JWT_SECRET", "short", /JWT_SECRET must be at least 32 characters/],
    ["BOOKING_CLOSED_DATES", "2026-12-01, 2026-02-30", /not yyyy-MM-dd: 2026-02-30/],
    ["DATABASE_DRIVER", "mysql", /DATABASE_DRIVER must be neon or pg/],
  ])("a wrong %s is a ConfigError that names it", (name, value, message) => {
    vi.stubEnv(name, value);
    expect(() => serverEnv()).toThrow(ConfigError);
    expect(() => serverEnv()).toThrow(message);
  });

  test("BOOKING_CLOSED_DATES closes those days on top of the office rules", () => {
    vi.stubEnv("BOOKING_CLOSED_DATES", "2026-12-02,2026-12-01 2026-12-02");
    expect(officeRules().closedDates).toEqual(["2026-12-01", "2026-12-02"]);
  });
});

describe("serverEnv reads the environment once", () => {
  // Measured at e9ac0ed: each call read the 60 variables and JSON-stringified them to check its
  // cache, ~10 % of the API's CPU under load (docs/benchmarks.md). Now a call reads none unless a
  // variable changed.
  test("1,000 calls with nothing changed read process.env no more than one call does", () => {
    const original = process.env;
    let reads = 0;
    process.env = new Proxy(original, {
      get: (env, name) => {
        reads++;
        return env[name as string];
      },
    });
    try {
      vi.stubEnv("PORT", "9602");
      serverEnv();
      const once = reads;
      for (let i = 0; i < 1000; i++) serverEnv();
      expect(reads - once).toBe(0);
      expect(once).toBeLessThanOrEqual(80);
    } finally {
      process.env = original;
    }
  });

  test("a change made after the first call is seen: set, deleted, or a whole new process.env", () => {
    vi.stubEnv("DATABASE_POOL_MAX", "7");
    expect(serverEnv().DATABASE_POOL_MAX).toBe(7);
    process.env.DATABASE_POOL_MAX = "8";
    expect(serverEnv().DATABASE_POOL_MAX).toBe(8);
    delete process.env.DATABASE_POOL_MAX;
    expect(serverEnv().DATABASE_POOL_MAX).toBe(5);
    const original = process.env;
    process.env = { ...original, DATABASE_POOL_MAX: "9" };
    try {
      expect(serverEnv().DATABASE_POOL_MAX).toBe(9);
    } finally {
      process.env = original;
    }
    expect(serverEnv().DATABASE_POOL_MAX).toBe(5);
  });

  test("a variable outside the schema (a platform's per-call trace id) does not make it read again", () => {
    const first = serverEnv();
    process.env._X_AMZN_TRACE_ID = "Root=1-00000000-000000000000000000000000";
    delete process.env._X_AMZN_TRACE_ID;
    expect(serverEnv()).toBe(first);
  });

  test("the office rules follow the environment, and are one object while it stays", () => {
    vi.stubEnv("BOOKING_HORIZON_DAYS", "30");
    const rules = officeRules();
    expect(rules.horizonDays).toBe(30);
    expect(officeRules()).toBe(rules);
    vi.stubEnv("BOOKING_HORIZON_DAYS", "31");
    expect(officeRules().horizonDays).toBe(31);
  });
});

describe("production", () => {
  test("the checks name every missing variable at once", () => {
    vi.stubEnv("NODE_ENV", "production");
    for (const name of ["DATABASE_URL", "JWT_SECRET", "SMTP_URL"]) vi.stubEnv(name, "");
    expect(() => assertProductionReady()).toThrow(/Production needs DATABASE_URL .*JWT_SECRET .*SMTP_URL/);
    vi.stubEnv("DATABASE_URL", "postgres://u:p@db.example.com/app");
    vi.stubEnv("JWT_SECRET", "x".repeat(40));
    vi.stubEnv("SMTP_URL", "smtps://u:p@mail.example.com:465");
    expect(() => assertProductionReady()).not.toThrow();
  });

  test("BOOKING_NOW moves the clock locally, never in production", () => {
    vi.stubEnv("BOOKING_NOW", "2026-11-23T09:10:00Z");
    vi.stubEnv("NODE_ENV", "");
    vi.stubEnv("CONTEXT", "");
    expect(now().toISOString()).toBe("2026-11-23T09:10:00.000Z");
    vi.stubEnv("NODE_ENV", "production");
    expect(now().getFullYear()).toBeGreaterThanOrEqual(2026);
    expect(now().toISOString()).not.toBe("2026-11-23T09:10:00.000Z");
  });

  test("a deployed function is production before any call named its context: Netlify sets SITE_ID at run time", () => {
    vi.stubEnv("NODE_ENV", "");
    vi.stubEnv("CONTEXT", "");
    vi.stubEnv("SITE_ID", "1d01c0c0-4554-4747-93b8-34ce3448ab95");
    expect(isProduction()).toBe(true);
    vi.stubEnv("NETLIFY_DEV", "true"); // `netlify dev` on a developer's machine sets SITE_ID too
    expect(isProduction()).toBe(false);
    vi.stubEnv("NETLIFY_DEV", "");
    vi.stubEnv("CONTEXT", "deploy-preview"); // a preview's build
    expect(isProduction()).toBe(false);
  });

  test("RATE_LIMIT is on unless set to off; anything else is a ConfigError", () => {
    vi.stubEnv("RATE_LIMIT", undefined);
    expect(serverEnv().RATE_LIMIT).toBe("on");
    vi.stubEnv("RATE_LIMIT", "off");
    expect(serverEnv().RATE_LIMIT).toBe("off");
    vi.stubEnv("RATE_LIMIT", "false");
    expect(() => serverEnv()).toThrow(/RATE_LIMIT must be on or off/);
  });

  // Last in this file: a function instance keeps the first deploy context it sees.
  test("inside a deployed function, production is the deploy context Netlify passes (CONTEXT is build-time only)", () => {
    vi.stubEnv("NODE_ENV", "");
    vi.stubEnv("CONTEXT", "");
    expect(isProduction()).toBe(false);
    noteDeployContext({ deploy: { context: "production" } });
    expect(isProduction()).toBe(true);
  });
});

describe("two connection strings", () => {
  const neon = "postgres://u:p@ep-cool-darkness-123456.eu-central-1.aws.neon.tech/app";
  const neonPooled = "postgres://u:p@ep-cool-darkness-123456-pooler.eu-central-1.aws.neon.tech/app";
  const names = ["DATABASE_URL", "DATABASE_URL_UNPOOLED", "NETLIFY_DATABASE_URL", "NETLIFY_DATABASE_URL_UNPOOLED"];

  test("ours first, then Netlify DB's names", () => {
    for (const name of names) vi.stubEnv(name, "");
    vi.stubEnv("NETLIFY_DATABASE_URL", neonPooled);
    vi.stubEnv("NETLIFY_DATABASE_URL_UNPOOLED", neon);
    expect(databaseConfig()).toMatchObject({ url: neonPooled, directUrl: neon });
    vi.stubEnv("DATABASE_URL", "postgres://u:p@db.example.com/app");
    vi.stubEnv("DATABASE_URL_UNPOOLED", "postgres://u:p@db-direct.example.com/app");
    expect(databaseConfig()).toMatchObject({
      url: "postgres://u:p@db.example.com/app",
      directUrl: "postgres://u:p@db-direct.example.com/app",
    });
  });

  test("migrations take the direct URL, and refuse a pooler's when there is none", () => {
    for (const name of names) vi.stubEnv(name, "");
    vi.stubEnv("DATABASE_URL", neonPooled);
    expect(isPoolerUrl(neonPooled)).toBe(true);
    expect(() => migrationUrl()).toThrow(/pooled connection \(-pooler\): migrations need the direct one/);
    vi.stubEnv("DATABASE_URL_UNPOOLED", neon);
    expect(migrationUrl()).toBe(neon);
    vi.stubEnv("DATABASE_URL_UNPOOLED", "");
    vi.stubEnv("DATABASE_URL", "postgres://u:p@127.0.0.1:5432/app");
    expect(migrationUrl()).toBe("postgres://u:p@127.0.0.1:5432/app");
  });

  test("production on Neon's direct host is warned about; the pooled host and other hosts are not", () => {
    for (const name of names) vi.stubEnv(name, "");
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("DATABASE_URL", neon);
    expect(poolerWarning()).toMatch(/ep-cool-darkness-123456-pooler\.eu-central-1\.aws\.neon\.tech/);
    vi.stubEnv("DATABASE_URL", neonPooled);
    expect(poolerWarning()).toBeUndefined();
    vi.stubEnv("DATABASE_URL", "postgres://u:p@db.example.com/app");
    expect(poolerWarning()).toBeUndefined();
  });
});
