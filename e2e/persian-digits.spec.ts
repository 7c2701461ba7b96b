import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Parser } from "htmlparser2";
import { expect, test } from "@playwright/test";

/**
 * A Persian visitor reads every number in Persian digits. This reads every built Persian page
 * (`dist/fa/`, the build the browser tests run on): its text and the attributes a person reads
 * or hears (alt, title, aria-label, placeholder, the description a search result shows).
 *
 * What must stay Latin, because it is copied, dialled or typed as it is written:
 */
const STAYS_LATIN: { what: string; pattern: RegExp }[] = [
  { what: "a URL or a domain", pattern: /\b(?:https?:\/\/)?[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b(?:\/[^\s]*)?/g },
  { what: "an email address", pattern: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g },
  { what: "a phone number", pattern: /\+\d[\d ()\u00a0-]{6,}\d/g },
  { what: "a Dutch postcode", pattern: /\b\d{4} ?[A-Z]{2}\b/g },
  { what: "a street address's house number", pattern: /\b[A-Z][a-z]+ \d{1,4}[a-z]?\b/g },
  { what: "a keyboard key", pattern: /\bF\d{1,2}\b/g },
  { what: "a registration number (KvK, VAT)", pattern: /\b(?:KvK|BTW|VAT)[^\d]{0,12}[\dA-Z.]{6,}/gi },
];

/** Attributes whose text a person reads or a screen reader speaks. */
const READ_ATTRIBUTES = new Set(["alt", "title", "aria-label", "placeholder", "aria-description"]);
/** Elements whose content no one reads as text. */
const UNREAD = new Set(["script", "style", "svg", "template"]);

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? htmlFiles(path.join(dir, e.name)) : e.name.endsWith(".html") ? [path.join(dir, e.name)] : [],
  );
}

/** The pieces of text of a page a person reads, with where each comes from. */
function readText(html: string): string[] {
  const out: string[] = [];
  let unread = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (UNREAD.has(name)) unread++;
        for (const [k, v] of Object.entries(attrs)) if (READ_ATTRIBUTES.has(k) && v) out.push(v);
        if (name === "meta" && (attrs.name === "description" || attrs.property === "og:description") && attrs.content)
          out.push(attrs.content);
      },
      ontext(text) {
        if (!unread && text.trim()) out.push(text);
      },
      onclosetag(name) {
        if (UNREAD.has(name)) unread--;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

/** Latin digits left in `text` once what must stay Latin is taken out. */
export function strayLatinDigits(text: string): string[] {
  let rest = text;
  for (const { pattern } of STAYS_LATIN) rest = rest.replace(pattern, " ");
  return [...rest.matchAll(/[^\s]*[0-9][^\s]*/g)].map((m) => m[0]);
}

test.describe("Persian pages", () => {
  test("what must stay Latin is recognised, and a Latin number in Persian text is not", () => {
    expect(strayLatinDigits("تماس: +31 20 808 1234 یا hello@bridgewise.nl، 1017 BZ آمستردام")).toEqual([]);
    expect(strayLatinDigits("گام 1")).toEqual(["1"]);
    expect(strayLatinDigits("€5M+")).toEqual(["€5M+"]);
  });

  test("every built Persian page shows every number in Persian digits", () => {
    const dist = path.resolve("dist/fa");
    expect(existsSync(dist), "dist/ holds the build the browser tests run on").toBe(true);
    const files = htmlFiles(dist);
    expect(files.length, "built Persian pages").toBeGreaterThan(15);
    const found = files.flatMap((file) =>
      readText(readFileSync(file, "utf8")).flatMap((text) =>
        strayLatinDigits(text).map(
          (digits) => `${path.relative("dist", file)}: "${digits}" in "${text.trim().slice(0, 80)}"`,
        ),
      ),
    );
    expect(found, found.join("\n")).toEqual([]);
  });
});
