/**
 * Revocable sessions and accounts: each sign-in is a row in admin_sessions that every request reads,
 * so ending it (its owner, an admin, a password or role change) refuses its token on the next request.
 */
import { SignJWT } from "jose";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { changeRole, createUser, findUserByUsername, LastAdminError, removeUser } from "#db/users.repository.ts";
import { SESSION_COOKIE } from "../_lib/auth/auth.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import login from "../login.ts";
import user from "../user.ts";
import content from "../content.ts";
import accountSessions from "../account-sessions.ts";
import accountPassword from "../account-password.ts";
import adminSessions from "../admin-sessions.ts";
import adminUsers from "../admin-users.ts";
import accountStepUp from "../account-step-up.ts";
import adminStats from "../admin-stats.ts";
import { fixtureAdmin, fixtureHash } from "./fixture-users.ts";
import type { SessionInfo } from "#shared/api/security.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
const PASSWORD = "correct horse battery staple";
const FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

async function signIn(
  username: string,
  options: { ip?: string; ua?: string; country?: string; password?: string } = {},
) {
  const res = await call(login, "/api/login", {
    body: { username, password: options.password ?? PASSWORD },
    ip: options.ip ?? "203.0.113.7",
    country: options.country,
    headers: { "user-agent": options.ua ?? FIREFOX_MAC },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
}

const me = (cookie: string) => call(user, "/api/user", { cookie });
const mySessions = async (cookie: string) =>
  (await call(accountSessions, "/api/account/sessions", { cookie })).json.sessions;
const sessionRows = async () =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM admin_sessions`.execute(t.db)).rows[0].n;

beforeAll(async () => {
  t = await setupApiDatabase();
  await fixtureAdmin(t.db, "owner", PASSWORD);
  await createUser(t.db, "writer", await fixtureHash(PASSWORD), "editor");
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

describe("GET /api/account/sessions", () => {
  test("lists one's own sessions with device, browser and country, never the address or its network", async () => {
    const laptop = await signIn("writer", { ip: "198.51.100.23", ua: FIREFOX_MAC });
    await signIn("writer", { ip: "2001:db8:abcd:12::7", ua: SAFARI_IPHONE, country: "NL" });
    const sessions = await mySessions(laptop);
    const mine = sessions.filter((s: { username: string }) => s.username === "writer");
    expect(mine).toHaveLength(sessions.length);
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ device: "Mac", browser: "Firefox", country: "", current: true }),
        expect.objectContaining({
          device: "iPhone",
          browser: "Safari",
          country: "NL",
          current: false,
        }),
      ]),
    );
    // The network prefix stays on the server (a new network's notice compares it); the page shows the country.
    expect(JSON.stringify(sessions)).not.toMatch(/198\.51\.100|2001:db8|\/24|\/48|"place"/);
    const stored = await sql<{ place: string }>`SELECT place FROM admin_sessions`.execute(t.db);
    expect(stored.rows.map((r) => r.place).join(" ")).not.toMatch(/198\.51\.100\.23|:12::7/);
  });

  test("401 without a session; an editor sees only their own", async () => {
    expect((await call(accountSessions, "/api/account/sessions")).status).toBe(401);
    await signIn("owner");
    const writer = await signIn("writer");
    expect((await mySessions(writer)).every((s: { username: string }) => s.username === "writer")).toBe(true);
  });

  test("notes the last use at most once a minute", async () => {
    const cookie = await signIn("writer");
    const [current] = (await mySessions(cookie)).filter((s: { current: boolean }) => s.current);
    await sql`UPDATE admin_sessions SET last_seen_at = now() - interval '30 seconds' WHERE id = ${current.id}`.execute(
      t.db,
    );
    await me(cookie);
    const after30 = (
      await sql<{
        s: number;
      }>`SELECT extract(epoch FROM now() - last_seen_at)::int AS s FROM admin_sessions WHERE id = ${current.id}`.execute(
        t.db,
      )
    ).rows[0].s;
    expect(after30).toBeGreaterThanOrEqual(29);
    await sql`UPDATE admin_sessions SET last_seen_at = now() - interval '61 seconds' WHERE id = ${current.id}`.execute(
      t.db,
    );
    await me(cookie);
    const after61 = (
      await sql<{
        s: number;
      }>`SELECT extract(epoch FROM now() - last_seen_at)::int AS s FROM admin_sessions WHERE id = ${current.id}`.execute(
        t.db,
      )
    ).rows[0].s;
    expect(after61).toBeLessThan(5);
  });
});

describe("GET /api/admin/sessions", () => {
  test("an admin sees every account's sessions, their own marked current; an editor is refused", async () => {
    const admin = await signIn("owner");
    const editor = await signIn("writer", { ua: SAFARI_IPHONE, country: "NL" });
    const editorSession = (await mySessions(editor)).find((s: SessionInfo) => s.current) as SessionInfo;
    const res = await call(adminSessions, "/api/admin/sessions", { cookie: admin });
    expect(res.status).toBe(200);
    const sessions = res.json.sessions as SessionInfo[];
    expect(sessions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ username: "owner", current: true }),
        expect.objectContaining({ id: editorSession.id, username: "writer", device: "iPhone", country: "NL" }),
      ]),
    );
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(JSON.stringify(sessions)).not.toMatch(/203\.0\.113|"place"/);
    expect((await call(adminSessions, "/api/admin/sessions", { cookie: editor })).status).toBe(403);
    expect((await call(adminSessions, "/api/admin/sessions")).status).toBe(401);
  });
});

describe("ending sessions", () => {
  test("one's own other session ends and its next request is a 401; this one stays", async () => {
    const a = await signIn("writer");
    const b = await signIn("writer");
    const other = (await mySessions(a)).find((s: { current: boolean }) => !s.current);
    const res = await call(accountSessions, `/api/account/sessions/${other.id}`, {
      method: "DELETE",
      params: { id: other.id },
      cookie: a,
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    const stillB = (await me(b)).status;
    const stillA = (await me(a)).status;
    // `other` is some session of writer's; whichever it was answers 401 now.
    expect((await mySessions(a)).some((s: { id: string }) => s.id === other.id)).toBe(false);
    expect([stillA, stillB]).toContain(200);
  });

  test("an admin ends an editor's session: the editor's next request gets 401", async () => {
    const admin = await signIn("owner");
    const editor = await signIn("writer");
    const editorSession = (await mySessions(editor)).find((s: { current: boolean }) => s.current);
    expect((await call(content, "/api/content/status", { cookie: editor })).status).not.toBe(401);
    const res = await call(adminSessions, `/api/admin/sessions/${editorSession.id}`, {
      method: "DELETE",
      params: { id: editorSession.id },
      cookie: admin,
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    expect((await me(editor)).status).toBe(401);
    expect((await call(content, "/api/content/status", { cookie: editor })).status).toBe(401);
    expect((await me(admin)).status).toBe(200);
  });

  test("an editor cannot end someone else's session, through either path", async () => {
    const admin = await signIn("owner");
    const editor = await signIn("writer");
    const adminSession = (await mySessions(admin)).find((s: { current: boolean }) => s.current);
    const own = await call(accountSessions, `/api/account/sessions/${adminSession.id}`, {
      method: "DELETE",
      params: { id: adminSession.id },
      cookie: editor,
      headers: { origin: ORIGIN },
    });
    expect(own.status).toBe(404);
    const asAdmin = await call(adminSessions, `/api/admin/sessions/${adminSession.id}`, {
      method: "DELETE",
      params: { id: adminSession.id },
      cookie: editor,
      headers: { origin: ORIGIN },
    });
    expect(asAdmin.status).toBe(403);
    expect((await me(admin)).status).toBe(200);
  });

  test("a cross-site request is refused and ends nothing", async () => {
    const admin = await signIn("owner");
    const editor = await signIn("writer");
    const editorSession = (await mySessions(editor)).find((s: { current: boolean }) => s.current);
    for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }] as Record<
      string,
      string
    >[]) {
      const res = await call(adminSessions, `/api/admin/sessions/${editorSession.id}`, {
        method: "DELETE",
        params: { id: editorSession.id },
        cookie: admin,
        headers,
      });
      expect(res.status).toBe(403);
    }
    expect((await me(editor)).status).toBe(200);
  });

  test("logout ends this session only", async () => {
    const a = await signIn("writer");
    const b = await signIn("writer");
    const { default: logout } = await import("../logout.ts");
    expect((await call(logout, "/api/logout", { method: "POST", cookie: a })).status).toBe(200);
    expect((await me(a)).status).toBe(401);
    expect((await me(b)).status).toBe(200);
  });
});

describe("refused tokens", () => {
  const secret = () => new TextEncoder().encode(process.env.JWT_SECRET!);

  test("a forged session id, a token without one, an expired one and another user's id are all 401", async () => {
    const owner = (await findUserByUsername(t.db, "owner"))!;
    const writer = (await findUserByUsername(t.db, "writer"))!;
    const writerCookie = await signIn("writer");
    const writerSid = (await mySessions(writerCookie)).find((s: { current: boolean }) => s.current).id;
    const sign = (claims: Record<string, unknown>, sub: number, exp: string | number = "1h") =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(String(sub))
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(secret());
    const tokens = [
      await sign({ v: owner.sessionVersion, sid: "AAAAAAAAAAAAAAAAAAAAAA" }, owner.id),
      await sign({ v: owner.sessionVersion }, owner.id),
      await sign({ v: owner.sessionVersion, sid: { $ne: null } }, owner.id),
      await sign({ v: owner.sessionVersion, sid: "x".repeat(5000) }, owner.id),
      // The writer's live session id, claimed for the owner: the row's user must match.
      await sign({ v: owner.sessionVersion, sid: writerSid }, owner.id),
      await sign({ v: writer.sessionVersion, sid: writerSid }, writer.id, Math.floor(Date.now() / 1000) - 10),
    ];
    for (const token of tokens) expect((await me(`${SESSION_COOKIE}=${token}`)).status).toBe(401);
    expect((await me(writerCookie)).status).toBe(200);
  });

  test("a session past its expiry in the database is refused even with a valid token", async () => {
    const cookie = await signIn("writer");
    const sid = (await mySessions(cookie)).find((s: { current: boolean }) => s.current).id;
    await sql`UPDATE admin_sessions SET expires_at = now() - interval '1 second' WHERE id = ${sid}`.execute(t.db);
    expect((await me(cookie)).status).toBe(401);
  });
});

describe("hostile session requests", () => {
  test("odd ids are 404s or 405s, never a 500, and end nothing", async () => {
    const admin = await signIn("owner");
    const before = await sessionRows();
    const live = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM admin_sessions WHERE ended_at IS NULL`.execute(t.db))
        .rows[0].n;
    const liveBefore = await live();
    for (const id of ["__proto__", "constructor", "prototype", "x".repeat(10_000), "' OR 1=1 --", "%00", "1"]) {
      for (const [handler, base] of [
        [adminSessions, "/api/admin/sessions"],
        [accountSessions, "/api/account/sessions"],
      ] as const) {
        const res = await call(handler, `${base}/${encodeURIComponent(id)}`, {
          method: "DELETE",
          params: { id },
          cookie: admin,
          headers: { origin: ORIGIN },
        });
        expect(res.status, `${base} ${id.slice(0, 20)}`).toBe(404);
        expect(res.text).not.toMatch(/at .*\.ts|stack|SELECT/);
      }
    }
    expect((await call(adminSessions, "/api/admin/sessions", { method: "POST", body: {}, cookie: admin })).status).toBe(
      405,
    );
    expect(await sessionRows()).toBe(before);
    expect(await live()).toBe(liveBefore);
  });
});

describe("POST /api/account/password", () => {
  test("asks for the current password, then ends the other sessions and keeps this one", async () => {
    await fixtureAdmin(t.db, "rotor", PASSWORD);
    const here = await signIn("rotor");
    const there = await signIn("rotor", { ip: "198.51.100.50" });
    const wrong = await call(accountPassword, "/api/account/password", {
      body: { currentPassword: "not it at all", newPassword: "a brand new passphrase" },
      cookie: here,
    });
    expect(wrong.status).toBe(403);
    expect((await me(there)).status).toBe(200);
    const ok = await call(accountPassword, "/api/account/password", {
      body: { currentPassword: PASSWORD, newPassword: "a brand new passphrase" },
      cookie: here,
    });
    expect(ok.status).toBe(200);
    expect((await me(there)).status).toBe(401);
    expect((await me(here)).status).toBe(200);
    await signIn("rotor", { password: "a brand new passphrase", ip: "198.51.100.51" });
    const old = await call(login, "/api/login", {
      body: { username: "rotor", password: PASSWORD },
      ip: "198.51.100.52",
    });
    expect(old.status).toBe(401);
  });

  test("wrong current passwords are throttled like sign-ins", async () => {
    await fixtureAdmin(t.db, "guessed", PASSWORD);
    const cookie = await signIn("guessed", { ip: "192.0.2.80" });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await call(accountPassword, "/api/account/password", {
        body: { currentPassword: `wrong guess ${i}`, newPassword: "whatever it may be" },
        cookie,
        ip: "192.0.2.80",
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  test("hostile bodies are 400/413/415, nothing changes", async () => {
    await fixtureAdmin(t.db, "hostile", PASSWORD);
    const cookie = await signIn("hostile", { ip: "192.0.2.90" });
    const hash = (await findUserByUsername(t.db, "hostile"))!.password;
    let deep: unknown = PASSWORD;
    for (let i = 0; i < 2000; i++) deep = { a: deep };
    const bodies: { body?: unknown; raw?: string; headers?: Record<string, string> }[] = [
      { body: { currentPassword: PASSWORD, newPassword: "short" } },
      { body: { currentPassword: PASSWORD, newPassword: "گذرواژه".repeat(6) } },
      { body: { currentPassword: PASSWORD, newPassword: "has a\u0000null inside it" } },
      { raw: `{"__proto__":{"newPassword":"polluted password"},"currentPassword":"${PASSWORD}"}` },
      { body: { constructor: { prototype: { newPassword: "x" } }, currentPassword: PASSWORD } },
      { body: { currentPassword: deep, newPassword: "long enough password" } },
      { body: { currentPassword: PASSWORD, newPassword: "x".repeat(40_000) } },
      { raw: "{".repeat(10_000) },
      { body: [PASSWORD], headers: {} },
      { raw: "currentPassword=x", headers: { "content-type": "application/x-www-form-urlencoded" } },
    ];
    for (const { body, raw, headers } of bodies) {
      const res = await call(accountPassword, "/api/account/password", {
        method: "POST",
        body,
        raw,
        headers: { "content-type": "application/json", ...headers },
        cookie,
        ip: "192.0.2.90",
      });
      expect([400, 413, 415], JSON.stringify(res.json)?.slice(0, 80)).toContain(res.status);
      expect(res.text).not.toMatch(/at .*\.ts|stack/);
    }
    expect((await findUserByUsername(t.db, "hostile"))!.password).toBe(hash);
    expect(({} as Record<string, unknown>).newPassword).toBeUndefined();
  });
});

describe("accounts: PATCH and DELETE /api/admin/users/:id", () => {
  const patch = (cookie: string, id: number, body: unknown, headers: Record<string, string> = { origin: ORIGIN }) =>
    call(adminUsers, `/api/admin/users/${id}`, { method: "PATCH", params: { id: String(id) }, body, cookie, headers });
  const remove = (cookie: string, id: number) =>
    call(adminUsers, `/api/admin/users/${id}`, {
      method: "DELETE",
      params: { id: String(id) },
      cookie,
      headers: { origin: ORIGIN },
    });

  /** Changing a role needs a proof of the last five minutes: the password, sent to the step-up. */
  const steppedUp = async (cookie: string) => {
    const res = await call(accountStepUp, "/api/account/step-up", {
      body: { password: PASSWORD },
      cookie,
      headers: { origin: ORIGIN },
      ip: "192.0.2.200",
    });
    expect(res.status, res.text).toBe(200);
    return cookie;
  };

  test("a demoted admin's sessions end; signed in again, the editor is refused admin endpoints", async () => {
    await fixtureAdmin(t.db, "deputy", PASSWORD);
    const deputyId = (await findUserByUsername(t.db, "deputy"))!.id;
    const owner = await steppedUp(await signIn("owner"));
    const deputy = await signIn("deputy");
    expect((await call(adminStats, "/api/admin/stats", { cookie: deputy })).status).toBe(200);
    const res = await patch(owner, deputyId, { role: "editor" });
    expect(res.status).toBe(200);
    expect(res.json.user).toEqual({ id: deputyId, username: "deputy", role: "editor" });
    expect((await call(adminStats, "/api/admin/stats", { cookie: deputy })).status).toBe(401);
    const again = await signIn("deputy");
    expect((await call(adminStats, "/api/admin/stats", { cookie: again })).status).toBe(403);
    expect((await patch(owner, deputyId, { role: "admin" })).status).toBe(200);
  });

  test("the last admin can be neither demoted nor removed, even by two admins at once", async () => {
    const db = t.db;
    // Make every admin but two editors, then have each demote the other at the same moment.
    const admins = await db.selectFrom("users").select(["id", "username"]).where("role", "=", "admin").execute();
    await fixtureAdmin(db, "twin", PASSWORD);
    const owner = await steppedUp(await signIn("owner"));
    const twin = await steppedUp(await signIn("twin"));
    const ownerId = (await findUserByUsername(db, "owner"))!.id;
    const twinId = (await findUserByUsername(db, "twin"))!.id;
    for (const a of admins)
      if (a.id !== ownerId) expect((await patch(owner, a.id, { role: "editor" })).status).toBe(200);
    // Through the API, the second is refused: 409 if it passed the session check before the first
    // committed (the lock), 401 if the first had already ended its session.
    const [x, y] = await Promise.all([
      patch(owner, twinId, { role: "editor" }),
      patch(twin, ownerId, { role: "editor" }),
    ]);
    expect([x.status, y.status].filter((s) => s === 200)).toHaveLength(1);
    expect([x.status, y.status].filter((s) => s !== 200)[0]).toBeOneOf([401, 409]);
    const left = await db.selectFrom("users").select("username").where("role", "=", "admin").execute();
    expect(left).toHaveLength(1);
    const [lastName] = left.map((r) => r.username);
    const lastCookie = lastName === "owner" ? owner : await steppedUp(await signIn(lastName));
    const lastId = lastName === "owner" ? ownerId : twinId;
    expect((await patch(lastCookie, lastId, { role: "editor" })).status).toBe(409);
    expect((await remove(lastCookie, lastId)).status).toBe(409);
    expect(await db.selectFrom("users").select("id").where("role", "=", "admin").execute()).toHaveLength(1);
    // Back as it was for the other tests.
    for (const a of [...admins, { id: twinId }, { id: ownerId }])
      await db.updateTable("users").set({ role: "admin" }).where("id", "=", a.id).execute();
  });

  test("two demotions or removals at once in the database: the lock lets exactly one through", async () => {
    const db = t.db;
    await fixtureAdmin(db, "spare-a", PASSWORD);
    await fixtureAdmin(db, "spare-b", PASSWORD);
    const admins = await db.selectFrom("users").select(["id", "username"]).where("role", "=", "admin").execute();
    const keepA = admins.find((a) => a.username === "spare-a")!.id;
    const keepB = admins.find((a) => a.username === "spare-b")!.id;
    const rest = admins.filter((a) => a.id !== keepA && a.id !== keepB).map((a) => a.id);
    await db.updateTable("users").set({ role: "editor" }).where("id", "in", rest).execute();
    for (let round = 0; round < 5; round++) {
      const results = await Promise.allSettled([changeRole(db, keepA, "editor"), changeRole(db, keepB, "editor")]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(LastAdminError);
      await db.updateTable("users").set({ role: "admin" }).where("id", "in", [keepA, keepB]).execute();
    }
    const removals = await Promise.allSettled([removeUser(db, keepA), removeUser(db, keepB)]);
    expect(removals.filter((r) => r.status === "fulfilled" && r.value)).toHaveLength(1);
    expect((removals.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(
      LastAdminError,
    );
    await db.updateTable("users").set({ role: "admin" }).where("id", "in", rest).execute();
  });

  test("an admin removes an account: its sessions go with it", async () => {
    await createUser(t.db, "leaver", await fixtureHash(PASSWORD), "editor");
    const leaverId = (await findUserByUsername(t.db, "leaver"))!.id;
    const leaver = await signIn("leaver");
    const owner = await signIn("owner");
    expect((await remove(owner, leaverId)).status).toBe(200);
    expect((await me(leaver)).status).toBe(401);
    expect(await findUserByUsername(t.db, "leaver")).toBeUndefined();
    expect((await remove(owner, leaverId)).status).toBe(404);
  });

  test("hostile: odd ids, bodies and origins are refused without a 500, and nothing changes", async () => {
    const owner = await signIn("owner");
    const writerId = (await findUserByUsername(t.db, "writer"))!.id;
    for (const id of ["__proto__", "constructor", "0x1", "-1", "99999999999", "1e3", "x".repeat(5000)]) {
      const res = await call(adminUsers, `/api/admin/users/${encodeURIComponent(id)}`, {
        method: "PATCH",
        params: { id },
        body: { role: "editor" },
        cookie: owner,
        headers: { origin: ORIGIN },
      });
      expect(res.status, id.slice(0, 20)).toBe(404);
    }
    for (const body of [
      { role: "owner" },
      { role: "__proto__" },
      { role: ["admin"] },
      { ["__proto__"]: { role: "admin" } },
      JSON.parse('{"__proto__":{"role":"admin"}}'),
      { role: "admin".repeat(10_000) },
    ])
      expect((await patch(owner, writerId, body)).status).toBeOneOf([400, 413]);
    expect((await patch(owner, writerId, { role: "admin" }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await findUserByUsername(t.db, "writer"))!.role).toBe("editor");
  });
});
