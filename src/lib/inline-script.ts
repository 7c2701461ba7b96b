/**
 * A script written into a page's HTML, minified: the head script (boot, controls, view counter) is
 * written as readable TypeScript and inlined with `fn.toString()`, which keeps its comments' places,
 * its long names and its indentation; every public page carries it, so it is sent small. Build time
 * only. The page's CSP hash is computed over what this returns.
 */
import { transformSync } from "esbuild";

const minified = new Map<string, string>();

/** `code` minified (same behaviour; the browsers of the site's support range); each text once per build. */
export function inlineScript(code: string): string {
  let out = minified.get(code);
  if (out === undefined) {
    out = transformSync(code, { loader: "js", minify: true, target: "es2020", legalComments: "none" }).code.trim();
    minified.set(code, out);
  }
  return out;
}
