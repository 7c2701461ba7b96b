/**
 * The second factor: TOTP set-up and its window, recovery codes, the login's two steps and their
 * challenge, the throttle on codes, the limited session while every account must have a factor,
 * removal ending other sessions, the audit record and the notices, and hostile input to every new
 * endpoint. Real handlers on a real PostgreSQL; TOTP windows at set clocks.
 */
import { SignJWT } from "jose";
import { sql } from "kysely";
import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { createUser } from "#db/users.repository.ts";
import { GUARD_CODES } from "#shared/form-guard.ts";
import { SESSION_COOKIE } from "../_lib/auth/auth.ts";
import { SECOND_STEP_COOKIE, totpStep, useFactorCode } from "../_lib/auth/factors.ts";
import { BODIES, endpoints as findEndpoints } from "./endpoints.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import login from "../login.ts";
import loginFactors from "../login-factors.ts";
import accountFactors from "../account-factors.ts";
import accountPasskeys from "../account-passkeys.ts";
import securitySettings from "../admin-security-settings.ts";
import user from "../user.ts";
import adminStats from "../admin-stats.ts";
import adminUsers from "../admin-users.ts";
import accountStepUp from "../account-step-up.ts";
import fa from "#src/i18n/locales/fa.json" with { type: "json" };
import { fixtureAdmin, fixtureHash } from "./fixture-users.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
const PASSWORD = "correct horse battery staple";
let passwordHash = "";
let adminCookie = "";
const same = { origin: ORIGIN };
let ipCount = 0;
/** A fresh address per sign-in flow, so the throttle of one test never reaches another. */
const nextIp = () => `198.51.100.${++ipCount}`;

const codeAt = (secret: string, ms: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: ms });

const cookieOf = (res: { headers: Headers }, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

async function passwordStep(username: string, ip: string) {
  return call(login, "/api/login", { body: { username, password: PASSWORD }, ip, headers: same });
}

/** A new account of `role` with no factor, and a signed-in session of it. */
async function newAccount(username: string, role: "admin" | "editor" = "editor") {
  const created = await createUser(t.db, username, passwordHash, role);
  const res = await passwordStep(username, nextIp());
  expect(res.status, res.text).toBe(200);
  return { id: created.id, cookie: cookieOf(res, SESSION_COOKIE)! };
}

/** Proves again who the session's person is (the password): what protects an account may change for five minutes. */
async function stepUp(cookie: string) {
  const res = await call(accountStepUp, "/api/account/step-up", {
    body: { password: PASSWORD },
    cookie,
    headers: same,
    ip: nextIp(),
  });
  expect(res.status, res.text).toBe(200);
}

/** Sets up TOTP for a signed-in account (with a fresh step-up); returns the secret and the recovery codes. */
async function enroll(cookie: string) {
  await stepUp(cookie);
  const start = await call(accountFactors, "/api/account/factors/totp", { method: "POST", cookie, headers: same });
  expect(start.status, start.text).toBe(200);
  const confirm = await call(accountFactors, "/api/account/factors/totp/confirm", {
    body: { code: codeAt(start.json.secret, Date.now()) },
    cookie,
    headers: same,
    ip: nextIp(),
  });
  expect(confirm.status, confirm.text).toBe(200);
  return { secret: start.json.secret as string, recoveryCodes: confirm.json.recoveryCodes as string[] };
}

/** Forgets the account's last used step, so the current code is new again (one sign-in per step otherwise). */
const forgetStep = (id: number) => sql`UPDATE users SET totp_last_step = NULL WHERE id = ${id}`.execute(t.db);

async function secondStep(challenge: string | undefined, body: Record<string, unknown>, ip: string) {
  return call(loginFactors, "/api/login/second-factor", { body, cookie: challenge, ip, headers: same });
}

/** Signs in with password and a current code; the session cookie. */
async function signInWithCode(username: string, id: number, secret: string) {
  const ip = nextIp();
  const first = await passwordStep(username, ip);
  await forgetStep(id);
  const res = await secondStep(cookieOf(first, SECOND_STEP_COOKIE), { code: codeAt(secret, Date.now()) }, ip);
  expect(res.status, res.text).toBe(200);
  return cookieOf(res, SESSION_COOKIE)!;
}

const auditOf = async (action: string, actor?: string) =>
  (
    await sql<{ actor: string; detail: Record<string, unknown>; subject: string | null }>`
      SELECT actor, detail, subject FROM audit_log WHERE action = ${action}
      AND (${actor ?? null}::text IS NULL OR actor = ${actor ?? ""} OR subject = ${actor ?? ""}) ORDER BY id`.execute(
      t.db,
    )
  ).rows;

beforeAll(async () => {
  t = await setupApiDatabase();
  passwordHash = await fixtureHash(PASSWORD);
  await fixtureAdmin(t.db, "owner", PASSWORD);
  const res = await passwordStep("owner", nextIp());
  adminCookie = cookieOf(res, SESSION_COOKIE)!;
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("TOTP codes (RFC 6238, 30-second steps)", () => {
  const secret = new Secret({ size: 20 }).base32;
  const step = 59_000_000; // a step of the year 2026
  const start = step * 30_000;
  const end = start + 29_999;

  test("a code of the current step is accepted at the step's first and last millisecond", () => {
    expect(totpStep(secret, codeAt(secret, start), start)).toBe(step);
    expect(totpStep(secret, codeAt(secret, start), end)).toBe(step);
  });

  test("the previous and the next step's codes are accepted, at both edges", () => {
    for (const now of [start, end]) {
      expect(totpStep(secret, codeAt(secret, start - 30_000), now)).toBe(step - 1);
      expect(totpStep(secret, codeAt(secret, start + 30_000), now)).toBe(step + 1);
    }
  });

  test("a code two steps away is refused, before or after", () => {
    for (const now of [start, end]) {
      expect(totpStep(secret, codeAt(secret, start - 60_000), now)).toBeNull();
      expect(totpStep(secret, codeAt(secret, start + 60_000), now)).toBeNull();
    }
  });

  test("the clock the check reads by default is the system's (set here)", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(end);
    expect(totpStep(secret, codeAt(secret, end))).toBe(step);
    vi.setSystemTime(end + 60_001);
    expect(totpStep(secret, codeAt(secret, end))).toBeNull();
  });

  test("a code used once is refused within its window; of two concurrent uses exactly one passes", async () => {
    const { id, cookie } = await newAccount("replay");
    const { secret: mine } = await enroll(cookie);
    await forgetStep(id);
    const now = Date.now();
    const code = codeAt(mine, now);
    expect(await useFactorCode(t.db, id, { code }, now)).toBe("totp");
    expect(await useFactorCode(t.db, id, { code }, now)).toBeNull();
    expect(await useFactorCode(t.db, id, { code }, now + 30_000)).toBeNull(); // still in its window, a step later
    const next = codeAt(mine, now + 30_000);
    const both = await Promise.all([
      useFactorCode(t.db, id, { code: next }, now),
      useFactorCode(t.db, id, { code: next }, now),
    ]);
    expect(both.filter((r) => r === "totp")).toHaveLength(1);
  });
});

describe("POST /api/account/factors/totp and …/confirm", () => {
  test("answers a secret, its otpauth:// URI and a QR code; a first code switches TOTP on with ten recovery codes", async () => {
    const { id, cookie } = await newAccount("enrolling");
    await stepUp(cookie);
    const start = await call(accountFactors, "/api/account/factors/totp", { method: "POST", cookie, headers: same });
    expect(start.status).toBe(200);
    expect(start.json.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(start.json.uri).toMatch(/^otpauth:\/\/totp\/.*enrolling\?.*secret=[A-Z2-7]+/);
    expect(start.json.qr.size).toBeGreaterThan(20);
    expect(start.json.qr.path).toMatch(/^(M\d+ \d+h1v1h-1z)+$/);
    const stored = await sql<{ s: string | null; p: string | null }>`
      SELECT totp_secret AS s, totp_pending_secret AS p FROM users WHERE id = ${id}`.execute(t.db);
    expect(stored.rows[0].s).toBeNull();
    expect(stored.rows[0].p).toMatch(/^sealed:v1:/);
    expect(stored.rows[0].p).not.toContain(start.json.secret);

    const wrong = await call(accountFactors, "/api/account/factors/totp/confirm", {
      body: { code: codeAt(start.json.secret, Date.now() + 120_000) },
      cookie,
      headers: same,
      ip: nextIp(),
    });
    expect(wrong.status).toBe(403);
    expect((await call(accountFactors, "/api/account/factors", { cookie })).json.totp).toBe(false);

    const ok = await call(accountFactors, "/api/account/factors/totp/confirm", {
      body: { code: codeAt(start.json.secret, Date.now()) },
      cookie,
      headers: same,
      ip: nextIp(),
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.recoveryCodes).toHaveLength(10);
    expect(new Set(ok.json.recoveryCodes).size).toBe(10);
    for (const code of ok.json.recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);

    const status = await call(accountFactors, "/api/account/factors", { cookie });
    expect(status.json).toMatchObject({ totp: true, recoveryCodesLeft: 10, passkeys: [], email: null, limited: false });
    expect(status.text).not.toContain(start.json.secret);
    // The secret is never answered again: a new set-up is refused while TOTP is on.
    const again = await call(accountFactors, "/api/account/factors/totp", { method: "POST", cookie, headers: same });
    expect(again.status).toBe(409);
    const hashes = await sql<{ h: string }>`SELECT code_hash AS h FROM recovery_codes WHERE user_id = ${id}`.execute(
      t.db,
    );
    expect(hashes.rows.map((r) => r.h).join()).not.toContain(ok.json.recoveryCodes[0].slice(0, 5));
  });
});

describe("POST /api/login with a second factor, then POST /api/login/second-factor", () => {
  test("a right password opens no session: it answers the challenge cookie; a code then signs in", async () => {
    const { id, cookie } = await newAccount("two-step");
    const { secret } = await enroll(cookie);
    const ip = nextIp();
    const first = await passwordStep("two-step", ip);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ success: true, next: "second-factor", methods: ["totp"] });
    expect(cookieOf(first, SESSION_COOKIE)).toBeUndefined();
    const challenge = cookieOf(first, SECOND_STEP_COOKIE)!;
    expect(first.headers.getSetCookie()[0]).toMatch(/HttpOnly; SameSite=Strict; Max-Age=300/);
    expect(first.headers.getSetCookie()[0]).toContain("Path=/api/login");
    // The challenge is no session.
    expect((await call(user, "/api/user", { cookie: challenge })).status).toBe(401);
    await forgetStep(id);
    const before = (await auditOf("signin.success", "two-step")).length;
    const second = await secondStep(challenge, { code: codeAt(secret, Date.now()) }, ip);
    expect(second.status, second.text).toBe(200);
    const session = cookieOf(second, SESSION_COOKIE)!;
    expect((await call(user, "/api/user", { cookie: session })).json.user.username).toBe("two-step");
    expect(second.headers.getSetCookie().some((c) => c.startsWith(`${SECOND_STEP_COOKIE}=;`))).toBe(true);
    const entries = await auditOf("signin.success", "two-step");
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)!.detail).toEqual({ factor: "password+totp" });
  });

  test("a replayed code is refused on a new challenge; of two concurrent uses of one code exactly one signs in", async () => {
    const { id, cookie } = await newAccount("replayer");
    const { secret } = await enroll(cookie);
    await forgetStep(id);
    const code = codeAt(secret, Date.now());
    const a = await passwordStep("replayer", nextIp());
    expect((await secondStep(cookieOf(a, SECOND_STEP_COOKIE), { code }, nextIp())).status).toBe(200);
    const b = await passwordStep("replayer", nextIp());
    const replay = await secondStep(cookieOf(b, SECOND_STEP_COOKIE), { code }, nextIp());
    expect(replay.status).toBe(401);
    expect(replay.json.message).toBe("The code is not right");

    await forgetStep(id);
    const fresh = codeAt(secret, Date.now());
    const [c1, c2] = [await passwordStep("replayer", nextIp()), await passwordStep("replayer", nextIp())];
    const results = await Promise.all([
      secondStep(cookieOf(c1, SECOND_STEP_COOKIE), { code: fresh }, nextIp()),
      secondStep(cookieOf(c2, SECOND_STEP_COOKIE), { code: fresh }, nextIp()),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  test("each recovery code works exactly once, also when used twice at the same moment", async () => {
    const { cookie } = await newAccount("recovering");
    const { recoveryCodes } = await enroll(cookie);
    for (const [i, code] of recoveryCodes.slice(0, 3).entries()) {
      const first = await passwordStep("recovering", nextIp());
      // Typed in capitals with a space: the same code.
      const typed = i === 1 ? code.toUpperCase().replace("-", " ") : code;
      const ok = await secondStep(cookieOf(first, SECOND_STEP_COOKIE), { recoveryCode: typed }, nextIp());
      expect(ok.status, ok.text).toBe(200);
      const again = await passwordStep("recovering", nextIp());
      const reused = await secondStep(cookieOf(again, SECOND_STEP_COOKIE), { recoveryCode: code }, nextIp());
      expect(reused.status).toBe(401);
    }
    const [a, b] = [await passwordStep("recovering", nextIp()), await passwordStep("recovering", nextIp())];
    const both = await Promise.all([
      secondStep(cookieOf(a, SECOND_STEP_COOKIE), { recoveryCode: recoveryCodes[5] }, nextIp()),
      secondStep(cookieOf(b, SECOND_STEP_COOKIE), { recoveryCode: recoveryCodes[5] }, nextIp()),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
    expect((await call(accountFactors, "/api/account/factors", { cookie })).json.recoveryCodesLeft).toBe(6);
    const success = await auditOf("signin.success", "recovering");
    expect(success.filter((e) => e.detail.factor === "password+recovery")).toHaveLength(4);
  });

  test("wrong codes are throttled like passwords: after five, even the right code is 429", async () => {
    const { id, cookie } = await newAccount("guessed");
    const { secret } = await enroll(cookie);
    const ip = nextIp();
    const first = await passwordStep("guessed", ip);
    const challenge = cookieOf(first, SECOND_STEP_COOKIE);
    const failuresBefore = (await auditOf("signin.failure", "guessed")).length;
    const wrong = codeAt(secret, Date.now() + 300_000);
    for (let i = 0; i < 5; i++) expect((await secondStep(challenge, { code: wrong }, ip)).status).toBe(401);
    expect(await auditOf("signin.failure", "guessed")).toHaveLength(failuresBefore + 5);
    await forgetStep(id);
    const right = await secondStep(challenge, { code: codeAt(secret, Date.now()) }, ip);
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toMatch(/^\d+$/);
    // Recovery codes count in the same throttle.
    expect((await secondStep(challenge, { recoveryCode: "aaaaa-aaaaa" }, ip)).status).toBe(429);
  });

  test("an expired, forged, reused or missing challenge is refused", async () => {
    const { id, cookie } = await newAccount("challenged");
    const { secret } = await enroll(cookie);
    const code = () => codeAt(secret, Date.now());

    const expired = await passwordStep("challenged", nextIp());
    await sql`UPDATE auth_challenges SET expires_at = now() - interval '1 second' WHERE user_id = ${id}`.execute(t.db);
    await forgetStep(id);
    const late = await secondStep(cookieOf(expired, SECOND_STEP_COOKIE), { code: code() }, nextIp());
    expect(late.status).toBe(401);
    expect(late.json.code).toBe("secondStepExpired");

    const forged = await new SignJWT({ cid: "x".repeat(22) })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(id))
      .setAudience("second-step")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("another-secret-that-is-long-enough-0123456789"));
    expect((await secondStep(`${SECOND_STEP_COOKIE}=${forged}`, { code: code() }, nextIp())).status).toBe(401);
    // A session token is no challenge (another audience), and neither is nothing.
    expect((await secondStep(`${SECOND_STEP_COOKIE}=${cookie.split("=")[1]}`, { code: code() }, nextIp())).status).toBe(
      401,
    );
    expect((await secondStep(undefined, { code: code() }, nextIp())).status).toBe(401);
    // A real challenge for another account, its signature altered.
    const real = cookieOf(await passwordStep("challenged", nextIp()), SECOND_STEP_COOKIE)!;
    const tampered = real.slice(0, -3) + (real.endsWith("AAA") ? "BBB" : "AAA");
    expect((await secondStep(tampered, { code: code() }, nextIp())).status).toBe(401);

    const ok = await secondStep(real, { code: code() }, nextIp());
    expect(ok.status, ok.text).toBe(200);
    await forgetStep(id);
    const reused = await secondStep(real, { code: code() }, nextIp());
    expect(reused.status).toBe(401);
    expect(reused.json.code).toBe("secondStepExpired");
  });
});

describe("removing a factor", () => {
  test("needs the password or a current code, ends the person's other sessions and is audited once", async () => {
    const { id, cookie } = await newAccount("remover");
    const { secret } = await enroll(cookie);
    const other = await signInWithCode("remover", id, secret);
    const wrong = await call(accountFactors, "/api/account/factors/totp/remove", {
      body: { password: "not the password at all" },
      cookie,
      headers: same,
      ip: nextIp(),
    });
    expect(wrong.status).toBe(403);
    expect((await call(user, "/api/user", { cookie: other })).status).toBe(200);

    const removed = await call(accountFactors, "/api/account/factors/totp/remove", {
      body: { password: PASSWORD },
      cookie,
      headers: same,
      ip: nextIp(),
    });
    expect(removed.status, removed.text).toBe(200);
    expect((await call(user, "/api/user", { cookie: other })).status).toBe(401);
    expect((await call(user, "/api/user", { cookie })).status).toBe(200);
    const entries = await auditOf("factor.remove", "remover");
    expect(entries).toHaveLength(1);
    expect(entries[0].detail).toEqual({ factor: "totp", sessionsEnded: 1 });
    expect(await sql`SELECT 1 FROM recovery_codes WHERE user_id = ${id}`.execute(t.db).then((r) => r.rows)).toEqual([]);
    // Without a factor the password signs in alone again.
    const again = await passwordStep("remover", nextIp());
    expect(cookieOf(again, SESSION_COOKIE)).toBeDefined();
  });

  test("a current code also removes it; new recovery codes replace all the old ones", async () => {
    const { id, cookie } = await newAccount("regenerator");
    const { secret, recoveryCodes } = await enroll(cookie);
    await forgetStep(id);
    const fresh = await call(accountFactors, "/api/account/factors/recovery-codes", {
      body: { code: codeAt(secret, Date.now()) },
      cookie,
      headers: same,
      ip: nextIp(),
    });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.json.recoveryCodes).toHaveLength(10);
    expect(fresh.json.recoveryCodes).not.toContain(recoveryCodes[0]);
    expect(await auditOf("recovery.regenerate", "regenerator")).toHaveLength(1);
    const old = await passwordStep("regenerator", nextIp());
    expect(
      (await secondStep(cookieOf(old, SECOND_STEP_COOKIE), { recoveryCode: recoveryCodes[0] }, nextIp())).status,
    ).toBe(401);
    await forgetStep(id);
    const removed = await call(accountFactors, "/api/account/factors/totp/remove", {
      body: { code: codeAt(secret, Date.now()) },
      cookie,
      headers: same,
      ip: nextIp(),
    });
    expect(removed.status, removed.text).toBe(200);
    expect((await call(accountFactors, "/api/account/factors", { cookie })).json.totp).toBe(false);
  });
});

describe("every account must have a second factor", () => {
  test("PUT /api/admin/security-settings is admin only and audited once", async () => {
    const { cookie: editor } = await newAccount("plain-editor");
    const refused = await call(securitySettings, "/api/admin/security-settings", {
      method: "PUT",
      body: { requireSecondFactor: true },
      cookie: editor,
      headers: same,
    });
    expect(refused.status).toBe(403);
    await stepUp(adminCookie);
    const on = await call(securitySettings, "/api/admin/security-settings", {
      method: "PUT",
      body: { requireSecondFactor: true },
      cookie: adminCookie,
      headers: same,
    });
    expect(on.json).toEqual({ success: true, requireSecondFactor: true });
    expect(await auditOf("settings.change")).toHaveLength(1);
    await call(securitySettings, "/api/admin/security-settings", {
      method: "PUT",
      body: { requireSecondFactor: false },
      cookie: adminCookie,
      headers: same,
    });
  });

  test("a password sign-in without a factor gets a session that reaches only the set-up, until TOTP is on", async () => {
    await createUser(t.db, "newcomer", passwordHash, "admin");
    const set = (on: boolean) =>
      call(securitySettings, "/api/admin/security-settings", {
        method: "PUT",
        body: { requireSecondFactor: on },
        cookie: adminCookie,
        headers: same,
      });
    await stepUp(adminCookie);
    await set(true);
    try {
      const res = await passwordStep("newcomer", nextIp());
      expect(res.json).toMatchObject({ success: true, next: "setup" });
      const limited = cookieOf(res, SESSION_COOKIE)!;
      expect((await call(user, "/api/user", { cookie: limited })).json.user).toMatchObject({ setup: true });

      const allowed = new Set([
        "GET /api/user",
        "PATCH /api/user",
        "POST /api/logout",
        "GET /api/account/factors",
        "POST /api/account/factors/totp",
        "POST /api/account/factors/totp/confirm",
        "POST /api/account/passkeys/options",
        "POST /api/account/passkeys",
        "POST /api/account/step-up",
        "POST /api/account/step-up/options",
      ]);
      const reached: string[] = [];
      let checked = 0;
      for (const e of await findEndpoints(adminCookie)) {
        if (allowed.has(e.key) || e.key.startsWith("POST /api/login")) continue; // the sign-in itself
        const body = BODIES[e.key] ?? undefined;
        const options = { method: e.method, body, headers: same, ip: nextIp() };
        const anonymous = await call(e.handler, e.path, options);
        if (anonymous.status !== 401) continue; // a public endpoint, or one that refuses before asking who
        const answer = await call(e.handler, e.path, { ...options, cookie: limited });
        checked++;
        if (answer.status !== 403 || answer.json?.code !== "secondFactorRequired")
          reached.push(`${e.key}: ${answer.status}`);
      }
      expect(reached).toEqual([]);
      expect(checked).toBeGreaterThan(30);

      await enroll(limited);
      expect((await call(adminStats, "/api/admin/stats", { cookie: limited })).status).toBe(200);
      expect((await call(user, "/api/user", { cookie: limited })).json.user.setup).toBeUndefined();
    } finally {
      await stepUp(adminCookie);
      await set(false);
    }
  });

  test("the last factor cannot be removed while every account must have one", async () => {
    const { id, cookie } = await newAccount("last-one");
    const { secret } = await enroll(cookie);
    await stepUp(adminCookie);
    await call(securitySettings, "/api/admin/security-settings", {
      method: "PUT",
      body: { requireSecondFactor: true },
      cookie: adminCookie,
      headers: same,
    });
    try {
      await forgetStep(id);
      const res = await call(accountFactors, "/api/account/factors/totp/remove", {
        body: { code: codeAt(secret, Date.now()) },
        cookie,
        headers: same,
        ip: nextIp(),
      });
      expect(res.status).toBe(409);
      expect(res.json.code).toBe("lastFactor");
    } finally {
      await stepUp(adminCookie);
      await call(securitySettings, "/api/admin/security-settings", {
        method: "PUT",
        body: { requireSecondFactor: false },
        cookie: adminCookie,
        headers: same,
      });
    }
  });
});

describe("the email for security notices", () => {
  test("PUT /api/account/email sets it (audited once); notices go in the panel's language, none without an email", async () => {
    const { id, cookie } = await newAccount("noticed");
    const quiet = await newAccount("quiet");
    await enroll(quiet.cookie);
    const outbox = async (to: string) =>
      (
        await sql<{ kind: string; subject: string }>`
          SELECT kind, subject FROM email_outbox WHERE to_address = ${to} ORDER BY id`.execute(t.db)
      ).rows;
    expect(
      await sql`SELECT 1 FROM email_outbox WHERE kind LIKE 'security.%'`.execute(t.db).then((r) => r.rows),
    ).toEqual([]);

    const bad = await call(accountFactors, "/api/account/email", {
      method: "PUT",
      body: { email: "not an address" },
      cookie,
      headers: same,
    });
    expect(bad.status).toBe(400);
    await stepUp(cookie);
    const set = await call(accountFactors, "/api/account/email", {
      method: "PUT",
      body: { email: "noticed@example.com" },
      cookie,
      headers: same,
    });
    expect(set.status).toBe(200);
    expect(await auditOf("email.change", "noticed")).toHaveLength(1);
    await sql`UPDATE users SET panel_language = 'nl' WHERE id = ${id}`.execute(t.db);
    await enroll(cookie);
    expect((await outbox("noticed@example.com")).map((m) => m.kind)).toEqual(["security.factorAdded"]);
    expect((await outbox("noticed@example.com"))[0].subject).toMatch(/tweede|stap/i);

    // A sign-in from a device this account has not used: a notice; from a known one: none.
    const ua = {
      "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Version/17.5 Mobile Safari/604.1",
    };
    const recovery = await call(accountFactors, "/api/account/factors/recovery-codes", {
      body: { password: PASSWORD },
      cookie,
      headers: same,
      ip: nextIp(),
    });
    const code = recovery.json.recoveryCodes[0];
    const first = await call(login, "/api/login", {
      body: { username: "noticed", password: PASSWORD },
      headers: { ...same, ...ua },
      ip: nextIp(),
    });
    const second = await call(loginFactors, "/api/login/second-factor", {
      body: { recoveryCode: code },
      cookie: cookieOf(first, SECOND_STEP_COOKIE),
      headers: { ...same, ...ua },
      ip: nextIp(),
    });
    expect(second.status).toBe(200);
    expect((await outbox("noticed@example.com")).map((m) => m.kind)).toEqual([
      "security.factorAdded",
      "security.newDevice",
    ]);
  });
});

describe("a role changed by an admin", () => {
  test("is told to the person at their address in their panel's language; nothing without an address", async () => {
    const told = await newAccount("demoted", "admin");
    const untold = await newAccount("promoted");
    await sql`UPDATE users SET email = 'demoted@example.com', panel_language = 'fa' WHERE id = ${told.id}`.execute(
      t.db,
    );
    const change = (id: number, role: string) =>
      call(adminUsers, `/api/admin/users/${id}`, {
        method: "PATCH",
        body: { role },
        cookie: adminCookie,
        headers: same,
      });
    await stepUp(adminCookie);
    expect((await change(told.id, "editor")).status).toBe(200);
    expect((await change(untold.id, "admin")).status).toBe(200);
    // The same role again changes nothing and tells nobody.
    expect((await change(told.id, "editor")).status).toBe(200);
    const { rows } = await sql<{ kind: string; toAddress: string; subject: string; text: string }>`
      SELECT kind, to_address AS "toAddress", subject, text_body AS text FROM email_outbox WHERE kind = 'security.roleChanged'`.execute(
      t.db,
    );
    expect(rows).toEqual([
      {
        kind: "security.roleChanged",
        toAddress: "demoted@example.com",
        subject: fa.mail.security.roleChanged.subject,
        text: expect.stringContaining(fa.mail.security.roles.editor),
      },
    ]);
  });
});

describe("hostile input and cross-site requests to the new endpoints", () => {
  const NEW = [
    "POST /api/login/second-factor",
    "POST /api/login/passkey/options",
    "POST /api/login/passkey",
    "POST /api/account/factors/totp",
    "POST /api/account/factors/totp/confirm",
    "POST /api/account/factors/totp/remove",
    "POST /api/account/factors/recovery-codes",
    "PUT /api/account/email",
    "POST /api/account/passkeys/options",
    "POST /api/account/passkeys",
    "PATCH /api/account/passkeys/:id",
    "DELETE /api/account/passkeys/:id",
    "PUT /api/admin/security-settings",
  ];

  const READS_NO_BODY = new Set([
    "POST /api/login/passkey/options",
    "POST /api/account/passkeys/options",
    "POST /api/account/factors/totp",
    "DELETE /api/account/passkeys/:id",
  ]);

  test("prototype keys, deep nesting, a huge body and wrong types are 4xx in the API's shape, never 500", async () => {
    const { cookie } = await newAccount("hostile", "admin");
    const all = await findEndpoints(cookie);
    const hostile: { name: string; raw: string }[] = [
      { name: "prototype", raw: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"code":"123456"}' },
      { name: "deep", raw: "[".repeat(5000) + "]".repeat(5000) },
      { name: "huge", raw: JSON.stringify({ code: "1".repeat(40_000) }) },
      { name: "types", raw: '{"code":123456,"recoveryCode":[],"name":{},"response":"x","email":5,"password":null}' },
      { name: "array", raw: "[1,2,3]" },
      { name: "response", raw: '{"name":"x","response":{"id":"$$","rawId":1,"type":"public-key","response":[]}}' },
    ];
    const failures: string[] = [];
    for (const key of NEW) {
      const endpoint = all.find((e) => e.key === key);
      expect(endpoint, key).toBeDefined();
      for (const { name, raw } of hostile) {
        for (const session of [undefined, cookie]) {
          const res = await call(endpoint!.handler, endpoint!.path, {
            method: endpoint!.method,
            raw,
            headers: { ...same, "content-type": "application/json" },
            cookie: session,
            ip: nextIp(),
          });
          // The options and the TOTP start read no body: they may answer 200 to anything.
          const fine = res.status < 300 ? READS_NO_BODY.has(key) : res.status < 500 && res.json?.success === false;
          if (!fine || /\n\s+at |Error:/.test(res.text))
            failures.push(
              `${key} ${name} ${session ? "signed in" : "anonymous"}: ${res.status} ${res.text.slice(0, 120)}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("a request from another site is refused (403 crossSiteRefused) before anything is read", async () => {
    const { cookie } = await newAccount("cross", "admin");
    const all = await findEndpoints(cookie);
    for (const key of NEW) {
      const endpoint = all.find((e) => e.key === key)!;
      const res = await call(endpoint.handler, endpoint.path, {
        method: endpoint.method,
        body: BODIES[key] ?? undefined,
        cookie,
        headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        ip: nextIp(),
      });
      expect(res.status, key).toBe(403);
      expect(res.json.code, key).toBe(GUARD_CODES.crossSite);
    }
  });
});

describe("passkey endpoints (the browser test registers and signs in with a real one)", () => {
  test("registration options are for this account, require a discoverable, verified credential, and keep the challenge once", async () => {
    const { id, cookie } = await newAccount("keyholder");
    await stepUp(cookie);
    const res = await call(accountPasskeys, "/api/account/passkeys/options", { method: "POST", cookie, headers: same });
    expect(res.status, res.text).toBe(200);
    expect(res.json.rp).toEqual({ name: expect.any(String), id: "bridgewise.eu" });
    expect(res.json.user.name).toBe("keyholder");
    expect(res.json.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    const rows = await sql<{ challenge: string }>`
      SELECT challenge FROM auth_challenges WHERE user_id = ${id} AND purpose = 'passkey-register'`.execute(t.db);
    expect(rows.rows.map((r) => r.challenge)).toEqual([res.json.challenge]);
    // An answer that does not verify is 400 and adds nothing.
    const bad = await call(accountPasskeys, "/api/account/passkeys", {
      body: BODIES["POST /api/account/passkeys"]!,
      cookie,
      headers: same,
    });
    expect(bad.status).toBe(400);
    expect((await call(accountFactors, "/api/account/factors", { cookie })).json.passkeys).toEqual([]);
  });

  test("sign-in options are usernameless; an unknown passkey is refused and audited once", async () => {
    const options = await call(loginFactors, "/api/login/passkey/options", { method: "POST", headers: same });
    expect(options.status).toBe(200);
    expect(options.json.allowCredentials ?? []).toEqual([]);
    expect(options.json.userVerification).toBe("required");
    const before = (await auditOf("signin.failure")).length;
    const res = await call(loginFactors, "/api/login/passkey", {
      body: BODIES["POST /api/login/passkey"]!,
      headers: same,
      ip: nextIp(),
    });
    expect(res.status).toBe(401);
    expect(await auditOf("signin.failure")).toHaveLength(before + 1);
  });
});
