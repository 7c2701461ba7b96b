/**
 * Every answer of every HTTP function carries the API's security headers (Netlify applies
 * netlify.toml's headers to files only): whatever functions exist, on each of their paths, for a
 * success, a refusal, a wrong method and a malformed body alike.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadFunctions } from "#scripts/runtime/functions-router.mjs";
import { API_SECURITY_HEADERS, withSecurityHeaders } from "../_lib/http/http.ts";
import { call, ORIGIN, setupApiDatabase } from "./harness.ts";

let db: Awaited<ReturnType<typeof setupApiDatabase>>;
let functions: Awaited<ReturnType<typeof loadFunctions>>["functions"];
beforeAll(async () => {
  db = await setupApiDatabase();
  ({ functions } = await loadFunctions(process.cwd()));
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});

describe("security headers on every function response", () => {
  test("there are HTTP functions to check", () => {
    expect(functions.length).toBeGreaterThan(3);
  });

  test("each function's paths answer GET, POST with a malformed body, and DELETE with every header", async () => {
    const checked: string[] = [];
    for (const entry of functions) {
      const { config } = (await import(entry.file)) as { config: { path: string | string[] } };
      const paths = [config.path].flat().map((p) => p.replace(/:[A-Za-z]+/g, "1").replace(/\*/g, "x"));
      for (const path of paths) {
        const requests = [
          { method: "GET" },
          { method: "POST", raw: "{not json", headers: { "content-type": "application/json", origin: ORIGIN } },
          { method: "DELETE" },
        ];
        for (const request of requests) {
          const res = await call(entry.handler, path, request);
          for (const [name, value] of Object.entries(API_SECURITY_HEADERS))
            expect(res.headers.get(name), `${request.method} ${path} (${entry.name}, ${res.status}): ${name}`).toBe(
              value,
            );
          checked.push(`${request.method} ${path} ${res.status}`);
        }
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(functions.length * 3);
  });

  test("a JSON answer is never sniffed, framed or stored: nosniff, no-store and a CSP that allows nothing", async () => {
    const contact = functions.find((f) => f.name === "contact")!;
    const res = await call(contact.handler, "/api/contact", {
      body: { firstName: "Sara" },
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; frame-ancestors 'none'/);
  });

  test("a function's own header is kept; an answer with immutable headers (a redirect) gets them too", async () => {
    const own = withSecurityHeaders(new Response("x", { headers: { "Cache-Control": "private, max-age=60" } }));
    expect(own.headers.get("cache-control")).toBe("private, max-age=60");
    expect(own.headers.get("x-frame-options")).toBe("DENY");
    expect(await own.text()).toBe("x");

    const redirect = withSecurityHeaders(Response.redirect("https://example.com/next", 303));
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("location")).toBe("https://example.com/next");
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(redirect.headers.get(name)).toBe(value);
  });
});
