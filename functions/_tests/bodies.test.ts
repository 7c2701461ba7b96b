import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bookingAsBefore } from "#db/testing.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";
import contact from "../contact.ts";
import meetings from "../meetings.ts";
import login from "../login.ts";
import newsletter from "../newsletter.ts";
import enquiries from "../admin-submissions.ts";
import adminMeetings from "../admin-meetings.ts";
import { ensureAdmin } from "#db/admins.ts";

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let cookie = "";
beforeAll(async () => {
  t = await setupApiDatabase();
  await bookingAsBefore(t.db);
  await ensureAdmin(t.db, "admin", "a long enough password");
  const res = await call(login, "/api/login", { body: { username: "admin", password: "a long enough password" } });
  cookie = res.headers.get("set-cookie")!.split(";")[0];
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

// Every endpoint that takes a body, with what it needs to get as far as reading it.
const endpoints = [
  { name: "POST /api/contact", handler: contact, path: "/api/contact", method: "POST" },
  { name: "POST /api/meetings/schedule", handler: meetings, path: "/api/meetings/schedule", method: "POST" },
  { name: "POST /api/login", handler: login, path: "/api/login", method: "POST" },
  { name: "POST /api/newsletter", handler: newsletter, path: "/api/newsletter", method: "POST" },
  {
    name: "PATCH /api/admin/submissions/1",
    handler: enquiries,
    path: "/api/admin/submissions/1",
    method: "PATCH",
    admin: true,
  },
  {
    name: "PATCH /api/admin/meetings/1",
    handler: adminMeetings,
    path: "/api/admin/meetings/1",
    method: "PATCH",
    admin: true,
  },
] as const;

describe.each(endpoints)("$name refuses bad bodies clearly", (endpoint) => {
  const send = (raw: string, contentType = "application/json") =>
    call(endpoint.handler, endpoint.path, {
      method: endpoint.method,
      raw,
      headers: { "content-type": contentType, origin: ORIGIN },
      params: { id: "1" },
      cookie: "admin" in endpoint ? cookie : undefined,
      ip: `198.51.100.${Math.floor(Math.random() * 200)}`,
    });

  test("malformed JSON → 400", async () => {
    const res = await send('{"email": "a@b.c",');
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, message: "Malformed JSON in request body" });
  });
  test("over 32 KB → 413", async () => {
    expect((await send(JSON.stringify({ email: "x".repeat(40_000) }))).status).toBe(413);
  });
  test("another content type → 415", async () => {
    expect((await send("email=a@b.c", "text/plain; charset=utf-8")).status).toBe(415);
  });
  test("JSON that is not an object → 400", async () => {
    for (const raw of ["null", "42", '"text"', "[1,2]"]) expect((await send(raw)).status, raw).toBe(400);
  });
  // Issue 29: 3,000 nested arrays answered 500 (a recursive walk ran out of stack); at 153ec11 it was 400.
  test.each([
    ["3,000 nested arrays", "[".repeat(3000) + "]".repeat(3000)],
    ["10,000 nested arrays", "[".repeat(10_000) + "]".repeat(10_000)],
    ["3,000 nested objects", '{"a":'.repeat(3000) + "1" + "}".repeat(3000)],
    ["6,000 levels of objects and arrays", '{"":['.repeat(3000) + "]}".repeat(3000)],
    ["33 levels inside a valid field", `{"email":${"[".repeat(33)}${"]".repeat(33)}}`],
  ])("%s → 400, nested too deeply", async (_, raw) => {
    const res = await send(raw);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ success: false, message: "Request body is nested too deeply (32 levels at most)" });
  });
  test("a duplicate key → 400 naming it, whichever copy would have won", async () => {
    for (const raw of ['{"email":"a@b.c","email":"d@e.f"}', '{"x":{"k":1,"k":2}}', '{"a":"1","\\u0061":"2"}']) {
      const res = await send(raw);
      expect(res.status, raw).toBe(400);
      expect((res.json as { message: string }).message, raw).toMatch(/^Duplicate key "(email|k|a)" in request body$/);
    }
  });
  test("prototype-polluting keys do nothing", async () => {
    const res = await send('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}');
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});

describe("a NUL character (U+0000) in any text field is 400, never a 500", () => {
  const valid = [
    {
      handler: contact,
      path: "/api/contact",
      body: {
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
        company: "Engines",
        service: "startup-visa",
        message: "We would like to talk about Amsterdam.",
      },
    },
    {
      handler: meetings,
      path: "/api/meetings/schedule",
      body: {
        name: "Ada Lovelace",
        email: "ada@example.com",
        phone: "+31 20 123 4567",
        date: "2026-11-27",
        time: "10:00",
      },
    },
    { handler: login, path: "/api/login", body: { username: "admin", password: "a long enough password" } },
    { handler: newsletter, path: "/api/newsletter", body: { email: "ada@example.com" } },
  ];
  for (const { handler, path, body } of valid) {
    for (const field of Object.keys(body)) {
      test(`${path}: ${field}`, async () => {
        const value = String(body[field as keyof typeof body]);
        const hostile = { ...body, [field]: `${value.slice(0, 3)}\u0000${value.slice(3)}` };
        const res = await call(handler, path, {
          body: hostile,
          headers: { origin: ORIGIN },
          ip: `198.51.100.${Math.floor(Math.random() * 200)}`,
        });
        expect(res.status).toBe(400);
        expect(res.json.success).toBe(false);
      });
    }
  }
});
