/**
 * The content editor's logic, without React: the live copy checks (the same text rules as
 * `npm run check:copy` and the API), search across keys and three languages, the per-language
 * overview, and the preview's substitution of unsaved texts into a built page.
 */
import type { ContentAnswer } from "#shared/api/content.ts";
import type { TextAddress } from "#shared/api/common.ts";
import { LANGUAGES, SOURCE_LANGUAGE, type Language } from "#shared/languages.ts";
import { allowedWords, checkText, compileBudgets, scriptOf, type TextProblem } from "#shared/text-checks.ts";
import { placeholdersOf, toPersianLetters } from "#shared/text-rules.ts";
import { glossaryOf } from "#src/i18n/glossary.ts";

export const LANGS = LANGUAGES;
export type Lang = Language;

/** "nl:hero.title": the id of one text in one language (the API's field name for it). */
export const fieldId = (a: TextAddress) => `${a.lang}:${a.key}`;
/** The element id of a text's field, for links from messages ("Go to the text"). */
export const inputId = (a: TextAddress) => `text-${a.lang}-${a.key.replace(/[^\w-]/g, "_")}`;

export type Drafts = Readonly<Record<string, string>>;

/** The text as the editor sees it now: the draft when there is one, else as loaded. */
export const current = (data: ContentAnswer, drafts: Drafts, a: TextAddress) =>
  drafts[fieldId(a)] ?? data.texts[a.lang]?.[a.key] ?? "";

/** Persian is written with Persian letters: Arabic ي, ك and digits are replaced as the editor types. */
export const normaliseInput = (lang: string, value: string) =>
  scriptOf(lang) === "persian" ? toPersianLetters(value) : value;

/** The checks of one text as it is now (the English's placeholders as loaded are what the page fills in). */
export function liveProblems(data: ContentAnswer, drafts: Drafts, a: TextAddress): TextProblem[] {
  const content = a.key.includes(":");
  const english = current(data, drafts, { lang: SOURCE_LANGUAGE, key: a.key });
  const loadedEnglish = data.texts[SOURCE_LANGUAGE][a.key] ?? "";
  return checkText(
    {
      lang: a.lang,
      key: a.key,
      value: current(data, drafts, a),
      source: content ? "content" : "locale",
      label: labelOf(data, a.key),
    },
    {
      english,
      filled: a.lang === SOURCE_LANGUAGE && !content ? new Set(["brand", ...placeholdersOf(loadedEnglish)]) : null,
      allowed: allowedWords(data.rules, a.lang),
      budgets: compiledBudgets(data),
      glossary: glossaryOf(a.lang),
    },
  );
}

const budgetCache = new WeakMap<ContentAnswer, ReturnType<typeof compileBudgets>>();
const compiledBudgets = (data: ContentAnswer) => {
  let found = budgetCache.get(data);
  if (!found) budgetCache.set(data, (found = compileBudgets(data.rules)));
  return found;
};

/** "Sara Rahimi → content" for a testimonial's or team member's text. */
export function labelOf(data: ContentAnswer, key: string): string | undefined {
  const [collection, rest] = key.split(":");
  if (!rest) return undefined;
  const [id, field] = rest.split(".");
  const items = data.collections[collection as "testimonials" | "team"] ?? [];
  return `${items.find((i) => i.id === id)?.label ?? id} → ${field}`;
}

/** Every key the editor edits: the outline's, then the testimonials' and the team's. */
export function allKeys(data: ContentAnswer): string[] {
  return [
    ...data.pages.flatMap((p) => p.sections.flatMap((s) => s.keys)),
    ...[...data.collections.testimonials, ...data.collections.team].flatMap((i) => Object.values(i.fields)),
  ];
}

/** Lower case, without soft hyphens and direction marks, Arabic letters as Persian: what a search compares. */
const folded = (text: string) =>
  toPersianLetters(text)
    .replace(/[\u00AD\u200B-\u200F\u2066-\u2069]/g, "")
    .toLocaleLowerCase();

/**
 * The keys whose key or text in any language holds every word of the query. A text is found by its
 * published words as well as by its draft: typing in a text found by its words keeps it in the results.
 */
export function search(data: ContentAnswer, drafts: Drafts, query: string): string[] {
  const words = folded(query).split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  return allKeys(data).filter((key) => {
    const haystack = folded(
      [
        key,
        labelOf(data, key) ?? "",
        ...LANGS.flatMap((lang) => [data.texts[lang]?.[key] ?? "", drafts[fieldId({ lang, key })] ?? ""]),
      ].join("\n"),
    );
    return words.every((w) => haystack.includes(w));
  });
}

export interface LanguageCounts {
  missing: number;
  review: number;
  problems: number;
}

/** Per language: texts missing (empty), translations waiting for review, texts with a problem. */
export function overview(data: ContentAnswer, drafts: Drafts): Record<Lang, LanguageCounts> {
  const out = Object.fromEntries(LANGS.map((l) => [l, { missing: 0, review: 0, problems: 0 }])) as Record<
    Lang,
    LanguageCounts
  >;
  for (const key of allKeys(data))
    for (const lang of LANGS) {
      const value = current(data, drafts, { lang, key });
      if (!value.trim()) out[lang].missing++;
      else if (liveProblems(data, drafts, { lang, key }).length) out[lang].problems++;
    }
  for (const r of data.reviews) if (r.lang in out) out[r.lang as Lang].review++;
  return out;
}

// ---- Preview ----------------------------------------------------------------------------------

/** The pages the preview shows, and which texts are on which (by the key's section). */
export const PREVIEW_PAGES = ["/", "/startup-visa", "/business-launchpad", "/startup-studio", "/privacy"] as const;

export function pageOfKey(key: string): (typeof PREVIEW_PAGES)[number] {
  if (key.startsWith("servicesPage.startupVisa")) return "/startup-visa";
  if (key.startsWith("servicesPage.businessLaunchpad")) return "/business-launchpad";
  if (key.startsWith("servicesPage.startupStudio")) return "/startup-studio";
  if (key.startsWith("privacy.")) return "/privacy";
  return "/";
}

/** What a browser shows of a text, without soft hyphens, isolation marks and repeated spaces. */
const visible = (text: string) => text.replace(/[\u00AD\u200B-\u200F\u2066-\u2069]/g, "").replace(/\s+/g, " ");

/**
 * A pattern finding a text as the page renders it: {{brand}} is the brand, any other placeholder
 * whatever the page filled in (captured, so the new text gets the same values).
 */
function renderedPattern(text: string, brand: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = visible(text)
    .trim()
    .split(/(\{\{\s*[\w.-]+\s*\}\})/)
    .map((part, i) => {
      if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const name = part.replace(/[{}\s]/g, "");
      if (name === "brand") return brand.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(name);
      return "(.+?)";
    })
    .join("");
  return { pattern: new RegExp(`^\\s*${source}\\s*$`), names };
}

function rendered(text: string, values: Record<string, string>, brand: string, lang: string): string {
  const out = text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) =>
    name === "brand" ? brand : (values[name] ?? whole),
  );
  // Without the site's isolation of Latin and number runs in Persian (shared/format.ts): importing it
  // here would move it into the chunk the public islands share. Only where such a run sits differs.
  void lang;
  return out;
}

/** A change to show in the preview: the text as built and as the editor has it now. */
export interface PreviewChange {
  key: string;
  was: string;
  now: string;
}

/**
 * Puts the unsaved texts into a built page's document: every text node and text attribute showing the
 * old text shows the new one, and its element is marked `data-preview-changed`. Returns how many
 * places changed.
 */
export function substitute(doc: Document, changes: readonly PreviewChange[], brand: string, lang: string): number {
  let count = 0;
  const replacers = changes
    .filter((c) => c.was.trim() && c.was !== c.now)
    .map((c) => {
      const { pattern, names } = renderedPattern(c.was, brand);
      // A whole text node or attribute: the site renders each text on its own.
      return (text: string) => {
        const match = pattern.exec(visible(text));
        if (!match) return null;
        const values = Object.fromEntries(names.map((n, i) => [n, match[i + 1]]));
        // The node's own spaces around the text stay: they part it from its neighbours ("bedrijf naar").
        const [lead] = /^\s*/.exec(text)!;
        const [trail] = /\s*$/.exec(text)!;
        return `${lead}${rendered(c.now, values, brand, lang).trim()}${trail}`;
      };
    });
  if (!replacers.length) return 0;
  const apply = (text: string) => {
    let out: string | null = null;
    for (const replace of replacers) out = replace(out ?? text) ?? out;
    return out;
  };
  const walker = doc.createTreeWalker(doc.body ?? doc.documentElement, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  while (walker.nextNode()) nodes.push(walker.currentNode as Text);
  for (const node of nodes) {
    if (!node.nodeValue?.trim()) continue;
    const next = apply(node.nodeValue);
    if (next === null) continue;
    node.nodeValue = next;
    node.parentElement?.setAttribute("data-preview-changed", "");
    count++;
  }
  for (const el of doc.querySelectorAll("[alt], [aria-label], [title], [placeholder]"))
    for (const name of ["alt", "aria-label", "title", "placeholder"]) {
      const value = el.getAttribute(name);
      const next = value ? apply(value) : null;
      if (next === null) continue;
      el.setAttribute(name, next);
      el.setAttribute("data-preview-changed", "");
      count++;
    }
  const title = doc.querySelector("title");
  if (title?.textContent) {
    const next = apply(title.textContent);
    if (next !== null) title.textContent = next;
  }
  return count;
}

/**
 * Moves every `style` attribute of a built page into rules of a stylesheet (returned): the admin's
 * Content-Security-Policy, which governs the preview's frames, refuses inline style attributes, while
 * a stylesheet adopted through the CSS object model is allowed.
 */
export function styleAttributesToSheet(doc: Document): string {
  const rules: string[] = [];
  doc.querySelectorAll("[style]").forEach((el, i) => {
    const css = el.getAttribute("style") ?? "";
    el.removeAttribute("style");
    if (!css.trim() || /[{}]/.test(css)) return; // a declaration list only: nothing that ends the rule
    el.setAttribute("data-preview-style", String(i));
    rules.push(`[data-preview-style="${i}"]{${css}}`);
  });
  return rules.join("\n");
}

const STYLE_CARRIER = "text/x-preview-style";

/**
 * Parses a built page without letting its `<style>` elements become style elements: a document
 * DOMParser makes inherits the admin page's Content-Security-Policy, which refuses each inline
 * `<style>` (a console error, though nothing shows). They are parsed as inert scripts instead (raw
 * text, as CSS is) and returned, to be adopted as constructed stylesheets.
 */
export function parseBuiltPage(html: string): { doc: Document; styles: string[] } {
  const carried = html
    .replace(/<style(?=[\s>])/gi, `<script type="${STYLE_CARRIER}"`)
    .replace(/<\/style\s*>/gi, "</script>");
  const doc = new DOMParser().parseFromString(carried, "text/html");
  const styles = [...doc.querySelectorAll(`script[type="${STYLE_CARRIER}"]`)].map((el) => el.textContent ?? "");
  return { doc, styles };
}
