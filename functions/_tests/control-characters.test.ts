/**
 * Control characters are refused with a 400 on every text input of every function, before anything
 * is spent: the endpoints are found from the functions' own `config.path`, their methods from the
 * `Allow` of a 405, so a new endpoint is covered (or this test names it) without anyone listing it.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureAdmin } from "#db/admins.ts";
import { encodeCursor } from "#db/paging.ts";
import { hasControlCharacter } from "#shared/text.ts";
import { BODIES, endpoints as findEndpoints, type Endpoint } from "./endpoints.ts";
import { call, formBody, ORIGIN, setupApiDatabase } from "./harness.ts";
import login from "../login.ts";
import newsletter from "../newsletter.ts";
import contact from "../contact.ts";

/** C0 controls other than the line breaks and tab, DEL, and C1 controls: refused in every field. */
const CONTROLS = ["\u0000", "\u0001", "\u0008", "\u001b", "\u007f", "\u0085", "\u009b"];
/** Every query parameter any list, filter, link or lookup reads, and one none reads. */
const PARAMS = [
  "q",
  "cursor",
  "limit",
  "sort",
  "status",
  "service",
  "language",
  "from",
  "to",
  "when",
  "date",
  "token",
  "lang",
  "anything",
];

let t: Awaited<ReturnType<typeof setupApiDatabase>>;
let cookie = "";
/** A fresh session (POST /api/logout, walked below, ends the one before). */
const signIn = async () => {
  const res = await call(login, "/api/login", { body: { username: "admin", password: "a long enough password" } });
  cookie = res.headers.get("set-cookie")!.split(";")[0];
};
let endpoints: Endpoint[] = [];

beforeAll(async () => {
  t = await setupApiDatabase();
  await ensureAdmin(t.db, "admin", "a long enough password");
  await signIn();
  endpoints = await findEndpoints(cookie);
}, 60_000);
afterAll(async () => {
  await t?.destroy();
});

/** What a refusal must not have spent: rate counters (form tokens, limits, the breaker) and login attempts. */
const spent = async () => {
  const counters = await sql<{ key: string; hits: number }>`SELECT key, hits FROM rate_counters ORDER BY key`.execute(
    t.db,
  );
  const attempts = await sql<{ n: string }>`SELECT count(*) AS n FROM login_attempts`.execute(t.db);
  return { counters: counters.rows, attempts: attempts.rows[0].n };
};

/** Each string in `value` (nested too), as the path to it. */
function stringPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...at, i]));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
  return [];
}
function withValue(value: unknown, at: (string | number)[], make: (old: string) => string): unknown {
  if (at.length === 0) return make(value as string);
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[at[0]] = withValue(copy[at[0]], at.slice(1), make);
  return copy;
}

describe("control characters on every endpoint", () => {
  test("the endpoints are found from config.path (at least the public forms, login and the admin lists)", () => {
    const keys = endpoints.map((e) => e.key);
    for (const key of ["POST /api/contact", "POST /api/newsletter", "POST /api/login", "GET /api/admin/submissions"])
      expect(keys).toContain(key);
    expect(endpoints.length).toBeGreaterThan(30);
  });

  test("every endpoint that reads a body is covered by a valid body here", () => {
    const missing = endpoints
      .filter((e) => ["POST", "PUT", "PATCH"].includes(e.method))
      .map((e) => e.key)
      .filter((key) => !(key in BODIES));
    expect(missing).toEqual([]);
  });

  test("a control character in any query parameter of any endpoint is 400, before anything is spent", async () => {
    const before = await spent();
    const failures: string[] = [];
    for (const { path: p, method, handler } of endpoints) {
      for (const param of PARAMS) {
        for (const c of CONTROLS) {
          const res = await call(handler, `${p}?${param}=${encodeURIComponent(`ab${c}cd`)}`, {
            method,
            cookie,
            headers: { origin: ORIGIN },
          });
          if (res.status !== 400 || res.json?.success !== false)
            failures.push(`${method} ${p}?${param}=…U+${c.charCodeAt(0).toString(16)}: ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await spent()).toEqual(before);
  });

  test("a control character in any string field of any body is 400 naming the field, before anything is spent", async () => {
    const before = await spent();
    const failures: string[] = [];
    for (const { key, path: p, method, handler } of endpoints) {
      const body = BODIES[key];
      if (!body) continue;
      for (const at of stringPaths(body)) {
        for (const c of CONTROLS) {
          const hostile = withValue(body, at, (old) => `${old.slice(0, 2)}${c}${old.slice(2)}`);
          const res = await call(handler, p, {
            method,
            body: hostile,
            cookie,
            headers: { origin: ORIGIN, authorization: "Bearer x" },
            ip: "198.51.100.77",
          });
          const named = res.json?.errors && String(at[0]) in res.json.errors;
          if (res.status !== 400 || !named)
            failures.push(`${key} ${at.join(".")} U+${c.charCodeAt(0).toString(16)}: ${res.status} ${res.text}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await spent()).toEqual(before);
  });

  test("endpoints that read no body never answer 500 to one full of control characters", async () => {
    for (const { key, path: p, method, handler } of endpoints) {
      if (!(key in BODIES) || BODIES[key] !== null) continue;
      const res = await call(handler, p, { method, body: { x: "\u0000\u0001" }, cookie, headers: { origin: ORIGIN } });
      expect(res.status, key).toBeLessThan(500);
    }
  });

  test("a malformed cursor (a NUL, a date that is none, a number too big) is 400 on every admin list, never 500", async () => {
    await signIn();
    const lists = endpoints.filter((e) => e.method === "GET" && /\/api\/admin\/(submissions|meetings)$/.test(e.path));
    expect(lists.length).toBe(2);
    const byCreated = [
      encodeCursor("newest", ["2026-11-25T00:00:00.000Z\u0000", 1]),
      encodeCursor("newest", ["not a time", 1]),
      encodeCursor("newest", ["2026-13-45T99:00:00.000Z", 1]),
      encodeCursor("newest", ["2026-11-25T00:00:00.000Z", 2 ** 40]),
      encodeCursor("newest", [1, "2026-11-25T00:00:00.000Z"]),
    ];
    const bySlot = [
      encodeCursor("soonest", ["2026-02-30", "10:00", 1]),
      encodeCursor("soonest", ["2026-11-27", "25:99", 1]),
      encodeCursor("soonest", ["2026-11-27\u0000", "10:00", 1]),
    ];
    const asked = lists.flatMap(({ path: p, handler }) => [
      ...byCreated.map((cursor) => ({ url: `${p}?cursor=${cursor}`, handler })),
      ...(p.endsWith("meetings")
        ? bySlot.map((cursor) => ({ url: `${p}?sort=soonest&cursor=${cursor}`, handler }))
        : []),
    ]);
    for (const { url, handler } of asked) {
      const res = await call(handler, url, { cookie });
      expect(res.status, `${url} ${Buffer.from(url.split("cursor=")[1], "base64url").toString()}`).toBe(400);
    }
  });
});

describe("a refused public body spends no form token", () => {
  test("POST /api/newsletter: a NUL in page is 400; the same token then signs up", async () => {
    const fields = formBody({ email: "nul.page@example.com", language: "en", page: "/en/" });
    const refused = await call(newsletter, "/api/newsletter", {
      body: { ...fields, page: "/en/\u0000" },
      headers: { origin: ORIGIN },
      ip: "198.51.100.31",
    });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toHaveProperty("page");
    const accepted = await call(newsletter, "/api/newsletter", {
      body: fields,
      headers: { origin: ORIGIN },
      ip: "198.51.100.31",
    });
    expect(accepted.status).toBe(202);
  });

  test("POST /api/contact: an escape character in the message is 400; the same token then sends", async () => {
    const fields = formBody({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada.token@example.com",
      service: "startup-visa",
      message: "We would like to talk about Amsterdam.",
    });
    const refused = await call(contact, "/api/contact", {
      body: { ...fields, message: "We would \u001b[31mlike to talk" },
      headers: { origin: ORIGIN },
      ip: "198.51.100.32",
    });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toHaveProperty("message");
    const accepted = await call(contact, "/api/contact", {
      body: fields,
      headers: { origin: ORIGIN },
      ip: "198.51.100.32",
    });
    expect(accepted.status).toBe(201);
  });

  test("the plain (no-JavaScript) newsletter form with a NUL in page stores nothing and answers a result page", async () => {
    const form = new URLSearchParams({ email: "plain.nul@example.com", lang: "en", page: "/en/\u0000" });
    const res = await call(newsletter, "/api/newsletter", {
      raw: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    });
    expect(res.status).toBe(303);
    const rows = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM newsletter_subscribers WHERE email = 'plain.nul@example.com'`.execute(t.db);
    expect(rows.rows[0].n).toBe("0");
  });
});

describe("the no-JavaScript form posts", () => {
  test("a control character in any field of a plain contact or newsletter post lands on a result page, never a 500, storing nothing", async () => {
    const forms = [
      {
        handler: contact,
        path: "/api/contact",
        fields: BODIES["POST /api/contact"]!,
        rows: () => t.db.selectFrom("enquiries").selectAll().execute(),
      },
      {
        handler: newsletter,
        path: "/api/newsletter",
        fields: BODIES["POST /api/newsletter"]!,
        rows: () => t.db.selectFrom("newsletterSubscribers").selectAll().execute(),
      },
    ];
    for (const { handler, path: p, fields, rows } of forms) {
      const before = (await rows()).length;
      const form = {
        ...(fields as Record<string, string>),
        lang: "nl",
        formToken: formBody({}).formToken,
        website: "",
      };
      for (const field of Object.keys(form)) {
        for (const c of ["\u0000", "\u001b", "\u0085"]) {
          const res = await call(handler, p, {
            raw: new URLSearchParams({ ...form, [field]: `${form[field as keyof typeof form]}${c}x` }).toString(),
            headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
            ip: "198.51.100.90",
          });
          expect([200, 303, 400], `${p} ${field} U+${c.charCodeAt(0).toString(16)}`).toContain(res.status);
        }
      }
      // Only a post whose control character was in `lang` (which is read, never stored: it falls back to
      // English) may have gone through, once (the others reuse its token); nothing stored holds a control.
      const stored = await rows();
      expect(stored.length - before, p).toBeLessThanOrEqual(1);
      for (const row of stored)
        for (const value of Object.values(row))
          if (typeof value === "string") expect(hasControlCharacter(value), `${p}: ${value}`).toBe(false);
    }
  });
});

describe("which characters a field may keep", () => {
  test("line breaks and tabs stay in an enquiry's message and a note; a single-line field refuses them", async () => {
    const base = {
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada.lines@example.com",
      service: "startup-visa",
      message: "Line one,\r\nline two\tand a tab.",
    };
    expect(
      (await call(contact, "/api/contact", { body: base, headers: { origin: ORIGIN }, ip: "198.51.100.33" })).status,
    ).toBe(201);
    for (const field of ["firstName", "lastName"] as const) {
      const res = await call(contact, "/api/contact", {
        body: { ...base, [field]: "Ada\nBcc: x@example.com" },
        headers: { origin: ORIGIN },
        ip: "198.51.100.34",
      });
      expect(res.status, field).toBe(400);
      expect(res.json.errors, field).toHaveProperty(field);
    }
  });
});
