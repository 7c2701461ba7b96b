/**
 * PATCH /api/user: each person's admin panel language, remembered on their account. Only the
 * signed-in person's own, only one of the site's languages (or null), and nothing stored on a
 * refused request.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureAdmin, hashPassword } from "#db/admins.ts";
import { createUser, findUserByUsername } from "#db/users.repository.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import login from "../login.ts";
import user from "../user.ts";

const PASSWORD = "correct horse battery staple";
let t: Awaited<ReturnType<typeof setupApiDatabase>>;

async function signIn(username: string) {
  const res = await call(login, "/api/login", { body: { username, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0];
}
const patch = (
  cookie: string | undefined,
  body: unknown,
  extra: { raw?: string; headers?: Record<string, string> } = {},
) =>
  call(user, "/api/user", {
    method: "PATCH",
    ...(extra.raw === undefined ? { body } : { raw: extra.raw }),
    headers: { origin: ORIGIN, "content-type": "application/json", ...extra.headers },
    ...(cookie && { cookie }),
  });
const stored = async (username: string) => (await findUserByUsername(t.db, username))?.panelLanguage;

beforeAll(async () => {
  t = await setupApiDatabase();
  await ensureAdmin(t.db, "admin", PASSWORD);
  await createUser(t.db, "writer", await hashPassword(PASSWORD), "editor");
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

describe("PATCH /api/user", () => {
  test("remembers the person's panel language, which GET /api/user then answers; null forgets it", async () => {
    const cookie = await signIn("writer");
    expect((await call(user, "/api/user", { cookie })).json.user.language).toBeNull();
    const res = await patch(cookie, { language: "fa" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      user: { id: expect.any(Number), username: "writer", role: "editor", language: "fa" },
    });
    expect((await call(user, "/api/user", { cookie })).json.user.language).toBe("fa");
    expect(await stored("admin")).toBeNull(); // only the person's own account
    expect((await patch(cookie, { language: null })).status).toBe(200);
    expect(await stored("writer")).toBeNull();
  });

  test("answers 401 without a session and stores nothing", async () => {
    const res = await patch(undefined, { language: "nl" });
    expect(res.status).toBe(401);
    expect(await stored("writer")).toBeNull();
    expect(await stored("admin")).toBeNull();
  });

  test("refuses another site's page (403)", async () => {
    const cookie = await signIn("admin");
    const res = await patch(cookie, { language: "nl" }, { headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(await stored("admin")).toBeNull();
  });

  const hostile: [string, unknown][] = [
    ["an unknown language", { language: "de" }],
    ["a language in capitals", { language: "FA" }],
    ["a number", { language: 1 }],
    ["an array", { language: ["fa"] }],
    ["an object", { language: { code: "fa" } }],
    ["a missing field", {}],
    ["an extra field", { language: "fa", role: "admin" }],
    ["__proto__", JSON.parse('{"__proto__": {"language": "fa"}}')],
    ["constructor", { constructor: { prototype: { language: "fa" } } }],
    ["prototype", { prototype: "fa", language: "xx" }],
    ["a control character", { language: "f\u0000a" }],
    ["a string of 40,000 characters", { language: "f".repeat(40_000) }],
    ["not an object", "fa"],
    ["null", null],
  ];
  test.each(hostile)("answers 400 (or 413) to %s, never a 500, and stores nothing", async (_, body) => {
    const cookie = await signIn("admin");
    const res = await patch(cookie, body);
    expect([400, 413]).toContain(res.status);
    expect(res.json.success).toBe(false);
    expect(JSON.stringify(res.json)).not.toMatch(/at \w+ \(|node_modules|SELECT|UPDATE/);
    expect(await stored("admin")).toBeNull();
  });

  test("answers 400 to deep nesting and malformed JSON, and 415 to another content type", async () => {
    const cookie = await signIn("admin");
    const deep = `${'{"language":'.repeat(2000)}"fa"${"}".repeat(2000)}`;
    expect((await patch(cookie, null, { raw: deep })).status).toBe(400);
    expect((await patch(cookie, null, { raw: '{"language": "fa"' })).status).toBe(400);
    const text = await patch(cookie, null, { raw: "language=fa", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    expect(await stored("admin")).toBeNull();
  });
});
