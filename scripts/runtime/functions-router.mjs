// Calls the Netlify Functions v2 in functions/ in this process, as Netlify would call them in
// production: each module imported once, routed by its own `config.path` (URLPattern, as Netlify
// matches it), given a Context with what our functions use. Used by `npm start` (through
// scripts/runtime/server.mjs), `npm run dev` (through Vite) and the soak tests.
import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The function files of a project: functions/*.{ts,mts,js,mjs}, not tests, not functions/_lib. */
export function functionFiles(root) {
  const dir = path.join(root, "functions");
  return readdirSync(dir)
    .filter((file) => /\.(m?ts|m?js)$/.test(file) && !/\.test\./.test(file))
    .sort()
    .map((file) => path.join(dir, file));
}

/**
 * Imports every function once (by default with Node's own loader; `npm run dev` passes Vite's, which
 * reloads what changed) and returns `route(pathname)`: the function serving that path and the
 * path's parameters, or null. Scheduled functions (no `path`) are not routed.
 */
export async function loadFunctions(root, { load = (file) => import(pathToFileURL(file).href) } = {}) {
  const entries = [];
  for (const file of functionFiles(root)) {
    const module = await load(file);
    const { config = {} } = module;
    if (typeof module.default !== "function") throw new Error(`${path.relative(root, file)} has no default export`);
    if (!config.path) continue;
    const paths = [config.path].flat();
    const excluded = [config.excludedPath ?? []].flat();
    entries.push({
      name: path.basename(file).replace(/\.[^.]+$/, ""),
      file,
      handler: module.default,
      methods: config.method ? [config.method].flat().map((m) => m.toUpperCase()) : null,
      patterns: paths.map(matcher),
      excluded: excluded.map(matcher),
    });
  }
  return {
    functions: entries,
    /** The function for this request, with the path's parameters; null when none serves it. */
    route(pathname, method = "GET") {
      for (const entry of entries) {
        if (entry.methods && !entry.methods.includes(method)) continue;
        if (entry.excluded.some((match) => match(pathname))) continue;
        for (const match of entry.patterns) {
          const params = match(pathname);
          if (params) return { ...entry, params };
        }
      }
      return null;
    },
  };
}

/**
 * A matcher for one `config.path`: the path's parameters when `pathname` matches, else null.
 * URLPattern costs microseconds a call; a path without parameters or wildcards is a plain comparison,
 * and a pattern is only tried on paths that start with its literal part.
 */
function matcher(path) {
  const literal = /^[^:*(){}?+]*$/.test(path);
  if (literal) return (pathname) => (pathname === path ? {} : null);
  const prefix = path.slice(0, path.search(/[:*(){}?+]/));
  const pattern = new URLPattern({ pathname: path });
  return (pathname) => {
    if (!pathname.startsWith(prefix)) return null;
    const match = pattern.exec({ pathname });
    return match ? filterParams(match.pathname.groups) : null;
  };
}

function filterParams(groups) {
  return Object.fromEntries(Object.entries(groups ?? {}).filter(([, value]) => value !== undefined));
}

/**
 * The Context Netlify passes a function, with what this project's functions use: the client's address
 * and location, the path's parameters, waitUntil, the deploy context, the site's URL and a request id.
 * `url` is the request's URL when the caller has parsed it already.
 */
export function createContext({ req, ip, params, waitUntil, deployContext = "dev", url = new URL(req.url) }) {
  let requestId;
  return {
    ip,
    // Locally there is no geolocation: an empty location, as Netlify gives when it knows nothing.
    geo: {},
    params,
    waitUntil,
    // Made when a function asks (none of ours does on the hot paths): a UUID costs a random read.
    get requestId() {
      return (requestId ??= randomUUID());
    },
    deploy: { context: deployContext, id: "local", published: false },
    site: { url: url.origin },
    server: { region: "local" },
    url,
    account: { id: "local" },
    json: (body) => Response.json(body),
    log: console.log,
  };
}
