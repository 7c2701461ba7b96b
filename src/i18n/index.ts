/**
 * The one i18next module: `t(lang)`, `dir(lang)`, `localePath(lang, path)` and the names of the
 * service catalogue. Pages render at build time and the functions render emails on the server, so
 * every resource is bundled and init is synchronous; no translation code ships to the browser.
 * `t` is for text a browser lays out (long Dutch words carry soft hyphens, see typography.ts);
 * `plainT` is for everything else: emails, titles and meta tags. Server code that needs only
 * `plainT` imports plain.ts, which leaves the hyphenation patterns out.
 */
import type { TFunction } from "i18next";
import { dirOf, type Language } from "../shared/languages.ts";
import { createInstance, isolating } from "./plain.ts";
import { softHyphens } from "./typography.ts";

export { localePath, plainT, serviceNames } from "./plain.ts";

const pages = createInstance({
  type: "postProcessor",
  name: "softHyphens",
  process: (value, _key, options) => softHyphens(value, options.lng ?? ""),
});

/**
 * A translate function bound to one language, for page text. Markup escaping is left to Astro, React
 * and the mail templates. Persian output isolates its Latin and number runs (plain.ts).
 */
export const t = (lang: Language): TFunction => isolating(pages.getFixedT(lang), lang);

export const dir = dirOf;
