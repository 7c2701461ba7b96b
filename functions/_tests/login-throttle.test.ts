/**
 * The login under attack (issue 10): the throttle is atomic (parallel wrong passwords get exactly
 * the allowed tries), cannot lock the owner out (the right password from an address that has not
 * failed gets in while the username is under attack), and counts only addresses Netlify reports.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { call, setupApiDatabase } from "./harness.ts";
import login from "../login.ts";
import { takeLoginTry } from "../_lib/throttle.ts";
import { ensureAdmin } from "#db/admins.ts";
import { LIMITS } from "#config/limits.ts";

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

  test("while the username is under attack, the right password from an address that has not failed still gets in", async () => {
    // The 40 tries above put the username past its own, slower limit.
    expect(40).toBeGreaterThan(LIMITS.login.perUsername.limit);
    const owner = await signIn(PASSWORD, "203.0.113.50");
    expect(owner.status).toBe(200);
    expect(owner.headers.get("set-cookie")).toMatch(/_session=/);
    // Under attack each address gets one evaluated try: a guess from a fresh address is evaluated
    // (401), its next one is not (429).
    expect((await signIn("another guess", "203.0.113.51")).status).toBe(401);
    expect((await signIn(PASSWORD, "203.0.113.51")).status).toBe(429);
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
