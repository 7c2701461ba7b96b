// Serves the built site (and, once they exist, the functions) through Netlify's own local emulation,
// @netlify/dev, so netlify.toml's redirects and headers apply exactly as in production.
// Used by `npm start`, the browser tests and the benchmark.
import http from "node:http";
import { Readable } from "node:stream";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { NetlifyDev } from "@netlify/dev";
import { parse as parseToml } from "smol-toml";
import { bundleFunctions } from "./bundle-functions.mjs";

// Offline by design: nothing here may phone home.
process.env.NETLIFY_TELEMETRY_DISABLED = "1";
process.env.ASTRO_TELEMETRY_DISABLED = "1";

/**
 * netlify.toml rules that rewrite to a 404 page (`status = 404`). Netlify's CDN answers those with
 * status 404; @netlify/dev 5 serves the target with 200, so the server below restores the status.
 */
function notFoundRewrites(projectRoot) {
  const config = parseToml(readFileSync(path.join(projectRoot, "netlify.toml"), "utf8"));
  return (config.redirects ?? [])
    .filter((rule) => rule.status === 404)
    .map(
      (rule) => (pathname) =>
        rule.from.endsWith("/*") ? pathname.startsWith(rule.from.slice(0, -1)) : pathname === rule.from,
    );
}

/** Whether the published folder has a file for this path (as Netlify's pretty URLs resolve it). */
function hasStaticFile(publishDir, pathname) {
  const base = path.join(publishDir, decodeURIComponent(pathname));
  if (!base.startsWith(publishDir)) return false;
  return [base, path.join(base, "index.html"), `${base}.html`].some(
    (file) => existsSync(file) && statSync(file).isFile(),
  );
}

/**
 * Starts the emulator and an HTTP server on `port` (0 picks a free one).
 * Resolves to { url, close }.
 */
export async function startNetlifyServer({
  port = 8888,
  host = "127.0.0.1",
  projectRoot = process.cwd(),
  log = console,
} = {}) {
  await bundleFunctions(projectRoot);
  const dev = new NetlifyDev({
    projectRoot,
    skipGitignore: true,
    // Off: each of these either needs the network or is not used by this site.
    edgeFunctions: { enabled: false },
    geolocation: { enabled: false },
    images: { enabled: false },
    blobs: { enabled: false },
    database: { enabled: false },
    aiGateway: { enabled: false },
    server: { enabled: false },
    // On: what the site needs.
    functions: { enabled: true },
    redirects: { enabled: true },
    headers: { enabled: true },
    staticFiles: { enabled: true },
    environmentVariables: { enabled: true },
  });
  await dev.start();
  const rewritesTo404 = notFoundRewrites(projectRoot);
  const publishDir = path.join(projectRoot, "dist");

  const server = http.createServer(async (req, res) => {
    try {
      const result = await dev.handleAndIntrospectNodeRequest(req);
      let response = result?.response;
      const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
      if (
        result?.type === "redirect" &&
        response?.status === 200 &&
        rewritesTo404.some((matches) => matches(pathname)) &&
        !hasStaticFile(publishDir, pathname)
      ) {
        response = new Response(response.body, { status: 404, headers: response.headers });
      }
      if (!response) {
        // Netlify answers any unmatched path with the site's 404.html (and the header rules).
        const notFound = await dev.handle(new Request(new URL("/404.html", `http://${req.headers.host}`)));
        response = new Response(notFound?.body ?? "Not Found", { status: 404, headers: notFound?.headers });
      }
      res.statusCode = response.status;
      response.headers.forEach((value, key) => {
        if (key !== "set-cookie") res.setHeader(key, value);
      });
      const cookies = response.headers.getSetCookie?.() ?? [];
      if (cookies.length) res.setHeader("set-cookie", cookies);
      if (response.body && req.method !== "HEAD") Readable.fromWeb(response.body).pipe(res);
      else res.end();
    } catch (error) {
      log.error?.("request failed:", req.method, req.url, error);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("content-type", "text/plain; charset=utf-8");
      }
      res.end("Internal Server Error");
    }
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const url = `http://${host === "127.0.0.1" || host === "0.0.0.0" ? "localhost" : host}:${address.port}`;
  return {
    url,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await dev.stop();
    },
  };
}
