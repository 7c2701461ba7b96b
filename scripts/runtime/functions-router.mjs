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
    const entry = {
      name: path.basename(file).replace(/\.[^.]+$/, ""),
      file,
      handler: module.default,
      methods: config.method ? [config.method].flat().map((m) => m.toUpperCase()) : null,
      patterns: paths.map(matcher),
      excluded: excluded.map(matcher),
    };
    // The answer for a path without parameters, made once: most requests take one.
    entry.plain = Object.freeze({ ...entry, params: NO_PARAMS });
    entries.push(entry);
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
          if (params) return params === NO_PARAMS ? entry.plain : { ...entry, params };
        }
      }
      return null;
    },
  };
}

/** The parameters of a path that has none (shared: a function reads its parameters, never writes them). */
const NO_PARAMS = Object.freeze({});

/**
 * A matcher for one `config.path`: the path's parameters when `pathname` matches, else null.
 * URLPattern costs microseconds a call; a path without parameters or wildcards is a plain comparison,
 * and a pattern is only tried on paths that start with its literal part.
 */
function matcher(path) {
  const literal = /^[^:*(){}?+]*$/.test(path);
  if (literal) return (pathname) => (pathname === path ? NO_PARAMS : null);
  const prefix = path.slice(0, path.search(/[:*(){}?+]/));
  const pattern = new URLPattern({ pathname: path });
  return (pathname) => {
    if (!pathname.startsWith(prefix)) return null;
    const match = pattern.exec({ pathname });
    if (!match) return null;
    const params = Object.fromEntries(
      Object.entries(match.pathname.groups ?? {}).filter(([, value]) => value !== undefined),
    );
    return Object.keys(params).length ? params : NO_PARAMS;
  };
}

/** The parts of the local Context that are the same for every request. */
const LOCAL = Object.freeze({
  // Locally there is no geolocation: an empty location, as Netlify gives when it knows nothing.
  geo: Object.freeze({}),
  server: Object.freeze({ region: "local" }),
  account: Object.freeze({ id: "local" }),
});

/**
 * The Context Netlify passes a function, with what this project's functions use: the client's address
 * and location, the path's parameters, waitUntil, the deploy context, the site's URL and a request id.
 * `url` is the request's URL when the caller has parsed it already. What does not change from one
 * request to the next is made once; the site's URL and the request id when a function asks.
 */
export function createContext({ req, ip, params, waitUntil, deployContext = "dev", url = new URL(req.url) }) {
  return new LocalContext(ip, params, waitUntil, deployContext, url);
}

class LocalContext {
  #deployContext;
  #requestId;
  constructor(ip, params, waitUntil, deployContext, url) {
    this.ip = ip;
    this.params = params;
    this.waitUntil = waitUntil;
    this.url = url;
    this.#deployContext = deployContext;
  }

  get geo() {
    return LOCAL.geo;
  }

  get server() {
    return LOCAL.server;
  }

  get account() {
    return LOCAL.account;
  }

  // Read once per process (server/deploy-context.ts keeps the first call's), so made when asked.
  get deploy() {
    return Object.freeze({ context: this.#deployContext, id: "local", published: false });
  }

  get site() {
    return { url: this.url.origin };
  }

  // None of ours asks on the hot paths: a UUID costs a random read.
  get requestId() {
    return (this.#requestId ??= randomUUID());
  }

  json(body) {
    return Response.json(body);
  }

  log(...args) {
    console.log(...args);
  }
}
