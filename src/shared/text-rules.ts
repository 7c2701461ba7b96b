/**
 * Rules for one text in one language: placeholders, HTML, Arabic letters in Persian, English left
 * in a translation, and length budgets. Pure functions: the copy check feeds them every text of
 * the locale and content files and turns what they find into messages with file and line.
 */

/** `{{name}}` placeholders as i18next fills them in. */
const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** Names of the well-formed placeholders, in order. */
export const placeholdersOf = (text: string) => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);

/** Braces that are not part of a well-formed `{{name}}`: `{brand}`, `{{brand}`, a stray `}`. */
export function brokenPlaceholders(text: string): string[] {
  const rest = text.replace(PLACEHOLDER, " ");
  const found: string[] = [];
  const pattern = /\{+[^{}]*\}+|\{+[^{}\s]*|[^{}\s]*\}+/g;
  for (const m of rest.matchAll(pattern)) found.push(m[0]);
  return found;
}

/** HTML tags or entities: the site shows texts as written, so these would appear literally. */
export function htmlIn(text: string): string | null {
  const m = /<\/?[a-zA-Z][\w-]*(?:\s[^<>]*)?\/?>|&(?:[a-zA-Z]+|#\d+|#x[\da-fA-F]+);/.exec(text);
  return m ? m[0] : null;
}

/** Arabic letters and digits that Persian writes differently, with their Persian form. */
export const ARABIC_TO_PERSIAN: Readonly<Record<string, { persian: string; name: string }>> = {
  "\u064A": { persian: "\u06CC", name: "Arabic yeh ي (Persian writes ی)" },
  "\u0649": { persian: "\u06CC", name: "Arabic alef maksura ى (Persian writes ی)" },
  "\u0643": { persian: "\u06A9", name: "Arabic kaf ك (Persian writes ک)" },
  ...Object.fromEntries(
    [..."٠١٢٣٤٥٦٧٨٩"].map((d, i) => [
      d,
      { persian: "۰۱۲۳۴۵۶۷۸۹"[i], name: `Arabic digit ${d} (Persian writes ${"۰۱۲۳۴۵۶۷۸۹"[i]})` },
    ]),
  ),
};
const ARABIC_LETTERS = new RegExp(`[${Object.keys(ARABIC_TO_PERSIAN).join("")}]`, "g");

/** The Arabic forms in a Persian text, each once. */
export const arabicLettersIn = (text: string) => [...new Set(text.match(ARABIC_LETTERS) ?? [])];

/** The text with Arabic letters and digits replaced by their Persian forms. */
export const toPersianLetters = (text: string) => text.replace(ARABIC_LETTERS, (ch) => ARABIC_TO_PERSIAN[ch].persian);

/**
 * Words that mark a Dutch text as (partly) English: common English words that are not also Dutch
 * words ("is", "in", "we", "of", "over", "door", "die", "team", "contact" are Dutch too).
 */
const ENGLISH_MARKERS = new Set(
  (
    "the and with your yours you our ours for to are this that these those will would should could from have has " +
    "been not or at by on it its which who whom whose when what where why how can cannot us my into about their " +
    "they there please thank thanks learn more send sent get started read book schedule submit message messages " +
    "services choose select search loading error back next previous now here just only also then than if but be " +
    "does did make made take our yes new free call calls meeting meetings business businesses company companies " +
    "founder founders growth grow market markets journey step steps support experience first last"
  ).split(" "),
);

/** Words in a text that are written in Latin letters, without placeholders, addresses and numbers. */
export function latinWords(text: string): string[] {
  const cleaned = text
    .replace(PLACEHOLDER, " ")
    .replace(/\S+@\S+/g, " ")
    .replace(/https?:\/\/\S+/g, " ");
  return cleaned.match(/[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]/g)?.filter((w) => /[A-Za-z].*[A-Za-z]/.test(w)) ?? [];
}

/**
 * English words that look left behind in a translation, or [] when none do. In Latin script (Dutch):
 * common English words (two of them, or one in a text of four words or fewer). In another script
 * (Persian): any word in Latin letters. Words in `allowed` (names, brands, abbreviations;
 * case-insensitive) never count.
 */
export function suspectedEnglish(text: string, script: "latin" | "persian", allowed: ReadonlySet<string>): string[] {
  const words = latinWords(text).filter((w) => !allowed.has(w.toLowerCase()));
  if (script !== "latin") return [...new Set(words)];
  const markers = words.filter((w) => ENGLISH_MARKERS.has(w.toLowerCase()));
  const total = latinWords(text).length;
  if (markers.length >= 2 || (markers.length === 1 && total <= 4)) return [...new Set(markers)];
  return [];
}

/** A length budget from copy-rules.json: which keys it covers, and how long their texts may be. */
export interface LengthBudget {
  what: string;
  keys: string[];
  maxLength?: number;
  maxWordLength?: number;
  why?: string;
}

/** `*` matches one part of a key (between dots), `**` any number of parts. */
export function keyGlob(glob: string): RegExp {
  const source = glob
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^.]*"),
    )
    .join(".*");
  return new RegExp(`^${source}$`);
}

/** Characters that take no room of their own: soft hyphens, zero-width (non-)joiners and marks, combining marks. */
const INVISIBLE = /[\u00AD\u200B-\u200F\u2066-\u2069]|\p{M}/gu;

/** Length of a text as a reader sees it: placeholders count as 8 characters, invisible ones as nothing. */
export const visibleLength = (text: string) => [...text.replace(PLACEHOLDER, "xxxxxxxx").replace(INVISIBLE, "")].length;

/** The longest word (a run without spaces, soft hyphens or hyphens to break at). */
export function longestWord(text: string): string {
  const words = text.replace(PLACEHOLDER, "xxxxxxxx").split(/[\s\u00AD\-–—/]+/);
  const size = (w: string) => visibleLength(w);
  return words.reduce((a, b) => (size(b) > size(a) ? b : a), "");
}

/** A line break of any kind (CR, LF, NEL, vertical tab, form feed, the Unicode line and paragraph separators). */
export const LINE_BREAK = /[\n\v\f\r\u0085\u2028\u2029]/;

/** The content fields that hold paragraphs (a testimonial's text, a team member's bio): every other text is one line. */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(["content", "bio"]);

/** Whether a text may span lines: only a paragraph field of a content entry ("testimonials:sara-rahimi.content"). */
export const isMultilineKey = (key: string) => key.includes(":") && MULTILINE_FIELDS.has(key.split(".").at(-1)!);

/** A text on one line: every run of line breaks and other control characters becomes one space. */
export const oneLine = (text: string) =>
  text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, " ")
    .replace(/ {2,}/g, " ")
    .trim();
