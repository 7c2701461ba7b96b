/**
 * Step-up: what protects an account changes only within five minutes of a proof made again in the
 * session (the password, a TOTP code or a passkey). Per sensitive action: no proof, a proof six
 * minutes old (the clock set), a fresh one. The findings of the door review first, with their
 * numbers; then the race of two passkey removals (20 rounds on the real database), and the
 * notices the owner gets by email (read from the outbox's .eml files). Real handlers, real
 * PostgreSQL, a software passkey (soft-authenticator.ts).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import { simpleParser } from "mailparser";
import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { createUser } from "#db/users.repository.ts";
import { SESSION_COOKIE } from "../_lib/auth/auth.ts";
import { relyingParty } from "../_lib/auth/passkeys.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import { SoftAuthenticator } from "./soft-authenticator.ts";
import login from "../login.ts";
import loginFactors from "../login-factors.ts";
import accountFactors from "../account-factors.ts";
import accountPasskeys from "../account-passkeys.ts";
import accountPassword from "../account-password.ts";
import accountStepUp from "../account-step-up.ts";
import securitySettings from "../admin-security-settings.ts";
import adminUsers from "../admin-users.ts";
import { fixtureAdmin, fixtureHash } from "./fixture-users.ts";
import { PASSKEY_NAME_MAX } from "#shared/schemas/factors.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
const PASSWORD = "correct horse battery staple";
const NEW_PASSWORD = "another long passphrase 2026";
let passwordHash = "";
const same = { origin: ORIGIN };
let ipCount = 0;
/** A fresh network per sign-in flow, so one test's throttle never reaches another. */
const nextIp = () => `198.51.${100 + Math.floor(++ipCount / 200)}.${ipCount % 200}`;
const SIX_MINUTES = 6 * 60_000;

const cookieOf = (res: { headers: Headers }, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1);

const codeAt = (secret: string, ms: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30, timestamp: ms });

async function signIn(username: string, password = PASSWORD, ip = nextIp(), headers: Record<string, string> = {}) {
  const res = await call(login, "/api/login", { body: { username, password }, ip, headers: { ...same, ...headers } });
  expect(res.status, res.text).toBe(200);
  return cookieOf(res, SESSION_COOKIE)!;
}

let accounts = 0;
/** A new account of `role` without a factor, and a signed-in session of it. */
async function newAccount(role: "admin" | "editor" = "editor") {
  const username = `${role}${++accounts}`;
  const created = await createUser(t.db, username, passwordHash, role);
  return { id: created.id, username, cookie: await signIn(username) };
}

const stepUp = (cookie: string, body: Record<string, unknown> = { password: PASSWORD }) =>
  call(accountStepUp, "/api/account/step-up", { body, cookie, headers: same, ip: nextIp() });

/** Steps up now, then moves the clock six minutes on: the proof is too old. */
async function staleStepUp(cookie: string) {
  expect((await stepUp(cookie)).status).toBe(200);
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + SIX_MINUTES);
}

const expectStepUpRequired = (res: { status: number; json: any; text: string }) => {
  expect(res.status, res.text).toBe(403);
  expect(res.json.code).toBe("stepUpRequired");
};

/** Adds a passkey through the API (options, then the soft authenticator's answer). */
async function addPasskey(cookie: string, key = new SoftAuthenticator(relyingParty().origin), name = "Laptop") {
  const options = await call(accountPasskeys, "/api/account/passkeys/options", {
    method: "POST",
    cookie,
    headers: same,
  });
  if (options.status !== 200) return { res: options, key };
  const res = await call(accountPasskeys, "/api/account/passkeys", {
    body: { name, response: key.register(options.json) },
    cookie,
    headers: same,
  });
  return { res, key };
}

async function passkeySignIn(key: SoftAuthenticator) {
  const options = await call(loginFactors, "/api/login/passkey/options", {
    method: "POST",
    headers: same,
    ip: nextIp(),
  });
  expect(options.status).toBe(200);
  return call(loginFactors, "/api/login/passkey", {
    body: { response: key.assert(options.json) },
    headers: same,
    ip: nextIp(),
  });
}

const auditOf = async (action: string, actor: string) =>
  (
    await sql<{ detail: Record<string, unknown> }>`
      SELECT detail FROM audit_log WHERE action = ${action} AND actor = ${actor} ORDER BY id`.execute(t.db)
  ).rows;

beforeAll(async () => {
  t = await setupApiDatabase();
  passwordHash = await fixtureHash(PASSWORD);
  await fixtureAdmin(t.db, "owner", PASSWORD);
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the door review's findings: a stolen session alone", () => {
  test("adds no passkey (was 201), so none survives the owner's password change to sign in (was 200)", async () => {
    const victim = await newAccount("admin");
    const thief = await addPasskey(victim.cookie);
    expectStepUpRequired(thief.res);
    expect(await sql`SELECT 1 FROM passkeys WHERE user_id = ${victim.id}`.execute(t.db).then((r) => r.rows)).toEqual(
      [],
    );
    // The owner changes the password; the thief's key has nothing to sign in with.
    const changed = await call(accountPassword, "/api/account/password", {
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      cookie: victim.cookie,
      headers: same,
      ip: nextIp(),
    });
    expect(changed.status).toBe(200);
    expect((await passkeySignIn(thief.key)).status).toBe(401);
  });

  test("switches no TOTP on (was 200, then confirm 200)", async () => {
    const victim = await newAccount();
    const start = await call(accountFactors, "/api/account/factors/totp", {
      method: "POST",
      cookie: victim.cookie,
      headers: same,
    });
    expectStepUpRequired(start);
    // Even with a pending secret planted some other way, the confirm asks for proof too.
    await sql`UPDATE users SET totp_pending_secret = 'x' WHERE id = ${victim.id}`.execute(t.db);
    const confirm = await call(accountFactors, "/api/account/factors/totp/confirm", {
      body: { code: "123456" },
      cookie: victim.cookie,
      headers: same,
    });
    expectStepUpRequired(confirm);
    expect(
      (
        await sql<{ on: boolean }>`SELECT totp_secret IS NOT NULL AS on FROM users WHERE id = ${victim.id}`.execute(
          t.db,
        )
      ).rows[0].on,
    ).toBe(false);
  });

  test("invites no admin (was 201 with the password in the answer) and promotes no one (was 200)", async () => {
    const admin = await newAccount("admin");
    const invite = await call(adminUsers, "/api/admin/users", {
      body: { username: "thief-admin", role: "admin" },
      cookie: admin.cookie,
      headers: same,
    });
    expectStepUpRequired(invite);
    expect(invite.json.password).toBeUndefined();
    const editor = await newAccount("editor");
    const promote = await call(adminUsers, `/api/admin/users/${editor.id}`, {
      method: "PATCH",
      body: { role: "admin" },
      cookie: admin.cookie,
      headers: same,
      params: { id: String(editor.id) },
    });
    expectStepUpRequired(promote);
    const roles = await sql<{ username: string; role: string }>`
      SELECT username, role FROM users WHERE username IN ('thief-admin', ${editor.username})`.execute(t.db);
    expect(roles.rows).toEqual([{ username: editor.username, role: "editor" }]);
  });

  test("removes no passkey (was 200), as removing TOTP already asked for proof", async () => {
    const owner = await newAccount();
    expect((await stepUp(owner.cookie)).status).toBe(200);
    const { res } = await addPasskey(owner.cookie);
    expect(res.status, res.text).toBe(201);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + SIX_MINUTES);
    const removed = await call(accountPasskeys, `/api/account/passkeys/${res.json.passkey.id}`, {
      method: "DELETE",
      cookie: owner.cookie,
      headers: same,
      params: { id: String(res.json.passkey.id) },
    });
    expectStepUpRequired(removed);
  });

  test("changes the notice address only with proof, and the old address is told", async () => {
    const owner = await newAccount();
    await sql`UPDATE users SET email = 'owner-old@example.com' WHERE id = ${owner.id}`.execute(t.db);
    const silent = await call(accountFactors, "/api/account/email", {
      method: "PUT",
      body: { email: "thief@example.com" },
      cookie: owner.cookie,
      headers: same,
    });
    expectStepUpRequired(silent);
    expect((await stepUp(owner.cookie)).status).toBe(200);
    const changed = await call(accountFactors, "/api/account/email", {
      method: "PUT",
      body: { email: "owner-new@example.com" },
      cookie: owner.cookie,
      headers: same,
    });
    expect(changed.status).toBe(200);
    const [told] = await emlsTo("owner-old@example.com");
    expect(told.subject).toMatch(/address for security notices was changed/i);
    expect(await emlsTo("owner-new@example.com", 0)).toEqual([]);
  });
});

describe("POST /api/account/step-up", () => {
  test("takes the password, a current TOTP code or one of the account's own passkeys; audited once each", async () => {
    const me = await newAccount();
    const wrong = await stepUp(me.cookie, { password: "not the password" });
    expect(wrong.status).toBe(403);
    expect(wrong.json.errors.password).toBeDefined();
    const ok = await stepUp(me.cookie);
    expect(ok.status).toBe(200);
    expect(Date.parse(ok.json.until) - Date.now()).toBeGreaterThan(4.9 * 60_000);

    // TOTP on (with the fresh proof), then a code proves it too.
    const start = await call(accountFactors, "/api/account/factors/totp", {
      method: "POST",
      cookie: me.cookie,
      headers: same,
    });
    expect(start.status).toBe(200);
    const confirm = await call(accountFactors, "/api/account/factors/totp/confirm", {
      body: { code: codeAt(start.json.secret, Date.now()) },
      cookie: me.cookie,
      headers: same,
      ip: nextIp(),
    });
    expect(confirm.status).toBe(200);
    await sql`UPDATE users SET totp_last_step = NULL WHERE id = ${me.id}`.execute(t.db);
    expect((await stepUp(me.cookie, { code: codeAt(start.json.secret, Date.now()) })).status).toBe(200);
    expect((await stepUp(me.cookie, { code: codeAt(start.json.secret, Date.now()) })).status).toBe(403);

    // A passkey of this account proves it; another account's passkey does not.
    const { res, key } = await addPasskey(me.cookie);
    expect(res.status).toBe(201);
    const options = await call(accountStepUp, "/api/account/step-up/options", {
      method: "POST",
      cookie: me.cookie,
      headers: same,
    });
    expect(options.json.allowCredentials.map((c: { id: string }) => c.id)).toEqual([key.id]);
    expect((await stepUp(me.cookie, { response: key.assert(options.json) })).status).toBe(200);
    const other = await newAccount();
    const noneYet = await call(accountStepUp, "/api/account/step-up/options", {
      method: "POST",
      cookie: other.cookie,
      headers: same,
    });
    expect(noneYet.status).toBe(409);
    expect((await stepUp(other.cookie, { response: key.assert(options.json) })).status).toBe(403);

    expect((await auditOf("step-up", me.username)).map((a) => a.detail.proof)).toEqual(["password", "totp", "passkey"]);
  });

  test("wrong passwords count like failed sign-ins: after five, even the right one is 429", async () => {
    const me = await newAccount();
    const ip = nextIp();
    for (let i = 0; i < 5; i++)
      expect(
        (
          await call(accountStepUp, "/api/account/step-up", {
            body: { password: `nope${i}` },
            cookie: me.cookie,
            headers: same,
            ip,
          })
        ).status,
      ).toBe(403);
    const right = await call(accountStepUp, "/api/account/step-up", {
      body: { password: PASSWORD },
      cookie: me.cookie,
      headers: same,
      ip,
    });
    expect(right.status).toBe(429);
  }, 60_000);

  test("a proof in one session does not carry to another of the same account", async () => {
    const me = await newAccount();
    const other = await signIn(me.username);
    expect((await stepUp(me.cookie)).status).toBe(200);
    expectStepUpRequired(
      await call(accountFactors, "/api/account/factors/totp", { method: "POST", cookie: other, headers: same }),
    );
  });
});

/** Each sensitive action: [name, who, the request]. */
type Who = Awaited<ReturnType<typeof newAccount>>;
const ACTIONS: [
  string,
  "admin" | "editor",
  (me: Who) => Promise<{ status: number; json: any; text: string }>,
  number,
][] = [
  [
    "starting TOTP",
    "editor",
    (me) => call(accountFactors, "/api/account/factors/totp", { method: "POST", cookie: me.cookie, headers: same }),
    200,
  ],
  [
    "removing TOTP without a password in the body",
    "editor",
    async (me) => {
      await sql`UPDATE users SET totp_secret = 'sealed' WHERE id = ${me.id}`.execute(t.db);
      return call(accountFactors, "/api/account/factors/totp/remove", { body: {}, cookie: me.cookie, headers: same });
    },
    200,
  ],
  [
    "new recovery codes without a password in the body",
    "editor",
    async (me) => {
      await sql`UPDATE users SET totp_secret = 'sealed' WHERE id = ${me.id}`.execute(t.db);
      return call(accountFactors, "/api/account/factors/recovery-codes", {
        body: {},
        cookie: me.cookie,
        headers: same,
      });
    },
    200,
  ],
  [
    "a passkey's options",
    "editor",
    (me) =>
      call(accountPasskeys, "/api/account/passkeys/options", { method: "POST", cookie: me.cookie, headers: same }),
    200,
  ],
  [
    "removing a passkey",
    "editor",
    async (me) => {
      const [{ id }] = (
        await sql<{ id: number }>`INSERT INTO passkeys (user_id, credential_id, public_key, name)
          VALUES (${me.id}, ${`cred-${me.id}`}, '\\x00', 'Old') RETURNING id`.execute(t.db)
      ).rows;
      return call(accountPasskeys, `/api/account/passkeys/${id}`, {
        method: "DELETE",
        cookie: me.cookie,
        headers: same,
        params: { id: String(id) },
      });
    },
    200,
  ],
  [
    "the notice address",
    "editor",
    (me) =>
      call(accountFactors, "/api/account/email", {
        method: "PUT",
        body: { email: `${me.username}@example.com` },
        cookie: me.cookie,
        headers: same,
      }),
    200,
  ],
  [
    "inviting",
    "admin",
    (me) =>
      call(adminUsers, "/api/admin/users", {
        body: { username: `${me.username}-guest`, role: "editor" },
        cookie: me.cookie,
        headers: same,
      }),
    201,
  ],
  [
    "changing a role",
    "admin",
    async (me) => {
      const other = await createUser(t.db, `${me.username}-peer`, passwordHash, "editor");
      return call(adminUsers, `/api/admin/users/${other.id}`, {
        method: "PATCH",
        body: { role: "admin" },
        cookie: me.cookie,
        headers: same,
        params: { id: String(other.id) },
      });
    },
    200,
  ],
  [
    "the office's factor setting",
    "admin",
    (me) =>
      call(securitySettings, "/api/admin/security-settings", {
        method: "PUT",
        body: { requireSecondFactor: false },
        cookie: me.cookie,
        headers: same,
      }),
    200,
  ],
];

describe.each(ACTIONS)("%s", (_name, role, act, success) => {
  test("is refused without a proof", async () => {
    expectStepUpRequired(await act(await newAccount(role)));
  });
  test("is refused with a proof six minutes old", async () => {
    const me = await newAccount(role);
    await staleStepUp(me.cookie);
    expectStepUpRequired(await act(me));
  });
  test("is done with a fresh proof", async () => {
    const me = await newAccount(role);
    expect((await stepUp(me.cookie)).status).toBe(200);
    const res = await act(me);
    expect(res.status, res.text).toBe(success);
  });
});

describe("PATCH /api/account/passkeys/:id", () => {
  test("renames one's own passkey without a fresh proof, audited; another account's is 404; a bad name 400", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    expect((await stepUp(owner.cookie)).status).toBe(200);
    const { res } = await addPasskey(owner.cookie);
    expect(res.status, res.text).toBe(201);
    const id = String(res.json.passkey.id);
    const rename = (cookie: string, body: unknown) =>
      call(accountPasskeys, `/api/account/passkeys/${id}`, {
        method: "PATCH",
        body,
        cookie,
        headers: same,
        params: { id },
      });
    const stored = async () =>
      (await sql<{ name: string }>`SELECT name FROM passkeys WHERE id = ${Number(id)}`.execute(t.db)).rows[0].name;
    // A name is a label, not a factor: no step-up, even an old one.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + SIX_MINUTES);
    const renamed = await rename(owner.cookie, { name: "  Work laptop  " });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await stored()).toBe("Work laptop");
    expect(await auditOf("factor.rename", owner.username)).toEqual([
      { detail: { factor: "passkey", name: "Work laptop" } },
    ]);
    expect((await rename(other.cookie, { name: "Mine now" })).status).toBe(404);
    for (const body of [{ name: "" }, { name: "x".repeat(PASSKEY_NAME_MAX + 1) }, { name: "a\u0000b" }, {}])
      expect((await rename(owner.cookie, body)).status, JSON.stringify(body)).toBe(400);
    expect(await stored()).toBe("Work laptop");
  });
});

describe("two removals of an account's two passkeys at once", () => {
  test("leave one, every time: 20 rounds, one 200 and one 409 each (was both 200, 0 left, in 1–3 tries)", async () => {
    const me = await newAccount();
    await sql`UPDATE office_settings SET require_second_factor = true`.execute(t.db);
    try {
      for (let round = 0; round < 20; round++) {
        expect((await stepUp(me.cookie)).status).toBe(200);
        await sql`DELETE FROM passkeys WHERE user_id = ${me.id}`.execute(t.db);
        const ids = (
          await sql<{ id: number }>`INSERT INTO passkeys (user_id, credential_id, public_key, name)
            VALUES (${me.id}, ${`race-a-${round}`}, '\\x00', 'A'), (${me.id}, ${`race-b-${round}`}, '\\x00', 'B')
            RETURNING id`.execute(t.db)
        ).rows.map((r) => r.id);
        const answers = await Promise.all(
          ids.map((id) =>
            call(accountPasskeys, `/api/account/passkeys/${id}`, {
              method: "DELETE",
              cookie: me.cookie,
              headers: same,
              params: { id: String(id) },
            }),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
        expect(answers.find((a) => a.status === 409)!.json.code).toBe("lastFactor");
        const left = await sql<{ n: string }>`SELECT count(*) AS n FROM passkeys WHERE user_id = ${me.id}`.execute(
          t.db,
        );
        expect(Number(left.rows[0].n)).toBe(1);
      }
    } finally {
      await sql`UPDATE office_settings SET require_second_factor = false`.execute(t.db);
    }
  }, 60_000);
});

/** The .eml files the file outbox wrote to `to`, parsed, oldest first; waits for `count` of them. */
async function emlsTo(to: string, count = 1) {
  const dir = path.join(process.env.DATA_DIR!, "outbox");
  const deadline = Date.now() + 5000;
  for (;;) {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort();
    const mails = [];
    for (const file of files) {
      const parsed = await simpleParser(await readFile(path.join(dir, file)));
      const addresses = [parsed.to].flat().flatMap((a) => a?.value.map((v) => v.address) ?? []);
      if (addresses.includes(to)) mails.push(parsed);
    }
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the owner is told by email (ASVS 2.2.3)", () => {
  test("of a password change, at the notice address, in the panel's language", async () => {
    const me = await newAccount();
    await sql`UPDATE users SET email = 'pw-owner@example.com', panel_language = 'nl' WHERE id = ${me.id}`.execute(t.db);
    const changed = await call(accountPassword, "/api/account/password", {
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      cookie: me.cookie,
      headers: same,
      ip: nextIp(),
    });
    expect(changed.status).toBe(200);
    const [mail] = await emlsTo("pw-owner@example.com");
    expect(mail.subject).toBe("Je wachtwoord is gewijzigd");
    expect(mail.text).toContain(me.username);
  });

  test("of a sign-in from a new network with a known browser, not only of a new device", async () => {
    const me = await newAccount();
    await sql`UPDATE users SET email = 'net-owner@example.com' WHERE id = ${me.id}`.execute(t.db);
    const ua = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36" };
    await signIn(me.username, PASSWORD, "192.0.2.10", ua);
    expect((await emlsTo("net-owner@example.com")).map((m) => m.subject)).toEqual(["New sign-in to your account"]);
    // The same browser from the same network: nothing new.
    await signIn(me.username, PASSWORD, "192.0.2.11", ua);
    // The same browser family (the attacker's User-Agent) from another network: told.
    await signIn(me.username, PASSWORD, "203.0.113.50", ua);
    const mails = await emlsTo("net-owner@example.com", 2);
    expect(mails.map((m) => m.subject)).toEqual([
      "New sign-in to your account",
      "Sign-in to your account from a new network",
    ]);
    expect(mails[1].text).toContain("203.0.113.0/24");
  });
});
