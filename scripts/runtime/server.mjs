// The local web server of `npm start`, the browser tests and the benchmarks: the built site from
// dist/ with netlify.toml's headers and redirects applied as Netlify's CDN applies them, and the
// functions in functions/ called in this process (scripts/runtime/functions-router.mjs). One process,
// one database pool, nothing started or rebuilt per request.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { parse as parseToml } from "smol-toml";
import { API_SECURITY_HEADERS } from "#functions/_lib/http/http.ts";
import { createContext, loadFunctions } from "./functions-router.mjs";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
};
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json|xml)|image\/svg)/;
/** The content type the server sends a file with, by its extension. */
export const typeOf = (file) => TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
/** Whether a file is sent compressed to a client that accepts it: text of more than 512 bytes. */
export const isCompressible = (type, bytes) => COMPRESSIBLE.test(type) && bytes > 512;
/**
 * How hard each file is compressed: once per build, on its first request, on the event loop (every
 * other request waits meanwhile). Level 6 of each, not brotli's highest (11), which held the server
 * up to 0.8 s for one admin page, for about a tenth more bytes. On Netlify the CDN compresses and
 * this server is not involved. `npm run bench:compression` measures every file; docs/benchmarks.md
 * ("Static files compressed") has the figures.
 */
export const COMPRESSION = { brotliQuality: 6, gzipLevel: 6 };
/** Netlify's default for files no header rule caches: always revalidate. */
const DEFAULT_CACHE = "public, max-age=0, must-revalidate";

/** netlify.toml's `[[headers]]` and `[[redirects]]`, as matchers. */
export function readNetlifyRules(root) {
  const config = parseToml(readFileSync(path.join(root, "netlify.toml"), "utf8"));
  const glob = (pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`, "s");
  return {
    headers: (config.headers ?? []).map((rule) => ({ test: glob(rule.for), values: rule.values ?? {} })),
    redirects: (config.redirects ?? []).map((rule) => {
      const splat = rule.from.endsWith("/*");
      const prefix = splat ? rule.from.slice(0, -1) : rule.from;
      return {
        status: rule.status ?? 301,
        force: Boolean(rule.force),
        /** The target for `pathname`, or null when the rule does not apply. */
        target(pathname) {
          if (splat ? !pathname.startsWith(prefix) : pathname !== rule.from) return null;
          return rule.to.replace(":splat", splat ? pathname.slice(prefix.length) : "");
        },
      };
    }),
  };
}

/** Where a response keeps its connection's entry (startServer's bookkeeping). */
const CONNECTION = Symbol("connection");

/** How long close() lets the requests in flight run before it closes their connections. */
export const DRAIN_MS = 6_000;
/** How long close() then waits for the work handed to waitUntil (sending emails) before it returns. */
export const AFTER_WORK_MS = 2_000;
/** How long close() keeps taking the connections already waiting in the listener's backlog. */
const BACKLOG_MIN_MS = 100;
const BACKLOG_MS = 300;
/** How long a connection accepted just before close() has to send its request. */
const FIRST_REQUEST_MS = 1_000;

/**
 * Starts the server on `port` (0 picks a free one). Resolves to { url, close, functions }.
 * `close()` takes what waits in the listener's backlog, stops accepting connections (then calls
 * `onStopListening`), lets the requests in flight finish (each answered with `Connection: close`),
 * closes idle keep-alive connections, and waits for the work functions handed to waitUntil; each
 * wait is bounded (BACKLOG_MS, DRAIN_MS, AFTER_WORK_MS), so it returns in under 10 s.
 * Resolves to { requestsFinished (answered after close() was called), connectionsCut, workLeft }.
 * @param {{ port?: number, host?: string, root?: string, publishDir?: string, log?: { error?: (...args: unknown[]) => void } }} [options]
 */
export async function startServer({
  port = 8888,
  host = "127.0.0.1",
  root = process.cwd(),
  publishDir = path.join(root, "dist"),
  log = console,
} = {}) {
  const router = await loadFunctions(root);
  const rules = readNetlifyRules(root);
  const files = new StaticFiles(publishDir);
  const pending = new Set();
  const waitUntil = (promise) => {
    const tracked = Promise.resolve(promise).catch(() => {});
    pending.add(tracked);
    tracked.finally(() => pending.delete(tracked));
  };

  // Each connection and its responses not yet closed, so close() can tell a connection
  // that is idle (closed at once) from one with a request in flight (closed after its answer).
  const connections = new Map();
  let closing = false;
  let answeredWhileClosing = 0;
  // One listener for every response (no closure made per request): `this` is the response.
  function responseClosed() {
    const connection = this[CONNECTION];
    if (closing && this.writableFinished) answeredWhileClosing++;
    connection.responses.delete(this);
    if (closing && connection.responses.size === 0) connection.socket.end();
  }
  const server = http.createServer(async (req, res) => {
    const connection = connections.get(req.socket);
    if (connection) {
      connection.served = true;
      connection.responses.add(res);
      res[CONNECTION] = connection;
      res.on("close", responseClosed);
    }
    if (closing) res.setHeader("connection", "close");
    try {
      const url = requestUrl(req);
      const match = router.route(url.pathname, req.method);
      if (match) return await callFunction(match, req, res, url, waitUntil);
      if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
        return send(res, req, jsonResponse(404, { success: false, message: "Not found" }));
      }
      return send(res, req, serveStatic(files, rules, url, req));
    } catch (error) {
      log.error?.(`[server] ${req.method} ${req.url} failed:`, error);
      if (!res.headersSent) send(res, req, jsonResponse(500, { success: false, message: "Internal server error" }));
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 65_000;
  let accepted = 0;
  server.on("connection", (socket) => {
    accepted++;
    connections.set(socket, { socket, served: false, responses: new Set() });
    socket.once("close", () => connections.delete(socket));
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const url = `http://${host === "127.0.0.1" || host === "0.0.0.0" ? "localhost" : host}:${address.port}`;
  return {
    url,
    functions: router.functions,
    /** @param {{ drainMs?: number, afterWorkMs?: number, onStopListening?: () => void }} [options] */
    async close({ drainMs = DRAIN_MS, afterWorkMs = AFTER_WORK_MS, onStopListening } = {}) {
      closing = true;
      // Connections the system has already completed for us wait in the listener's backlog: take
      // them (for BACKLOG_MIN_MS, then until a turn of the event loop brings none, BACKLOG_MS at
      // most), so a client that connected as the signal came is answered rather than reset.
      const started = Date.now();
      for (let before = -1; ;) {
        const waited = Date.now() - started;
        if (waited >= BACKLOG_MS || (waited >= BACKLOG_MIN_MS && before === accepted)) break;
        before = accepted;
        await new Promise((resolve) => setImmediate(resolve));
        await sleep(5);
      }
      // net.Server's close: the listener stops now (new connections are refused); http.Server's
      // would also drop every connection without a request under way, among them those just
      // accepted whose request is still on its way.
      const closed = new Promise((resolve) => net.Server.prototype.close.call(server, resolve));
      onStopListening?.();
      for (const [socket, connection] of connections) {
        if (connection.responses.size) {
          for (const res of connection.responses) if (!res.headersSent) res.setHeader("connection", "close");
        } else if (connection.served) socket.end();
        else
          setTimeout(() => connections.get(socket)?.responses.size === 0 && socket.destroy(), FIRST_REQUEST_MS).unref();
      }
      let cut = 0;
      const drained = await Promise.race([closed.then(() => true), sleep(drainMs).then(() => false)]);
      if (!drained) {
        cut = connections.size;
        server.closeAllConnections();
        await closed;
      }
      const workLeft = await Promise.race([
        Promise.all(pending).then(() => 0),
        sleep(afterWorkMs).then(() => pending.size),
      ]);
      return { requestsFinished: answeredWhileClosing, connectionsCut: cut, workLeft };
    },
  };
}

/**
 * A static server alone: `publishDir` with the `[[headers]]` and `[[redirects]]` of the netlify.toml in
 * `rulesRoot` (none when it has none), by the same code as startServer's static part (lookup,
 * headers, compression, ETag). `npm run bench:web` serves another site's build with it beside ours.
 * Resolves to { url, close }.
 */
export async function startStaticServer({ publishDir, rulesRoot, port = 0, host = "127.0.0.1" }) {
  const rules =
    rulesRoot && existsSync(path.join(rulesRoot, "netlify.toml"))
      ? readNetlifyRules(rulesRoot)
      : { headers: [], redirects: [] };
  const files = new StaticFiles(publishDir);
  const server = http.createServer((req, res) => {
    try {
      send(res, req, serveStatic(files, rules, requestUrl(req), req));
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    url: `http://localhost:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

/** Runs one request through its function and writes the answer (shared with the dev server). */
export async function callFunction(match, req, res, url, waitUntil) {
  const ip = normaliseIp(req.socket.remoteAddress);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    // What Netlify's edge sets is never taken from the client: it sets these itself.
    if (name.startsWith("x-nf-") || name === "x-forwarded-for") continue;
    headers.append(name, req.rawHeaders[i + 1]);
  }
  headers.set("x-nf-client-connection-ip", ip);
  headers.set("x-forwarded-for", ip);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: hasBody ? "half" : undefined,
  });
  const context = createContext({ req: request, ip, params: match.params, waitUntil, url });
  // A function made with route() answers JSON as a JsonAnswer (functions/_lib/http/http.ts): its
  // status, headers and text are written as they are, with no Response and body stream in between.
  const response = match.handler.answer
    ? await match.handler.answer(request, context)
    : await match.handler(request, context);
  if (!(response instanceof Response)) {
    const body = Buffer.from(response.text);
    res.writeHead(response.status, { ...response.headers, "content-length": body.length });
    res.end(req.method === "HEAD" ? undefined : body);
    if (hasBody && !req.readableEnded) req.resume();
    return;
  }
  // A Response of JSON (one a function made itself) is small: one write. Anything else (a CSV
  // export) is passed on as it is made, as Netlify streams it, so a large file never sits whole in
  // memory.
  const streamed = response.body && !/json/i.test(response.headers.get("content-type") ?? "");
  const body = streamed ? null : Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (streamed && req.method !== "HEAD") {
    await pipeline(Readable.fromWeb(response.body), res).catch((error) => {
      console.error(`[server] ${req.method} ${url.pathname}: the answer stopped mid-stream:`, error);
      res.destroy();
    });
  } else {
    if (streamed) await response.body.cancel();
    res.end(req.method === "HEAD" ? undefined : body);
  }
  // A function that did not read its body leaves it in the socket: drop it so keep-alive stays sane.
  if (hasBody && !req.readableEnded) req.resume();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());

const normaliseIp = (address = "") => address.replace(/^::ffff:/, "") || "127.0.0.1";

/** A plain answer: { status, headers, body }. */
/**
 * The request's URL on this server (shared with the dev server). The request line is a path here,
 * never a URL of its own: "//evil.com/api/contact" is that path on this host, not evil.com's origin.
 */
export function requestUrl(req) {
  const target = req.url ?? "/";
  return new URL(`http://${req.headers.host || "localhost"}${target.startsWith("/") ? target : `/${target}`}`);
}

function jsonResponse(status, body) {
  return {
    status,
    // Every /api/ answer carries the API's security headers, as the functions' own answers do.
    headers: { ...lowerCased(API_SECURITY_HEADERS), "content-type": "application/json; charset=utf-8" },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/** The answer for a static path: the file, a redirect, or a 404 page, with netlify.toml's headers. */
function serveStatic(files, rules, url, req) {
  let pathname;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return withHeaders(rules, url.pathname, {
      status: 400,
      headers: { "content-type": "text/plain" },
      body: Buffer.from("Bad Request"),
    });
  }
  let answer = files.lookup(pathname);

  let status = 200;
  for (const rule of rules.redirects) {
    if (answer && !rule.force) continue;
    const target = rule.target(pathname);
    if (target === null) continue;
    if (rule.status >= 300 && rule.status < 400) {
      return withHeaders(rules, url.pathname, {
        status: rule.status,
        headers: { location: target, "cache-control": DEFAULT_CACHE },
        body: Buffer.alloc(0),
      });
    }
    const rewritten = files.lookup(target);
    if (rewritten?.file) {
      answer = rewritten;
      status = rule.status;
      break;
    }
  }
  if (!answer) {
    answer = files.lookup("/404.html");
    status = 404;
    if (!answer) return { status: 404, headers: { "content-type": "text/plain" }, body: Buffer.from("Not Found") };
  }
  const file = answer.file;
  const headers = { "content-type": file.type, "cache-control": DEFAULT_CACHE, etag: file.etag };
  const response = withHeaders(rules, url.pathname, { status, headers, body: file.body, file });
  if (status === 200 && req.headers["if-none-match"] === file.etag) {
    return { ...response, status: 304, body: Buffer.alloc(0), file: undefined };
  }
  return response;
}

function withHeaders(rules, pathname, response) {
  for (const rule of rules.headers) {
    if (!rule.test.test(pathname)) continue;
    for (const [name, value] of Object.entries(rule.values)) response.headers[name.toLowerCase()] = value;
  }
  return response;
}

/** Writes an answer, compressed (brotli or gzip) when the client accepts it and it is worth it. */
function send(res, req, { status, headers, body, file }) {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  let payload = body;
  if (file?.compressible) {
    res.setHeader("vary", "Accept-Encoding");
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : null;
    if (encoding) {
      payload = file.encoded(encoding);
      res.setHeader("content-encoding", encoding);
    }
  }
  res.setHeader("content-length", payload.length);
  res.end(req.method === "HEAD" ? undefined : payload);
}

const lowerCased = (headers) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * The published folder, read once per file and kept in memory. A build replaces the whole folder
 * (scripts/build/build.mjs renames the new one into place, e.g. after a content editor's save), so the cache
 * is dropped when the folder at that path is another one. Only files that exist are kept: a path
 * that has none is looked up again, so unknown paths cost no memory.
 */
export class StaticFiles {
  constructor(dir) {
    this.dir = path.resolve(dir);
    this.cache = new Map();
    this.folder = this.identity();
  }

  /** The folder's identity (device and inode): a renamed-in build has a new one. */
  identity() {
    try {
      const { dev, ino } = statSync(this.dir);
      return `${dev}:${ino}`;
    } catch {
      return null;
    }
  }

  /** `{ file }` for a path that has one (as Netlify's pretty URLs resolve it), or null. */
  lookup(pathname) {
    if (pathname.includes("\0")) return null;
    const folder = this.identity();
    if (folder !== this.folder) {
      this.cache.clear();
      this.folder = folder;
    }
    const full = path.join(this.dir, pathname);
    if (full !== this.dir && !full.startsWith(this.dir + path.sep)) return null;
    if (pathname.endsWith("/")) return this.read(path.join(full, "index.html"));
    // A folder's index answers with or without the slash (pages link without one and carry a
    // canonical URL), as Netlify's emulation and CDN serve this site.
    return this.read(full) ?? this.read(path.join(full, "index.html")) ?? this.read(`${full}.html`);
  }

  read(file) {
    if (this.cache.has(file)) return this.cache.get(file);
    let entry = null;
    try {
      if (statSync(file).isFile()) {
        const body = readFileSync(file);
        const type = typeOf(file);
        const encodings = new Map();
        entry = {
          file: {
            body,
            type,
            etag: `"${createHash("sha1").update(body).digest("base64url").slice(0, 20)}"`,
            compressible: isCompressible(type, body.length),
            encoded(encoding) {
              if (!encodings.has(encoding)) {
                encodings.set(
                  encoding,
                  encoding === "br"
                    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality } })
                    : gzipSync(body, { level: COMPRESSION.gzipLevel }),
                );
              }
              return encodings.get(encoding);
            },
          },
        };
      }
    } catch {
      entry = null;
    }
    if (entry) this.cache.set(file, entry);
    return entry;
  }
}
