// The characters each web font must hold: what the copy uses, plus every character a visitor
// may type or the pages may show in that script. Used by scripts/fonts.mjs to subset the fonts
// and by src/styles/fonts.test.ts to tell when new copy needs `npm run fonts` again.
import { readFileSync, readdirSync } from "node:fs";

const read = (path) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
const values = (json) => {
  const out = [];
  const walk = (node) => (typeof node === "string" ? out.push(node) : Object.values(node).forEach(walk));
  walk(JSON.parse(json));
  return out.join("\n");
};
const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join("");
const unique = (text) =>
  [...new Set(text)]
    .filter((c) => c.codePointAt(0) >= 0x20)
    .sort()
    .join("");
const isArabicScript = (c) => c.codePointAt(0) >= 0x600 && c.codePointAt(0) <= 0x6ff;

const dataFiles = readdirSync(new URL("../src/data/", import.meta.url))
  .map((f) => read(`src/data/${f}`))
  .join("\n");
const englishAndDutch = values(read("src/i18n/locales/en.json")) + values(read("src/i18n/locales/nl.json"));
const persianCopy = values(read("src/i18n/locales/fa.json"));

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

export const FONT_TEXT = { latin, persian, persianCopy, englishAndDutch };
