// What a built page's JavaScript costs a browser: the chunks its HTML names (an island's component,
// renderer and before-hydration URLs, module scripts) and every chunk they import statically, gzipped.
// Chunks imported with `import()` load only when used and are left out. bench:admin weighs the lead
// desk's island with it against the panel's shell.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const HTML_URLS =
  /(?:component-url|renderer-url|before-hydration-url|src)="(\/_astro\/[^"]+\.js)"|["'](\/_astro\/[^"']+\.js)["']/g;
// `import{a as b}from"./x.js"` and `import"./x.js"`, minified or not; never `import("./x.js")`.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+\.js)["']/g;

/** The /_astro/… chunks a page loads before any dynamic import: the ones its HTML names, and their static imports. */
export function pageChunks(dist, htmlFile) {
  const html = readFileSync(path.join(dist, htmlFile), "utf8");
  const chunks = new Set();
  const pending = [...html.matchAll(HTML_URLS)].map((m) => m[1] ?? m[2]);
  while (pending.length) {
    const url = pending.pop();
    if (chunks.has(url)) continue;
    chunks.add(url);
    const code = readFileSync(path.join(dist, url), "utf8");
    for (const m of code.matchAll(STATIC_IMPORT)) pending.push(path.posix.join(path.posix.dirname(url), m[1]));
  }
  return chunks;
}

/** The gzipped size of the chunks, in bytes, each compressed alone as a server sends it. */
export function gzippedBytes(dist, chunks) {
  let bytes = 0;
  for (const url of chunks) bytes += gzipSync(readFileSync(path.join(dist, url)), { level: 9 }).length;
  return bytes;
}

/**
 * What one page's islands add to a set of pages: the shell is the chunks every one of `pages` loads,
 * and the page's own weight is what it loads beyond them. Sizes in gzipped bytes.
 */
export function islandWeight(dist, page, pages) {
  const own = pageChunks(dist, page);
  const each = pages.map((p) => pageChunks(dist, p));
  const shell = new Set([...each[0]].filter((url) => each.every((chunks) => chunks.has(url))));
  const added = new Set([...own].filter((url) => !shell.has(url)));
  return {
    page,
    pageBytes: gzippedBytes(dist, own),
    shellBytes: gzippedBytes(dist, shell),
    addedBytes: gzippedBytes(dist, added),
    addedChunks: [...added].sort(),
  };
}

/** The panel's pages that sit in its shell (they load the navigation's script), as paths under `dist`. */
export function panelPages(dist) {
  const dirs = readdirSync(path.join(dist, "admin"), { withFileTypes: true }).filter((d) => d.isDirectory());
  return dirs
    .map((d) => `admin/${d.name}/index.html`)
    .filter((page) => existsSync(path.join(dist, page)))
    .filter((page) => [...pageChunks(dist, page)].some((url) => url.startsWith("/_astro/AdminNav.")));
}
