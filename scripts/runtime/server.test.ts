import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import http from "node:http";
import { API_SECURITY_HEADERS } from "#functions/_lib/http/http.ts";
import type { Context } from "@netlify/functions";
import detectLanguage from "#functions/detect-language.ts";
import { createContext } from "./functions-router.mjs";
import { StaticFiles, startServer } from "./server.mjs";

// The local server with the project's netlify.toml and functions, serving a small stand-in for dist/.
let publishDir: string;
let server: Awaited<ReturnType<typeof startServer>>;
const page = (title: string) => `<!doctype html><title>${title}</title>${"<p>text</p>".repeat(100)}`;

beforeAll(async () => {
  publishDir = mkdtempSync(path.join(tmpdir(), "server-test-"));
  const files: Record<string, string> = {
    "index.html": page("Home"),
    "404.html": page("404 Page Not Found"),
    "en/index.html": page("English"),
    "nl/404/index.html": page("Dutch 404"),
    "nl/startup-visa/index.html": page("Startvisum"),
    "_astro/app.js": "console.log('x');".repeat(100),
  };
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(publishDir, name)), { recursive: true });
    writeFileSync(path.join(publishDir, name), body);
  }
  server = await startServer({ port: 0, publishDir, log: { error: () => {} } });
});
afterAll(async () => {
  await server?.close();
  rmSync(publishDir, { recursive: true, force: true });
});

const get = (pathname: string, headers: Record<string, string> = {}) =>
  fetch(server.url + pathname, { headers, redirect: "manual" });

describe("static files, as Netlify serves them", () => {
  test("a folder's page answers with and without the slash, with netlify.toml's headers", async () => {
    for (const pathname of ["/nl/startup-visa/", "/nl/startup-visa"]) {
      const res = await get(pathname);
      expect(res.status, pathname).toBe(200);
      expect(await res.text()).toContain("<title>Startvisum</title>");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("unknown paths: the language's 404 page under /nl/, else /404.html, with status 404", async () => {
    const dutch = await get("/nl/does-not-exist");
    expect(dutch.status).toBe(404);
    expect(await dutch.text()).toContain("Dutch 404");
    const other = await get("/nowhere");
    expect(other.status).toBe(404);
    expect(await other.text()).toContain("404 Page Not Found");
    expect((await get("/..%2f..%2fetc/passwd")).status).toBe(404);
    expect((await get("/%E0%A4%A")).status).toBe(400);
  });

  test("compressed for clients that accept it; hashed assets cached for a year; ETags answer 304", async () => {
    // fetch() decodes the body itself: the header says it came compressed.
    const res = await get("/_astro/app.js", { "accept-encoding": "br" });
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await res.text()).toContain("console.log");
    expect((await get("/_astro/app.js", { "accept-encoding": "gzip" })).headers.get("content-encoding")).toBe("gzip");
    const etag = (await get("/en/")).headers.get("etag")!;
    expect((await get("/en/", { "if-none-match": etag })).status).toBe(304);
  });
});

describe("functions", () => {
  test("an /api path no function serves is a JSON 404", async () => {
    const res = await get("/api/nothing-here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, message: "Not found" });
  });

  test("a method a path does not serve is 405 with Allow", async () => {
    const res = await fetch(server.url + "/api/detect-language", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });

  test("functions answer with their own headers, not the static ones, as on Netlify", async () => {
    const res = await get("/api/detect-language", { "accept-language": "nl-NL,nl;q=0.9" });
    expect(await res.json()).toEqual({ language: "nl" });
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; frame-ancestors 'none'/);
    expect(res.headers.get("permissions-policy")).toBeNull();
  });
  test("a JSON answer written straight to the socket is what Netlify sends for the function's Response", async () => {
    const headers = { "accept-language": "fa-IR,fa;q=0.9" };
    const url = server.url + "/api/detect-language";
    const request = new Request(url, { headers });
    // As npm start calls it: the Context Netlify would pass, with what our functions read of it.
    const context = (req: Request) =>
      createContext({ req, ip: "127.0.0.1", params: {}, waitUntil: () => {} }) as unknown as Context;
    const netlify = await detectLanguage(request, context(request));
    const local = await get("/api/detect-language", headers);
    const head = await fetch(url, { method: "HEAD", headers });
    const comparable = (res: Response) =>
      [...res.headers].filter(([name]) => !["date", "connection", "keep-alive", "content-length"].includes(name));
    expect(local.status).toBe(netlify.status);
    expect(comparable(local)).toEqual(comparable(netlify));
    const body = await netlify.text();
    expect(await local.text()).toBe(body);
    expect(local.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    // HEAD: what Netlify answers for it, without a body.
    const headRequest = new Request(url, { method: "HEAD", headers });
    const netlifyHead = await detectLanguage(headRequest, context(headRequest));
    expect(head.status).toBe(netlifyHead.status);
    expect(comparable(head)).toEqual(comparable(netlifyHead));
    expect(await head.text()).toBe("");
  });
});

describe("what an attacker sends to npm start", () => {
  const raw = (method: string, requestPath: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const { port } = new URL(server.url);
      const req = http.request({ host: "127.0.0.1", port, method, path: requestPath, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      });
      req.on("error", reject);
      req.end("{}");
    });

  test("POST //evil.com/api/contact with Origin http://evil.com reaches no function", async () => {
    const res = await raw("POST", "//evil.com/api/contact", {
      origin: "http://evil.com",
      "content-type": "application/json",
    });
    // 400 would mean the cross-site post passed the origin check and was validated.
    expect(res.status).toBe(404);
  });

  test("an unknown /api/ path's 404 carries every API security header", async () => {
    const res = await get("/api/nothing-here");
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(res.headers.get(name), name).toBe(value);
  });

  test("unknown paths are not kept in memory: 2,000 different 404s leave the static cache as it was", async () => {
    const files = new StaticFiles(publishDir);
    files.lookup("/en/");
    for (let i = 0; i < 2_000; i++) files.lookup(`/missing-${i}`);
    expect(files.cache.size).toBe(1);
  });

  test("a new build swapped into dist/ is served at once: the cache follows the folder, not the path", () => {
    const dist = mkdtempSync(path.join(tmpdir(), "swap-"));
    const live = path.join(dist, "dist");
    mkdirSync(live);
    writeFileSync(path.join(live, "index.html"), "old build");
    const files = new StaticFiles(live);
    expect(files.lookup("/")?.file.body.toString()).toBe("old build");
    // What scripts/build/build.mjs does: the new build is renamed into place.
    const next = path.join(dist, "next");
    mkdirSync(next);
    writeFileSync(path.join(next, "index.html"), "new build");
    renameSync(live, path.join(dist, "previous"));
    renameSync(next, live);
    expect(files.lookup("/")?.file.body.toString()).toBe("new build");
    rmSync(dist, { recursive: true, force: true });
  });
});

describe("close(), as npm start stops", () => {
  test("answers the request in flight, closes idle connections and refuses new ones", async () => {
    const stopping = await startServer({ port: 0, publishDir, log: { error: () => {} } });
    const { port } = new URL(stopping.url);
    // An idle keep-alive connection: one request answered, the socket kept.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let idleSocket: import("node:net").Socket | undefined;
    const idle = await new Promise<http.IncomingMessage>((resolve) =>
      http
        .get({ port, path: "/en/", agent }, (res) => res.resume().on("end", () => resolve(res)))
        .once("socket", (socket) => (idleSocket = socket)),
    );
    expect(idle.headers.connection).toBe("keep-alive");
    const idleClosed = new Promise((resolve) => idleSocket!.once("close", resolve));
    // A request in flight: the server has it (100 Continue) and waits for its body.
    const body = Buffer.from(JSON.stringify({ firstName: "" }));
    const req = http.request({
      port,
      path: "/api/contact",
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": body.length, expect: "100-continue" },
    });
    const answer = new Promise<http.IncomingMessage>((resolve, reject) => {
      req.once("response", resolve);
      req.once("error", reject);
    });
    await new Promise((resolve) => req.once("continue", resolve));

    let refused: Promise<string> | undefined;
    const closing = stopping.close({
      onStopListening: () => {
        refused = new Promise((resolve) => {
          const probe = http.get({ port, path: "/en/", agent: false }, () => resolve("answered"));
          probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        });
      },
    });
    req.end(body);
    const res = await answer;
    res.resume();
    expect(res.statusCode).toBe(400);
    expect(res.headers.connection).toBe("close");
    await expect(closing).resolves.toEqual({ requestsFinished: 1, connectionsCut: 0, workLeft: 0 });
    await idleClosed;
    expect(await refused).toBe("ECONNREFUSED");
    agent.destroy();
  });
});
