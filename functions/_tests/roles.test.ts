/**
 * An editor signs in as an admin does and is refused everything but the site's texts. The endpoints
 * are read from the functions/ folder, so a new one cannot be forgotten: every path under /api/admin/
 * must refuse an editor, and every other path must be one of the public endpoints named here.
 */
import { bookingAsBefore } from "#db/testing.ts";
import type { Context } from "@netlify/functions";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createUser } from "#db/users.repository.ts";
import { EDITOR_REFUSED } from "../_lib/auth/auth.ts";
import { call, functionModules, ORIGIN, setupApiDatabase } from "./harness.ts";
import login from "../login.ts";
import user from "../user.ts";
import users from "../admin-users.ts";
import invitation from "../invitation.ts";
import stepUp from "../account-step-up.ts";
import { fixtureAdmin, fixtureHash } from "./fixture-users.ts";

const METHODS = ["GET", "POST", "PATCH", "PUT", "DELETE"] as const;

/** Endpoints a visitor (or anyone signed in) may use: the forms, the booking, sign-in, the newsletter's links. */
const PUBLIC = new Set([
  "/api/contact",
  "/api/detect-language",
  "/api/views",
  "/api/form-token",
  "/api/login",
  "/api/login/second-factor",
  "/api/login/passkey/options",
  "/api/login/passkey",
  "/api/logout",
  "/api/user",
  "/api/meetings/manage",
  "/api/meetings/manage/move",
  "/api/meetings/manage/cancel",
  "/api/meetings/calendar",
  "/api/meetings/available-slots",
  "/api/meetings/schedule",
  // The team's meetings feed: public path, private address (its token is the key).
  "/api/meetings-feed/:token",
  "/api/newsletter",
  // Mailgun's route posts a lead's answer here: public path, signed body (its signature is the key).
  "/api/inbound/mailgun-mime",
  "/:lang/newsletter/confirm/",
  "/:lang/newsletter/confirm",
  "/:lang/newsletter/unsubscribe/",
  "/:lang/newsletter/unsubscribe",
  // An invitation link's page: public path, private key (the link's token).
  "/api/invitation",
  "/api/invitation/accept",
]);

/** The content editor's endpoints: outside /api/admin/ because editors use them, and closed to anyone not signed in. */
const CONTENT = new Set([
  "/api/content/texts",
  "/api/content/reviewed",
  "/api/content/status",
  "/api/content/history",
  "/api/content/undo",
  "/api/content/team",
]);

/** One's own account (sessions, password, second factors): anyone signed in, closed to anyone not. */
const ACCOUNT = new Set([
  "/api/account/sessions",
  "/api/account/sessions/:id",
  "/api/account/password",
  "/api/account/factors",
  "/api/account/factors/totp",
  "/api/account/factors/totp/confirm",
  "/api/account/factors/totp/remove",
  "/api/account/factors/recovery-codes",
  "/api/account/email",
  "/api/account/passkeys",
  "/api/account/passkeys/options",
  "/api/account/passkeys/:id",
  "/api/account/step-up",
  "/api/account/step-up/options",
]);

type Handler = (req: Request, context: Context) => Promise<Response>;
type Endpoint = { file: string; path: string; handler: Handler };

async function endpoints(): Promise<Endpoint[]> {
  const found: Endpoint[] = [];
  for (const { file, handler, config } of await functionModules()) {
    const paths = config?.path;
    if (!paths) continue; // scheduled functions have no address
    for (const p of Array.isArray(paths) ? paths : [paths]) found.push({ file, path: p, handler });
  }
  return found;
}

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let all: Endpoint[];
const PASSWORD = "correct horse battery staple";

async function signIn(username: string) {
  const res = await call(login, "/api/login", { body: { username, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
}

/** A signed-in session that has just proved again who it is (inviting needs it). */
async function steppedUp(username: string) {
  const cookie = await signIn(username);
  const res = await call(stepUp, "/api/account/step-up", {
    body: { password: PASSWORD },
    cookie,
    headers: { origin: ORIGIN },
  });
  expect(res.status).toBe(200);
  return cookie;
}

/** Opens an invitation link as its page does: the token from the fragment, the invitee's own password. */
async function accept(link: string, password: string) {
  const token = new URL(link).hash.slice(1);
  const res = await call(invitation, "/api/invitation/accept", {
    body: { token, password },
    headers: { origin: ORIGIN },
  });
  expect(res.status, res.text).toBe(200);
}

beforeAll(async () => {
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  await fixtureAdmin(t.db, "admin", PASSWORD);
  await createUser(t.db, "writer", await fixtureHash(PASSWORD), "editor");
  all = await endpoints();
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

describe("an editor's session", () => {
  test("signs in with the same login and learns its role from GET /api/user", async () => {
    const cookie = await signIn("writer");
    const res = await call(user, "/api/user", { cookie });
    expect(res.json).toEqual({
      success: true,
      user: { id: expect.any(Number), username: "writer", role: "editor", language: null },
    });
  });

  test("the content editor's and the account's endpoints answer 401 to every method without a session", async () => {
    const content = all.filter((e) => CONTENT.has(e.path) || ACCOUNT.has(e.path));
    expect(content.map((e) => e.path).sort()).toEqual([...CONTENT, ...ACCOUNT].sort());
    for (const endpoint of content)
      for (const method of METHODS) {
        const res = await call(endpoint.handler, endpoint.path.replace(":id", "x"), {
          method,
          headers: { origin: ORIGIN },
          ...(method === "GET" || method === "DELETE" ? {} : { body: {} }),
        });
        expect([401, 405], `${method} ${endpoint.path}`).toContain(res.status);
      }
  });

  test("every function path is public, the content editor's, the account's, or under /api/admin/", () => {
    expect(all.length).toBeGreaterThan(20);
    const unknown = all.filter(
      (e) => !PUBLIC.has(e.path) && !CONTENT.has(e.path) && !ACCOUNT.has(e.path) && !e.path.startsWith("/api/admin/"),
    );
    expect(unknown.map((e) => `${e.file}: ${e.path}`)).toEqual([]);
  });

  test("gets 403 from every lead, meeting, subscriber, availability and privacy endpoint, for every method", async () => {
    const editor = await signIn("writer");
    const admin = await signIn("admin");
    const refusedByEditor: string[] = [];
    const notRefused: string[] = [];
    for (const endpoint of all.filter((e) => e.path.startsWith("/api/admin/"))) {
      const url = endpoint.path.replace(/:id\b/g, "1");
      for (const method of METHODS) {
        const options = {
          method,
          headers: { origin: ORIGIN },
          params: { id: "1" },
          ...(method === "GET" || method === "DELETE" ? {} : { body: {} }),
        };
        const asAdmin = await call(endpoint.handler, url, { ...options, cookie: admin });
        if (asAdmin.status === 405) continue; // the path does not answer this method to anyone
        const asEditor = await call(endpoint.handler, url, { ...options, cookie: editor });
        if (asEditor.status === 403 && asEditor.json?.message === EDITOR_REFUSED)
          refusedByEditor.push(`${method} ${url}`);
        else notRefused.push(`${method} ${url} → ${asEditor.status} (admin: ${asAdmin.status})`);
        // The admin is let through: whatever it got, it was not the editor's refusal.
        expect(asAdmin.json?.message, `${method} ${url}`).not.toBe(EDITOR_REFUSED);
      }
    }
    expect(notRefused).toEqual([]);
    // Leads, meetings, subscribers, availability, privacy, exports, notes, stats, alerts: each answers at least one method.
    for (const part of [
      "submissions",
      "meetings",
      "newsletter",
      "availability",
      "privacy",
      "export",
      "stats",
      "alerts",
    ])
      expect(
        refusedByEditor.some((r) => r.includes(`/api/admin/${part}`)),
        part,
      ).toBe(true);
  });
});

describe("POST /api/admin/users", () => {
  test("an admin invites an editor, who sets a password through the link, signs in with it and is an editor", async () => {
    const admin = await steppedUp("admin");
    const res = await call(users, "/api/admin/users", {
      body: { username: "marketing", role: "editor" },
      cookie: admin,
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    // No SMTP_URL here: the link is in the answer, once; no password is.
    expect(res.json).toEqual({
      user: { id: expect.any(Number), username: "marketing", role: "editor" },
      emailed: false,
      link: expect.stringMatching(/\/admin\/invitation\?lang=en#[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
    });
    await accept(res.json.link, "marketing's own password");
    const signedIn = await call(login, "/api/login", {
      body: { username: "marketing", password: "marketing's own password" },
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0];
    expect((await call(user, "/api/user", { cookie })).json.user.role).toBe("editor");
    const list = await call(users, "/api/admin/users", { cookie: admin });
    expect(list.json).toContainEqual({
      id: expect.any(Number),
      username: "marketing",
      role: "editor",
      lastSignInAt: expect.any(String),
      totp: false,
      passkeys: 0,
    });
  });

  test("lists each account's last sign-in from the audit record, null before the first", async () => {
    const admin = await steppedUp("admin");
    const invited = await call(users, "/api/admin/users", {
      body: { username: "newcomer", role: "editor" },
      cookie: admin,
      headers: { origin: ORIGIN },
    });
    const listed = async () =>
      (
        (await call(users, "/api/admin/users", { cookie: admin })).json as {
          username: string;
          lastSignInAt: string | null;
        }[]
      ).find((u) => u.username === "newcomer");
    expect((await listed())?.lastSignInAt).toBeNull();
    await accept(invited.json.link, "newcomer's own password");
    const before = Date.now() - 5_000;
    const first = await call(login, "/api/login", {
      body: { username: "newcomer", password: "newcomer's own password" },
    });
    expect(first.status).toBe(200);
    const at = Date.parse((await listed())!.lastSignInAt!);
    expect(at).toBeGreaterThan(before);
    expect(at).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  test("answers 409 when the username is taken and 400 for a role that does not exist", async () => {
    const admin = await steppedUp("admin");
    const taken = await call(users, "/api/admin/users", { body: { username: "writer", role: "admin" }, cookie: admin });
    expect(taken.status).toBe(409);
    expect(taken.json).toEqual({ success: false, message: "The username writer is taken" });
    const wrong = await call(users, "/api/admin/users", { body: { username: "x", role: "owner" }, cookie: admin });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toContain("Role must be admin or editor");
  });

  test("an editor cannot invite anyone, not even another editor", async () => {
    const editor = await signIn("writer");
    const res = await call(users, "/api/admin/users", { body: { username: "friend", role: "editor" }, cookie: editor });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(EDITOR_REFUSED);
  });
});
