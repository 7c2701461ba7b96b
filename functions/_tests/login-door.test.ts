/**
 * The login's door against a patient attacker: wrong second-factor codes count per account whatever
 * the password step did, and an account's evaluated tries are capped per hour across all addresses,
 * with the owner's way in kept (an address where the account signed in before). Real handlers on a
 * real PostgreSQL, each test at a set clock.
 */
import { Secret, TOTP } from "otpauth";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { hitCounters } from "#db/rate-limits.repository.ts";
import { seal } from "#db/seal.ts";
import { factorSealKey } from "#server/config.ts";
import { LIMITS } from "#shared/limits.ts";
import { SECOND_STEP_COOKIE } from "../_lib/auth/factors.ts";
import { loginSucceeded, takeLoginTry } from "../_lib/auth/throttle.ts";
import { counterKey } from "../_lib/forms/limits.ts";
import login from "../login.ts";
import loginFactors from "../login-factors.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import { fixtureAdmin } from "./fixture-users.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
const PASSWORD = "correct horse battery staple";
const same = { origin: ORIGIN };

beforeAll(async () => {
  t = await setupApiDatabase();
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A minute into the next hour after now (every counter read here lies in one window). */
const freshHour = () => Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 60_000;

const cookieOf = (res: { headers: Headers }, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

describe("wrong second-factor codes count per account (finding: a right password reset them)", () => {
  test("three rounds of a right password and four wrong codes: 5 wrong codes evaluated of 12, the rest 429", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: freshHour(), shouldAdvanceTime: true });
    const {
      user: { id },
    } = await fixtureAdmin(t.db, "coded", PASSWORD);
    const secret = new Secret({ size: 20 });
    await sql`UPDATE users SET totp_secret = ${seal(secret.base32, factorSealKey())} WHERE id = ${id}`.execute(t.db);
    // A code of ten minutes from now: a well-formed code that is wrong now.
    const wrong = TOTP.generate({ secret, algorithm: "SHA1", digits: 6, period: 30, timestamp: Date.now() + 600_000 });
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const first = await call(login, "/api/login", {
        body: { username: "coded", password: PASSWORD },
        ip: "198.51.100.60",
        headers: same,
      });
      expect(first.status, first.text).toBe(200);
      const challenge = cookieOf(first, SECOND_STEP_COOKIE);
      for (let i = 0; i < 4; i++) {
        const res = await call(loginFactors, "/api/login/second-factor", {
          body: { code: wrong },
          cookie: challenge,
          ip: "198.51.100.60",
          headers: same,
        });
        statuses.push(res.status);
      }
    }
    expect(statuses).toHaveLength(12);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMITS.login.codesPerAccount.limit);
    expect(statuses.slice(LIMITS.login.codesPerAccount.limit).every((s) => s === 429)).toBe(true);
    // From another address too: the count is the account's.
    const elsewhere = await call(login, "/api/login", {
      body: { username: "coded", password: PASSWORD },
      ip: "203.0.113.61",
      headers: same,
    });
    const again = await call(loginFactors, "/api/login/second-factor", {
      body: { recoveryCode: "aaaaa-aaaaa" },
      cookie: cookieOf(elsewhere, SECOND_STEP_COOKIE),
      ip: "203.0.113.61",
      headers: same,
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
  }, 60_000);
});

describe(`an account's evaluated tries are capped at ${LIMITS.login.perAccount.limit} an hour across all addresses`, () => {
  test("32 addresses with 4 wrong passwords each: at most 100 evaluated (was 101)", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: freshHour() });
    let evaluated = 0;
    for (let a = 0; a < 32; a++)
      for (let i = 0; i < 4; i++)
        // A ticket taken and never taken back is a wrong password evaluated.
        await takeLoginTry(t.db, "capped", `198.51.${110 + Math.floor(a / 200)}.${a % 200}`).then(
          () => evaluated++,
          (error: { status: number }) => expect(error.status).toBe(429),
        );
    expect(evaluated).toBeLessThanOrEqual(LIMITS.login.perAccount.limit);
    expect(evaluated).toBeGreaterThan(LIMITS.login.perUsername.limit);
    // A 33rd address, new to the account, is not evaluated at all.
    await expect(takeLoginTry(t.db, "capped", "203.0.113.90")).rejects.toMatchObject({ status: 429 });
  });

  test("past the cap the owner still signs in from an address where they signed in before; a new one waits", async () => {
    const start = freshHour();
    vi.useFakeTimers({ toFake: ["Date"], now: start - 7 * 24 * 3_600_000, shouldAdvanceTime: true });
    await fixtureAdmin(t.db, "flooded", PASSWORD);
    const as = (password: string, ip: string) =>
      call(login, "/api/login", { body: { username: "flooded", password }, ip, headers: same });
    // A week ago the owner signed in from home.
    expect((await as(PASSWORD, "203.0.113.70")).status).toBe(200);
    vi.setSystemTime(start);
    // This hour, the account's 100 tries are spent by a botnet (as the test above shows them counted).
    const userKey = counterKey("login-username", "flooded");
    await hitCounters(
      t.db,
      [{ key: userKey, windowSeconds: LIMITS.login.perUsername.windowSeconds, by: LIMITS.login.perAccount.limit }],
      start,
    );
    expect((await as(PASSWORD, "203.0.113.71")).status).toBe(429);
    expect((await as("wrong password", "198.51.120.1")).status).toBe(429);
    // From home: a typo, then the right password.
    expect((await as("a typo", "203.0.113.70")).status).toBe(401);
    const owner = await as(PASSWORD, "203.0.113.70");
    expect(owner.status, owner.text).toBe(200);
    // The known address is still held to its own five tries.
    for (let i = 0; i < LIMITS.login.perPair.limit; i++) await as("wrong", "203.0.113.70");
    expect((await as(PASSWORD, "203.0.113.70")).status).toBe(429);
  }, 60_000);

  test("a successful sign-in marks its address known to that account only", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: freshHour() });
    const ticket = await takeLoginTry(t.db, "marked", "203.0.113.80");
    await loginSucceeded(t.db, ticket);
    for (const username of ["marked", "other"])
      await hitCounters(t.db, [
        {
          key: counterKey("login-username", username),
          windowSeconds: LIMITS.login.perUsername.windowSeconds,
          by: LIMITS.login.perAccount.limit,
        },
      ]);
    await expect(takeLoginTry(t.db, "marked", "203.0.113.80")).resolves.toBeTruthy();
    await expect(takeLoginTry(t.db, "other", "203.0.113.80")).rejects.toMatchObject({ status: 429 });
  });
});
