// The W3C Nu HTML checker (the vnu-jar package, run with Java) over the built pages, for the
// browser test suite (e2e/html-validity.spec.ts) and `npm run bench:web`.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Messages of the checker's CSS part about CSS that browsers support and it does not know yet
 * (Tailwind 4 emits it): about the checker, not our pages, so they are counted, not failed on.
 */
export const CSS_CHECKER_GAPS = [
  {
    pattern: /^CSS: Unrecognized at-rule “@property”/,
    why: "@property (registered custom properties, every browser since 2024)",
  },
  {
    pattern: /^CSS: “margin-trim”: Property “margin-trim” doesn't exist/,
    why: "margin-trim, inside Tailwind's @supports probe",
  },
  {
    pattern: /^CSS: “transition-property”: “--tw-[\w-]+” is not a “transition-property” value/,
    why: "a registered custom property as a transition-property",
  },
];

/** Whether Java is there to run the checker. */
export const hasJava = () => spawnSync("java", ["-version"]).status === 0;

/**
 * A copy of the pages under `dist` in a folder of its own, in which each <style> block the pages
 * share is kept whole in the first page that has it and emptied (its lines kept, so the checker's
 * line numbers stay right) in the others: the inlined stylesheet is the same in every page, and the
 * checker's CSS part is most of its time. Every page's HTML is still checked, every distinct
 * stylesheet once.
 * @param {string} dist
 * @param {string[]} pages paths under `dist`
 */
function withSharedStylesOnce(dist, pages) {
  const copy = mkdtempSync(path.join(tmpdir(), "nu-checker-"));
  const seen = new Set();
  for (const page of pages) {
    const html = readFileSync(path.join(dist, page), "utf8").replace(
      /(<style\b[^>]*>)([\s\S]*?)(<\/style>)/g,
      (whole, open, css, close) => {
        // Only a stylesheet: a match that ran on from a "<style>" in a comment has markup in it.
        if (css.length < 1000 || css.includes("</") || css.includes("<!--") || !seen.has(css)) {
          seen.add(css);
          return whole;
        }
        return open + "\n".repeat(css.split("\n").length - 1) + close;
      },
    );
    mkdirSync(path.dirname(path.join(copy, page)), { recursive: true });
    writeFileSync(path.join(copy, page), html);
  }
  return copy;
}

/**
 * Checks every .html file under `dist`. Returns the pages, the errors that count, and the
 * ignored CSS-checker messages grouped by reason.
 * @param {string} dist
 */
export function checkHtml(dist) {
  const pages = readdirSync(dist, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".html"));
  const copy = withSharedStylesOnce(dist, pages);
  const jar = path.resolve("node_modules/vnu-jar/build/dist/vnu.jar");
  let report = "";
  try {
    execFileSync("java", ["-jar", jar, "--format", "json", "--skip-non-html", copy], {
      stdio: ["ignore", "ignore", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    // vnu exits 1 when it has anything to say; its JSON report is on stderr either way.
    report = String(error.stderr ?? "");
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  /** @type {{ type: string, url: string, lastLine?: number, message: string, extract?: string }[]} */
  const messages = report ? JSON.parse(report).messages : [];
  const ignored = CSS_CHECKER_GAPS.map((gap) => ({ why: gap.why, count: 0 }));
  const errors = [];
  for (const message of messages) {
    if (message.type === "info") continue;
    const gap = CSS_CHECKER_GAPS.findIndex((g) => g.pattern.test(message.message));
    if (gap >= 0) ignored[gap].count++;
    else errors.push({ ...message, file: path.relative(copy, new URL(message.url).pathname) });
  }
  return { pages: pages.length, errors, ignored };
}
