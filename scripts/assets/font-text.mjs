// The characters each web font must hold: what the copy uses, plus every character a visitor
// may type or the pages may show in that script. Used by scripts/assets/fonts.mjs to subset the fonts
// and by src/styles/fonts.test.ts to tell when new copy needs `npm run fonts` again.
import { readFileSync, readdirSync } from "node:fs";

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
/** Every string of a locale file, or only those whose key path (`hero.title`) matches `keys`. */
const values = (json, keys = /./) => {
  const out = [];
  const walk = (node, path) =>
    typeof node === "string"
      ? keys.test(path) && out.push(node)
      : Object.entries(node).forEach(([k, v]) => walk(v, path ? `${path}.${k}` : k));
  walk(JSON.parse(json), "");
  return out.join("\n");
};
/** Copy set in bold: titles and headings. */
const HEADINGS = /(title|heading|label)$/i;
/** Copy set extra bold: the title at the top of every page. */
const PAGE_TITLES = /^(hero\.title|hero\.titleHighlight|servicesPage\.\w+\.title)$/;
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join("");
const unique = (text) =>
  [...new Set(text)]
    .filter((c) => c.codePointAt(0) >= 0x20)
    .sort()
    .join("");
const isArabicScript = (c) => c.codePointAt(0) >= 0x600 && c.codePointAt(0) <= 0x6ff;

const dataFiles = readdirSync(new URL("../../src/data/", import.meta.url))
  .map((f) => read(`src/data/${f}`))
  .join("\n");
const englishAndDutch = values(read("src/i18n/locales/en.json")) + values(read("src/i18n/locales/nl.json"));
const persianCopy = values(read("src/i18n/locales/fa.json"));
const both = (keys) => values(read("src/i18n/locales/en.json"), keys) + values(read("src/i18n/locales/nl.json"), keys);
const headings = { latin: both(HEADINGS), persian: values(read("src/i18n/locales/fa.json"), HEADINGS) };
const pageTitles = { latin: both(PAGE_TITLES), persian: values(read("src/i18n/locales/fa.json"), PAGE_TITLES) };

/** Typographic punctuation and signs the copy and the formats use. */
const PUNCTUATION = "‘’‚“”„–—…•·€£™←→✓‹›";
/** The Persian alphabet with Arabic variants, marks, digits and punctuation: anything a Persian visitor types. */
const PERSIAN =
  "آأإؤئءابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیيكةۀ" +
  range(0x64b, 0x655) + // harakat and hamza above/below
  range(0x660, 0x669) + // Arabic-Indic digits
  range(0x6f0, 0x6f9) + // Persian digits
  "،؛؟٪٫٬ـ" +
  "\u200c\u200d";

/** Latin characters for Inter: Basic Latin, Latin-1, punctuation, and anything the English and Dutch copy adds. */
const latin = unique(
  range(0x20, 0x7e) +
    range(0xa0, 0xff) +
    PUNCTUATION +
    [...(englishAndDutch + dataFiles)].filter((c) => c.codePointAt(0) < 0x2100 && !isArabicScript(c)).join(""),
);

/** Persian and the Latin runs of the Persian pages, for Vazirmatn. */
const persian = unique(
  PERSIAN +
    [...persianCopy].filter(isArabicScript).join("") +
    range(0x20, 0x7e) +
    "«»" +
    PUNCTUATION +
    [...persianCopy].filter((c) => c.codePointAt(0) < 0x2100 && !isArabicScript(c)).join(""),
);

export const FONT_TEXT = { latin, persian, persianCopy, englishAndDutch, headings, pageTitles };
