/**
 * Invitations (ASVS 2.3.1): an emailed single-use link, 72 hours, with which the invitee chooses
 * their own password, then signs in as everyone does. Where no mail is configured the link is shown
 * once to the admin instead. Expired, used and forged links are clear 4xx answers; the table keeps
 * the token's hash only. Real handlers, real PostgreSQL, a real SMTP server for the emailed link.
 */
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { SESSION_COOKIE } from "../_lib/auth/auth.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import { TestMailServer } from "./mail-server.ts";
import login from "../login.ts";
import user from "../user.ts";
import adminUsers from "../admin-users.ts";
import accountStepUp from "../account-step-up.ts";
import securitySettings from "../admin-security-settings.ts";
import invitation from "../invitation.ts";
import fa from "#src/i18n/locales/fa.json" with { type: "json" };
import { fixtureAdmin } from "./fixture-users.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
const PASSWORD = "correct horse battery staple";
const same = { origin: ORIGIN };
let admin = "";
let ipCount = 0;
const nextIp = () => `192.0.2.${++ipCount}`;
const HOUR = 3_600_000;

const cookieOf = (res: { headers: Headers }) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;

async function stepUp() {
  const res = await call(accountStepUp, "/api/account/step-up", {
    body: { password: PASSWORD },
    cookie: admin,
    headers: same,
    ip: nextIp(),
  });
  expect(res.status).toBe(200);
}

async function invite(body: Record<string, unknown>) {
  await stepUp();
  return call(adminUsers, "/api/admin/users", { body, cookie: admin, headers: same, ip: nextIp() });
}

const tokenOf = (link: string) => new URL(link).hash.slice(1);
const status = (token: string) => call(invitation, "/api/invitation", { body: { token }, headers: same });
const accept = (token: string, password: string) =>
  call(invitation, "/api/invitation/accept", { body: { token, password }, headers: same, ip: nextIp() });
const signIn = (username: string, password: string) =>
  call(login, "/api/login", { body: { username, password }, headers: same, ip: nextIp() });

beforeAll(async () => {
  t = await setupApiDatabase();
  await fixtureAdmin(t.db, "owner", PASSWORD);
  admin = cookieOf(await signIn("owner", PASSWORD));
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("without mail configured (no SMTP_URL)", () => {
  test("the link is shown once; the invitee chooses a password with it, then signs in normally", async () => {
    const res = await invite({ username: "ada", role: "editor", email: "ada@example.com", language: "nl" });
    expect(res.status, res.text).toBe(201);
    expect(res.json.emailed).toBe(false);
    expect(res.json.link).toMatch(/^https?:\/\/[^/]+\/admin\/invitation\?lang=nl#[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(res.json.expiresAt) - Date.now()).toBeGreaterThan(71.9 * HOUR);
    const token = tokenOf(res.json.link);
    // Only the token's SHA-256 is kept; nothing was queued for sending.
    const stored = await sql<{ tokenHash: string }>`SELECT token_hash AS "tokenHash" FROM invitations`.execute(t.db);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.rows)).not.toContain(token);
    expect((await sql`SELECT 1 FROM email_outbox WHERE kind = 'security.invitation'`.execute(t.db)).rows).toEqual([]);

    // Before the link is used, no password opens the account.
    expect((await signIn("ada", PASSWORD)).status).toBe(401);
    expect((await status(token)).json).toEqual({
      success: true,
      username: "ada",
      language: "nl",
      expiresAt: res.json.expiresAt,
    });
    const short = await accept(token, "short");
    expect(short.status).toBe(400);
    expect((await accept(token, "ada's own long password")).status).toBe(200);
    const session = await signIn("ada", "ada's own long password");
    expect(session.status).toBe(200);
    const me = await call(user, "/api/user", { cookie: cookieOf(session) });
    expect(me.json.user).toMatchObject({ username: "ada", role: "editor", language: "nl" });

    // Used: a clear 410, for the page and for a second try; the password stays the invitee's.
    expect((await status(token)).status).toBe(410);
    const again = await accept(token, "a thief's long password");
    expect(again.status).toBe(410);
    expect(again.json.code).toBe("invitationUsed");
    expect((await signIn("ada", "a thief's long password")).status).toBe(401);

    const audit = await sql<{ action: string; actor: string; target: string; detail: Record<string, unknown> }>`
      SELECT action, actor, target, detail FROM audit_log WHERE action IN ('invite', 'invite.accept') ORDER BY id`.execute(
      t.db,
    );
    expect(audit.rows).toEqual([
      { action: "invite", actor: "owner", target: "ada", detail: { role: "editor", emailed: false } },
      { action: "invite.accept", actor: "ada", target: "ada", detail: {} },
    ]);
  });

  test("a link works for 72 hours: a minute before, still; at the hour, a clear 410 (the clock set)", async () => {
    const before = Date.now();
    const res = await invite({ username: "late", role: "editor" });
    const token = tokenOf(res.json.link);
    const expires = Date.parse(res.json.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(72 * HOUR);
    expect(expires - Date.now()).toBeLessThanOrEqual(72 * HOUR);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(expires - 60_000);
    expect((await status(token)).status).toBe(200);
    vi.setSystemTime(expires);
    const expired = await status(token);
    expect(expired.status).toBe(410);
    expect(expired.json.code).toBe("invitationExpired");
    const late = await accept(token, "a long enough password");
    expect(late.status).toBe(410);
    expect(late.json.code).toBe("invitationExpired");
  });

  test("a forged or malformed token is 404 or 400, never a 5xx, and changes nothing", async () => {
    const forged = await status("A".repeat(43));
    expect(forged.status).toBe(404);
    expect(forged.json.code).toBe("invitationUnknown");
    expect((await accept("B".repeat(43), "a long enough password")).status).toBe(404);
    for (const token of ["", "short", "A".repeat(44), "A".repeat(42) + "=", "../../etc/passwd", "Ä".repeat(43)])
      expect((await status(token)).status, token).toBe(400);
    for (const body of [
      { token: "A".repeat(43), password: "x".repeat(300) },
      { token: ["x"] },
      { __proto__: { token: "A" } },
    ])
      expect((await call(invitation, "/api/invitation/accept", { body, headers: same })).status).toBe(400);
    const cross = await call(invitation, "/api/invitation", {
      body: { token: "A".repeat(43) },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(cross.status).toBe(403);
  });

  test("two uses of one link at once: exactly one sets the password", async () => {
    const res = await invite({ username: "twice", role: "admin" });
    const token = tokenOf(res.json.link);
    const answers = await Promise.all([
      accept(token, "the first long password"),
      accept(token, "the second long password"),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
    const winner = answers[0].status === 200 ? "the first long password" : "the second long password";
    expect((await signIn("twice", winner)).status).toBe(200);
  });

  test("an invitee of an office that requires a second factor signs in to set one up first", async () => {
    const res = await invite({ username: "careful", role: "editor" });
    await stepUp();
    await call(securitySettings, "/api/admin/security-settings", {
      method: "PUT",
      body: { requireSecondFactor: true },
      cookie: admin,
      headers: same,
    });
    try {
      expect((await accept(tokenOf(res.json.link), "careful's long password")).status).toBe(200);
      const session = await signIn("careful", "careful's long password");
      expect(session.json).toMatchObject({ success: true, next: "setup" });
    } finally {
      await stepUp();
      await call(securitySettings, "/api/admin/security-settings", {
        method: "PUT",
        body: { requireSecondFactor: false },
        cookie: admin,
        headers: same,
      });
    }
  });
});

describe("with mail configured (SMTP_URL)", () => {
  const smtp = new TestMailServer();
  beforeAll(async () => {
    await smtp.start();
    process.env.SMTP_URL = smtp.url;
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    await smtp.stop();
  });

  test("the link goes to the invitee's address in the chosen language, never into the answer", async () => {
    const missing = await invite({ username: "nomail", role: "editor" });
    expect(missing.status).toBe(400);
    expect(missing.json.errors.email).toBeDefined();

    const res = await invite({ username: "dariush", role: "editor", email: "dariush@example.com", language: "fa" });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toEqual({
      user: { id: expect.any(Number), username: "dariush", role: "editor" },
      emailed: true,
      expiresAt: expect.any(String),
    });
    await vi.waitFor(() => expect(smtp.messages.length).toBe(1), { timeout: 10_000 });
    const [mail] = smtp.messages;
    expect(mail.envelope.to).toEqual(["dariush@example.com"]);
    expect(mail.parsed.subject).toBe(fa.mail.invitation.subject);
    expect(mail.parsed.html).toContain('dir="rtl"');
    const link = /https?:\/\/\S+\/admin\/invitation\?lang=fa#[A-Za-z0-9_-]{43}/.exec(mail.parsed.text ?? "")![0];
    expect((await accept(tokenOf(link), "dariush's long password")).status).toBe(200);
    expect((await signIn("dariush", "dariush's long password")).status).toBe(200);
    // The address is the account's notice address from now on.
    const row = await sql<{ email: string }>`SELECT email FROM users WHERE username = 'dariush'`.execute(t.db);
    expect(row.rows[0].email).toBe("dariush@example.com");
  });
});
