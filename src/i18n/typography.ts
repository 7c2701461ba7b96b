/**
 * Dutch glues words together ("aandeelhoudersovereenkomsten", "Kennismakingsgesprek"): one such
 * word is wider than a card or a button on a phone. Long Dutch words get soft hyphens (U+00AD) at
 * the points Dutch hyphenation allows, so the browser breaks them with a hyphen where they do not
 * fit and shows them whole where they do. Done when the page is built, so every browser gets the
 * same result (CSS `hyphens: auto` depends on the browser having a Dutch dictionary).
 */
// hyphen is CommonJS: take the default export (named imports do not resolve in Node's ESM loader).
import dutch from "hyphen/nl/index.js";

/** Words shorter than this always fit; only longer ones get break points. */
const MIN_WORD_LENGTH = 10;

/** The text with soft hyphens in its long Dutch words; other languages are returned as they are. */
export function softHyphens(text: string, lang: string): string {
  if (lang !== "nl" || !/[A-Za-zÀ-ÿ]{10}/.test(text)) return text;
  return dutch.hyphenateSync(text, { minWordLength: MIN_WORD_LENGTH });
}

/** For places that are not laid out on the page (titles, meta tags, structured data). */
export const withoutSoftHyphens = (text: string) => text.replace(/\u00AD/g, "");
