/**
 * The login under attack (issue 10): the throttle is atomic (parallel wrong passwords get exactly
 * the allowed tries), counts only evaluated failures, cannot lock the owner out (from an address
 * new to the username, a typo and then the right password get in while the username is under
 * attack), and counts only addresses Netlify reports.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { call, setupApiDatabase } from "./harness.ts";
import login from "../login.ts";
import { takeLoginTry } from "../_lib/throttle.ts";
import { ensureAdmin } from "../../db/admins.ts";
import { LIMITS } from "../../src/config/limits.ts";
import { readCounter } from "../../db/rate-limits.repository.ts";
import { addressKey, counterKey } from "../_lib/limits.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
const PASSWORD = "correct horse battery staple";
beforeAll(async () => {
  t = await setupApiDatabase();
  await ensureAdmin(t.db, "admin", PASSWORD);
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

const signIn = (password: string, ip: string, headers: Record<string, string> = {}) =>
  call(login, "/api/login", { body: { username: "admin", password }, ip, headers });

describe("POST /api/login under attack", () => {
  test("40 parallel wrong passwords from one address: exactly 5 evaluated (401), the rest 429 with Retry-After", async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => signIn("wrong password", "198.51.100.1")));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMITS.login.perPair.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - LIMITS.login.perPair.limit);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(LIMITS.login.perPair.windowSeconds);
    expect(refused.json).toEqual({ success: false, message: expect.stringMatching(/^Too many sign-in attempts/) });
    // The attacking address is locked, even with the right password.
    expect((await signIn(PASSWORD, "198.51.100.1")).status).toBe(429);
  }, 60_000);

  test("after that attack, the right password from an address that has not failed still gets in", async () => {
    const owner = await signIn(PASSWORD, "203.0.113.50");
    expect(owner.status).toBe(200);
    expect(owner.headers.get("set-cookie")).toMatch(/_session=/);
  }, 60_000);

  test("a spoofed X-Forwarded-For does not give an attacker a fresh address", async () => {
    // No address from the platform at all: every such request counts as one unknown address.
    const statuses = [];
    for (let i = 0; i < LIMITS.login.perPair.limit + 1; i++) {
      const res = await call(login, "/api/login", {
        body: { username: "spoofed", password: "wrong" },
        ip: "",
        headers: { "x-forwarded-for": `192.0.2.${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
  }, 60_000);
});

describe("takeLoginTry", () => {
  test(`one address gets ${LIMITS.login.perAddress.limit} tries in its window, whatever the usernames`, async () => {
    for (let i = 0; i < LIMITS.login.perAddress.limit; i++) await takeLoginTry(t.db, `sprayed${i}`, "192.0.2.77");
    await expect(takeLoginTry(t.db, "sprayed-last", "192.0.2.77")).rejects.toMatchObject({ status: 429 });
    await expect(takeLoginTry(t.db, "sprayed-last", "192.0.2.78")).resolves.toBeTruthy();
  });
});

describe("POST /api/login: the owner is never locked out", () => {
  const OWNER_PASSWORD = "the owner's own long password";
  const as = (username: string, password: string, ip: string) =>
    call(login, "/api/login", { body: { username, password }, ip });

  test("after 21 wrong logins from one address, the owner mistypes once from another and the right password gets in", async () => {
    await ensureAdmin(t.db, "owner1", OWNER_PASSWORD);
    for (let i = 0; i < 21; i++) await as("owner1", "wrong password", "198.51.100.21");
    expect((await as("owner1", "a typo", "203.0.113.21")).status).toBe(401);
    expect((await as("owner1", OWNER_PASSWORD, "203.0.113.21")).status).toBe(200);
  }, 60_000);

  test("a try refused by the throttle is not counted and does not extend the lock", async () => {
    await ensureAdmin(t.db, "owner2", OWNER_PASSWORD);
    const { perPair } = LIMITS.login;
    for (let i = 0; i < perPair.limit; i++) expect((await as("owner2", "wrong", "198.51.100.22")).status).toBe(401);
    const first = await as("owner2", "wrong", "198.51.100.22");
    expect(first.status).toBe(429);
    for (let i = 0; i < 10; i++) await as("owner2", "wrong", "198.51.100.22");
    const later = await as("owner2", "wrong", "198.51.100.22");
    expect(Number(later.headers.get("retry-after"))).toBeLessThanOrEqual(Number(first.headers.get("retry-after")));
    // Only the evaluated failures are on the counters: five for the pair, five for the username.
    const pair = await readCounter(
      t.db,
      counterKey("login-pair", `owner2\n${addressKey("198.51.100.22")}`),
      perPair.windowSeconds,
    );
    expect(pair.current).toBe(perPair.limit);
    const user = await readCounter(
      t.db,
      counterKey("login-username", "owner2"),
      LIMITS.login.perUsername.windowSeconds,
    );
    expect(user.current).toBe(perPair.limit);
  }, 60_000);

  test(`while 21 addresses guess the username, a new address still gets ${LIMITS.login.perPairUnderAttack} tries`, async () => {
    await ensureAdmin(t.db, "owner3", OWNER_PASSWORD);
    for (let i = 0; i < 21; i++) expect((await as("owner3", "wrong", `198.51.101.${i}`)).status).toBe(401);
    for (let i = 1; i < LIMITS.login.perPairUnderAttack; i++)
      expect((await as("owner3", "a typo", "203.0.113.23")).status).toBe(401);
    expect((await as("owner3", OWNER_PASSWORD, "203.0.113.23")).status).toBe(200);
    // An attacker's fresh address gets no more than those few.
    for (let i = 0; i < LIMITS.login.perPairUnderAttack; i++) await as("owner3", "wrong", "198.51.102.1");
    expect((await as("owner3", "wrong", "198.51.102.1")).status).toBe(429);
  }, 60_000);
});
