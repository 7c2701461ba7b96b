/**
 * The checks of one text in one language, in plain words: empty, placeholders, HTML, Arabic letters
 * in Persian, English left in a translation, the glossary's terms, length budgets. Pure (no Node, no file access), so the
 * copy check, the content API and the content editor in the browser say the same thing about a text.
 */
import {
  arabicLettersIn,
  ARABIC_TO_PERSIAN,
  brokenPlaceholders,
  htmlIn,
  isMultilineKey,
  keyGlob,
  LINE_BREAK,
  longestWord,
  placeholdersOf,
  suspectedEnglish,
  visibleLength,
  type LengthBudget,
} from "./text-rules.ts";
import { glossaryHits, glossaryMessage, type CompiledGlossaryEntry } from "./glossary.ts";
import { englishLanguageName, isLanguage, LANGUAGE_INFO, SOURCE_LANGUAGE } from "./languages.ts";

/** The language the others are translated from (languages.ts). */
export const SOURCE_LANG = SOURCE_LANGUAGE;
/** A language's English name, as the messages name it ("Dutch"). */
export const langName = (lang: string) => englishLanguageName(lang);
/** The script a language of the site is written in (languages.ts); null for a file of another language. */
export const scriptOf = (lang: string) => (isLanguage(lang) ? LANGUAGE_INFO[lang].script : null);

/** The copy rules file (src/i18n/copy-rules.json). */
export interface CopyRules {
  keepInEnglish: Record<string, string[]>;
  lengthBudgets: LengthBudget[];
}

export type TextRule =
  "empty" | "placeholder" | "html" | "line-break" | "arabic-letters" | "english" | "glossary" | "length";

export interface TextProblem {
  severity: "error" | "warning";
  rule: TextRule;
  message: string;
}

/** One text to check. */
export interface CheckedText {
  lang: string;
  key: string;
  value: string;
  /** "locale": a locale file (placeholders are filled in); "content": a content file (shown as written). */
  source: "locale" | "content";
  /** How an editor recognises a content entry: "Sara Rahimi → content". */
  label?: string;
}

/** What the checks of one text need to know besides the text. */
export interface TextContext {
  /** The English text of the same key (for a translation). */
  english?: string;
  /**
   * For an English locale text: the placeholders its page fills in, or null when that is not known
   * (the copy check reads the code; the content API compares with the English as it was).
   */
  filled?: ReadonlySet<string> | null;
  /** Words that may stay in English in this language (names, brands; lower case). */
  allowed: ReadonlySet<string>;
  budgets: readonly CompiledBudget[];
  /** The glossary of the text's language (src/i18n/glossary.<lang>.json), compiled; none when absent. */
  glossary?: readonly CompiledGlossaryEntry[];
}

export type CompiledBudget = LengthBudget & { patterns: RegExp[] };

/** The length budgets with their key patterns compiled. */
export const compileBudgets = (rules: CopyRules): CompiledBudget[] =>
  rules.lengthBudgets.map((b) => ({ ...b, patterns: (b.keys ?? []).map(keyGlob) }));

/** keepInEnglish of one language, lower-cased. */
export const allowedWords = (rules: CopyRules, lang: string): ReadonlySet<string> =>
  new Set((rules.keepInEnglish[lang] ?? []).map((w) => String(w).toLowerCase()));

const list = (names: readonly string[]) => names.map((p) => `{{${p}}}`).join(", ");

/** Everything wrong with one text, in plain words (empty when it is in order). */
export function checkText(e: CheckedText, ctx: TextContext): TextProblem[] {
  const problems: TextProblem[] = [];
  const report = (severity: TextProblem["severity"], rule: TextRule, message: string) =>
    problems.push({ severity, rule, message });
  const name = e.source === "content" ? `${e.label} (${langName(e.lang)})` : `“${e.key}”`;
  if (!e.value.trim()) {
    report("error", "empty", `${name} is empty. Write the ${langName(e.lang)} text.`);
    return problems;
  }
  for (const b of brokenPlaceholders(e.value)) {
    const inner = b.replace(/[{}]/g, "").trim();
    report(
      "error",
      "placeholder",
      e.source === "content"
        ? `${name} contains “${b}”. Content texts are shown exactly as written: remove the braces.`
        : /^\w+$/.test(inner)
          ? `${name} has “${b}”: a placeholder needs two braces on each side, {{${inner}}}. As it is, visitors would see “${b}”.`
          : `${name} has a stray “${b}”. Placeholders are written {{name}}; other braces are not allowed.`,
    );
  }
  if (e.source === "content") {
    for (const p of placeholdersOf(e.value))
      report(
        "error",
        "placeholder",
        `${name} contains {{${p}}}, but content texts are shown exactly as written. Write the text out instead.`,
      );
  } else if (e.lang === SOURCE_LANG) {
    if (ctx.filled)
      for (const p of new Set(placeholdersOf(e.value)))
        if (!ctx.filled.has(p))
          report(
            "error",
            "placeholder",
            `${name} uses {{${p}}}, but the page fills in only ${list([...ctx.filled])}: visitors would see “{{${p}}}”. Placeholder names stay exactly as they are.`,
          );
  } else if (ctx.english !== undefined) {
    const want = new Set(placeholdersOf(ctx.english));
    const have = new Set(placeholdersOf(e.value));
    const extra = [...have].filter((p) => !want.has(p));
    const lacking = [...want].filter((p) => !have.has(p));
    if (extra.length || lacking.length)
      report(
        "error",
        "placeholder",
        extra.length && lacking.length
          ? `${name} has ${list(extra)} where the English has ${list(lacking)}. Placeholders are never translated: write ${list(lacking)}.`
          : extra.length
            ? `${name} has ${list(extra)}, which the English does not have; visitors would see it as written. Remove it.`
            : `${name} lacks ${list(lacking)}, which the English has; that part would be missing from the page. Add it.`,
      );
  }
  const html = htmlIn(e.value);
  if (html)
    report(
      "error",
      "html",
      `${name} contains HTML (“${html}”). The site shows texts exactly as written, so visitors would see the code. Remove it${html.startsWith("&") ? " and type the character itself" : ""}.`,
    );
  // A title, a name or an email's subject is one line: a break there is never shown, and in a header or
  // a commit message it would start a line of its own.
  if (LINE_BREAK.test(e.value) && !isMultilineKey(e.key))
    report("error", "line-break", `${name} must be on one line: remove the line break.`);
  const script = scriptOf(e.lang);
  if (script === "persian") {
    const arabic = arabicLettersIn(e.value);
    if (arabic.length)
      report(
        "error",
        "arabic-letters",
        `${name} is written with ${arabic.map((ch) => `the ${ARABIC_TO_PERSIAN[ch].name}`).join(", ")}. Search engines and search boxes treat them as different letters. Run \`npm run check:copy -- --fix\` to replace them all.`,
      );
  }
  if (e.lang !== SOURCE_LANG && script) {
    const words = suspectedEnglish(e.value, script, ctx.allowed);
    if (words.length)
      report(
        "warning",
        "english",
        `${name} looks ${script === "latin" ? "left in English" : "partly written in English"} (${words.map((w) => `“${w}”`).join(", ")}). Translate it; if ${words.length > 1 ? "these words are" : "this word is"} right as ${words.length > 1 ? "they are" : "it is"} (a name, a brand), add ${words.length > 1 ? "them" : "it"} to keepInEnglish.${e.lang} in src/i18n/copy-rules.json.`,
      );
  }
  // A term the team chose against (or the Dutch formal u) stops the build: one word per concept.
  for (const hit of glossaryHits(e.key, e.value, ctx.glossary ?? []))
    report("error", "glossary", glossaryMessage(name, hit));
  for (const budget of ctx.budgets) {
    if (!budget.patterns.some((p) => p.test(e.key))) continue;
    const length = visibleLength(e.value);
    const word = longestWord(e.value);
    if (budget.maxLength && length > budget.maxLength)
      report(
        "warning",
        "length",
        `${name} is ${length} characters; ${budget.what} hold at most ${budget.maxLength}${budget.why ? ` (${budget.why})` : ""}. Shorten it.`,
      );
    if (budget.maxWordLength && visibleLength(word) > budget.maxWordLength)
      report(
        "warning",
        "length",
        `${name}: “${word}” has ${visibleLength(word)} letters; words in ${budget.what} should have at most ${budget.maxWordLength}, or it is split across lines on a phone. Use a shorter word or two words.`,
      );
  }
  return problems;
}
