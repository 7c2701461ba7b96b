// Builds the site when dist/ is missing or older than any source file, so `npm start` is one command.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { buildAndSwap } from "./build.mjs";

const SOURCES = ["src", "server", "tools", "public", "astro.config.mjs", "package.json", "tsconfig.json"];

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** Runs `astro build` when needed; returns true if it built. Throws when the build fails. */
export function buildIfNeeded(root = process.cwd(), { force = false, log = console } = {}) {
  const marker = path.join(root, "dist", "index.html");
  const builtAt = existsSync(marker) ? statSync(marker).mtimeMs : 0;
  const changedAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  if (!force && builtAt > changedAt) return false;
  log.log?.(builtAt ? "Sources changed since the last build: building…" : "No build yet: building the site…");
  // Built beside dist/ and swapped in on success: a failed build leaves the last good site in place.
  const status = buildAndSwap(root);
  if (status !== 0) throw new Error(`the build failed (exit ${status})`);
  return true;
}
