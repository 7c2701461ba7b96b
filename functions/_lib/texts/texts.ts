/**
 * The site's texts as the content editor sees and changes them: the three locale files, the
 * testimonials and the team (their groups by language), and the review record. Works on file
 * texts in memory (path → text), so it serves the local working copy and GitHub's API alike.
 *
 * A change is written into the file where the old text stood (the string token is replaced, nothing
 * else moves), so a one-text change is a one-line diff.
 */
import { createHash } from "node:crypto";
import { englishLanguageName, LANGUAGES } from "#shared/languages.ts";
import type { ContentItem, ContentPage, CopyRulesAnswer, ReviewFlagAnswer, TextChange } from "#shared/api/content.ts";
import type { TextAddress } from "#shared/api/common.ts";
import { parseJsonSource, toPlain, type JsonNode, type JsonString } from "./json-source.ts";
import {
  emptyRecord,
  fingerprint,
  reviewFlags,
  serializeRecord,
  TRANSLATED,
  type ReviewRecord,
  type Translated,
} from "./review.ts";
import {
  allowedWords,
  checkText,
  compileBudgets,
  scriptOf,
  SOURCE_LANG,
  type CopyRules,
  type TextProblem,
} from "#shared/text-checks.ts";
import { oneLine, placeholdersOf, toPersianLetters } from "#shared/text-rules.ts";
import { glossaryOf } from "#src/i18n/glossary.ts";
import { outline } from "./groups.ts";

export const LANGS = LANGUAGES;

/** The files the editor reads, relative to the repository root. */
export const CONTENT_PATHS = {
  locale: (lang: string) => `src/i18n/locales/${lang}.json`,
  reviewed: "src/i18n/reviewed.json",
  rules: "src/i18n/copy-rules.json",
  collections: { testimonials: "src/data/testimonials.json", team: "src/data/team.json" },
} as const;

export const ALL_PATHS = [
  ...LANGS.map(CONTENT_PATHS.locale),
  CONTENT_PATHS.reviewed,
  CONTENT_PATHS.rules,
  ...Object.values(CONTENT_PATHS.collections),
];

export type Files = ReadonlyMap<string, string>;
type Collection = keyof typeof CONTENT_PATHS.collections;

/** A file's revision: its git blob id, the same id GitHub's API answers as the file's `sha`. */
export const revisionOf = (text: string) => {
  const body = Buffer.from(text, "utf8");
  return createHash("sha1").update(`blob ${body.length}\0`).update(body).digest("hex");
};

/** Where one text sits: its file and the string token holding it (absent: a translation not written yet). */
interface Located extends TextAddress {
  file: string;
  value: string;
  node: JsonString;
}

/** What parseTexts answers: shared by every caller that read the same files, so read-only. */
interface Parsed {
  /** lang → key → text. */
  readonly texts: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly located: ReadonlyMap<string, Located>;
  readonly collections: Record<Collection, ContentItem[]>;
  readonly record: Readonly<ReviewRecord>;
  readonly rules: Readonly<CopyRules>;
  readonly en: object;
}

const id = (a: TextAddress) => `${a.lang}:${a.key}`;

/** A map from outside data: no prototype, so no key ("toString", "__proto__") finds anything it did not set. */
const dict = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/** Key parts that reach an object's prototype: never a text's name, refused wherever a key is split. */
export const FORBIDDEN_KEY_PARTS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Whether a key names a prototype anywhere in it ("__proto__.x", "hero.constructor", "testimonials:__proto__.x"). */
export const isForbiddenKey = (key: string) => key.split(/[.:]/).some((part) => FORBIDDEN_KEY_PARTS.has(part));

/**
 * Refuses (UnknownTextError) every key that is not a text of the English files or that names a
 * prototype, before anything is applied: nothing is written for a request with one bad key.
 */
export function assertKnownTexts(parsed: Parsed, texts: readonly TextAddress[]) {
  for (const t of texts) if (!isKnownText(parsed, t.key)) throw new UnknownTextError(t.key);
}

/** Whether `key` is a text of the site (an own key of the English texts, no prototype part). */
export const isKnownText = (parsed: Parsed, key: string) =>
  !isForbiddenKey(key) && Object.hasOwn(parsed.texts[SOURCE_LANG], key);

/**
 * The last parses, with the files' texts they were made from. The editor's load, a save's "before" and
 * its answer each parse the same files again, and a parse of the six files is 50–300 ms of CPU; a warm
 * function answers these from here. Compared text by text, so a changed file is always parsed again.
 */
const parses: { texts: (string | undefined)[]; parsed: Parsed }[] = [];
const PARSES_KEPT = 4;

/**
 * Reads every text of the files (which must parse: they are the site's committed files). The same
 * texts give the same object, so nobody may change what this answers.
 */
export function parseTexts(files: Files): Parsed {
  const key = ALL_PATHS.map((p) => files.get(p));
  const at = parses.findIndex((k) => k.texts.every((text, i) => text === key[i]));
  if (at >= 0) {
    const [hit] = parses.splice(at, 1);
    parses.unshift(hit);
    return hit.parsed;
  }
  const parsed = parseAll(files);
  parses.unshift({ texts: key, parsed });
  parses.length = Math.min(parses.length, PARSES_KEPT);
  return parsed;
}

function parseAll(files: Files): Parsed {
  const texts = dict<Record<string, string>>();
  for (const lang of LANGS) texts[lang] = dict<string>();
  const located = new Map<string, Located>();
  const file = (path: string) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`${path} was not read`);
    return parseJsonSource(text).root;
  };
  let en: object = {};
  for (const lang of LANGS) {
    const path = CONTENT_PATHS.locale(lang);
    const root = file(path);
    if (lang === SOURCE_LANG) en = toPlain(root) as object;
    const walk = (node: JsonNode, prefix: string) => {
      if (node.kind === "string") {
        texts[lang][prefix] = node.value;
        located.set(id({ lang, key: prefix }), { lang, key: prefix, file: path, value: node.value, node });
      } else if (node.kind === "object")
        for (const p of node.properties) walk(p.value, prefix ? `${prefix}.${p.key}` : p.key);
    };
    walk(root, "");
  }
  const collections = { testimonials: [], team: [] } as Record<Collection, ContentItem[]>;
  for (const [collection, path] of Object.entries(CONTENT_PATHS.collections) as [Collection, string][]) {
    const root = file(path);
    if (root.kind !== "array") continue;
    root.items.forEach((item, index) => {
      if (item.kind !== "object") return;
      const plain = toPlain(item) as { id?: string; author?: { en?: string }; name?: { en?: string } };
      const itemId = plain.id ?? String(index + 1);
      const entry: ContentItem = {
        id: itemId,
        label: plain.author?.en ?? plain.name?.en ?? itemId,
        fields: {},
      };
      for (const p of item.properties) {
        const group = p.value;
        if (group.kind !== "object" || !group.properties.length) continue;
        if (!group.properties.every((q) => (LANGS as readonly string[]).includes(q.key))) continue;
        const key = `${collection}:${itemId}.${p.key}`;
        entry.fields[p.key] = key;
        for (const q of group.properties)
          if (q.value.kind === "string") {
            texts[q.key][key] = q.value.value;
            located.set(id({ lang: q.key, key }), {
              lang: q.key,
              key,
              file: path,
              value: q.value.value,
              node: q.value,
            });
          }
      }
      collections[collection].push(entry);
    });
  }
  const record = { ...emptyRecord(), ...(toPlain(file(CONTENT_PATHS.reviewed)) as Partial<ReviewRecord>) };
  const rules = { keepInEnglish: {}, lengthBudgets: [], ...(toPlain(file(CONTENT_PATHS.rules)) as Partial<CopyRules>) };
  return { texts, located, collections, record, rules, en };
}

/** Page → section → keys, from the English locale file's structure (no field list). */
export const pagesOf = (parsed: Parsed): ContentPage[] =>
  outline(parsed.en as Parameters<typeof outline>[0]).map((p) => ({
    name: p.name,
    sections: p.sections.map((s) => ({ name: s.name, keys: s.texts.map((t) => t.key) })),
  }));

/** Which Dutch and Persian texts wait for a look because their English changed (or were never reviewed). */
export function reviewsOf(parsed: Parsed): ReviewFlagAnswer[] {
  const english = new Map(Object.entries(parsed.texts[SOURCE_LANG]));
  const translated = Object.fromEntries(
    TRANSLATED.map((lang) => [lang, new Set(Object.keys(parsed.texts[lang]))]),
  ) as Record<Translated, Set<string>>;
  return reviewFlags(english, translated, parsed.record).map(({ lang, key, reason }) => ({ lang, key, reason }));
}

export const rulesOf = (parsed: Parsed): CopyRulesAnswer => parsed.rules;

/** A text the changes name that does not exist in English (a mistyped or removed key). */
export class UnknownTextError extends Error {}

/** Changes whose text another editor changed since they were loaded. */
export interface Conflict extends TextAddress {
  yours: string;
  theirs: string;
}

/**
 * The changes against the files as they are now: those whose text someone else changed meanwhile
 * (to something else than this change) are conflicts; the others apply, whatever else changed.
 */
export function conflictsOf(parsed: Parsed, changes: readonly TextChange[]): Conflict[] {
  const out: Conflict[] = [];
  for (const c of changes) {
    const theirs = (Object.hasOwn(parsed.texts, c.lang) ? parsed.texts[c.lang][c.key] : undefined) ?? "";
    if (theirs !== c.was && theirs !== c.value) out.push({ lang: c.lang, key: c.key, yours: c.value, theirs });
  }
  return out;
}

/** Persian texts written with Arabic ي, ك or digits get the Persian letters; others stay as typed. */
export const normalise = (c: TextAddress & { value: string }) =>
  scriptOf(c.lang) === "persian" ? { ...c, value: toPersianLetters(c.value) } : c;

/**
 * The copy check of the texts a save touches: each changed text, and the translations of each changed
 * English text (a placeholder added or removed in English breaks them). Field → messages, errors and
 * warnings alike (a warning fails the site's tests, so it is not published either).
 */
export function checkChanges(before: Parsed, after: Parsed, changes: readonly TextAddress[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const budgets = compileBudgets(after.rules);
  const touched = new Map<string, TextAddress>();
  assertKnownTexts(before, changes);
  for (const c of changes) {
    touched.set(id(c), c);
    if (c.lang === SOURCE_LANG)
      for (const lang of LANGS) if (lang !== SOURCE_LANG) touched.set(id({ lang, key: c.key }), { lang, key: c.key });
  }
  for (const t of touched.values()) {
    const value = after.texts[t.lang]?.[t.key];
    const content = t.key.includes(":");
    const english = after.texts[SOURCE_LANG][t.key];
    // The page fills in what the English filled before: a new placeholder in English would show as written.
    const filled =
      t.lang === SOURCE_LANG && !content
        ? new Set(["brand", ...placeholdersOf(before.texts[SOURCE_LANG][t.key] ?? "")])
        : null;
    const found: TextProblem[] = checkText(
      {
        lang: t.lang,
        key: t.key,
        value: value ?? "",
        source: content ? "content" : "locale",
        label: labelOf(after, t.key),
      },
      { english, filled, allowed: allowedWords(after.rules, t.lang), budgets, glossary: glossaryOf(t.lang) },
    );
    if (found.length) errors[id(t)] = found.map((p) => p.message);
  }
  return errors;
}

function labelOf(parsed: Parsed, key: string): string | undefined {
  const [collection, rest] = key.split(":");
  if (!rest) return undefined;
  const [itemId, field] = rest.split(".");
  const item = parsed.collections[collection as Collection]?.find((i) => i.id === itemId);
  return `${item?.label ?? itemId} → ${field}`;
}

/** The files with the changes written in (only the files that change are returned). */
export function applyChanges(files: Files, parsed: Parsed, changes: readonly (TextAddress & { value: string })[]) {
  assertKnownTexts(parsed, changes);
  const edits = new Map<string, { node: JsonString; value: string }[]>();
  const inserts: (TextAddress & { value: string })[] = [];
  for (const c of changes) {
    const at = parsed.located.get(id(c));
    if (!at) {
      if (c.key.includes(":")) throw new UnknownTextError(c.key);
      inserts.push(c);
      continue;
    }
    if (at.value === c.value) continue;
    const list = edits.get(at.file) ?? [];
    list.push({ node: at.node, value: c.value });
    edits.set(at.file, list);
  }
  const out = new Map<string, string>();
  for (const [path, list] of edits) {
    let text = files.get(path)!;
    for (const { node, value } of list.sort((a, b) => b.node.start - a.node.start))
      text = text.slice(0, node.start) + JSON.stringify(value) + text.slice(node.end);
    out.set(path, text);
  }
  // A translation that was missing: the file is written again in the English file's order.
  for (const lang of new Set(inserts.map((c) => c.lang))) {
    const path = CONTENT_PATHS.locale(lang);
    const current = toPlain(parseJsonSource(out.get(path) ?? files.get(path)!).root) as Record<string, unknown>;
    for (const c of inserts.filter((i) => i.lang === lang)) setPath(current, c.key.split("."), c.value);
    out.set(path, `${JSON.stringify(orderLike(current, parsed.en), null, 2)}\n`);
  }
  return out;
}

/** Writes `value` at `parts` (own properties only; a prototype key part is refused, never walked). */
function setPath(tree: Record<string, unknown>, parts: string[], value: string) {
  if (parts.some((part) => FORBIDDEN_KEY_PARTS.has(part))) throw new UnknownTextError(parts.join("."));
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(node, part) ? node[part] : undefined;
    if (typeof next !== "object" || next === null || Array.isArray(next))
      Object.defineProperty(node, part, { value: {}, enumerable: true, writable: true, configurable: true });
    node = node[part] as Record<string, unknown>;
  }
  Object.defineProperty(node, parts.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
}

function orderLike(value: unknown, model: unknown): unknown {
  if (!value || typeof value !== "object" || !model || typeof model !== "object") return value;
  const record = value as Record<string, unknown>;
  const keys = [
    ...Object.keys(model).filter((k) => Object.hasOwn(record, k)),
    ...Object.keys(record).filter((k) => !Object.hasOwn(model, k)),
  ];
  return Object.fromEntries(keys.map((k) => [k, orderLike(record[k], (model as Record<string, unknown>)[k])]));
}

/**
 * reviewed.json after a save or a "mark reviewed": the named translations are recorded as reviewed
 * against the current English. A translation saved by an editor counts as looked at.
 */
export function reviewedFile(parsed: Parsed, texts: readonly TextAddress[]): string | null {
  const english = parsed.texts[SOURCE_LANG];
  const next = Object.fromEntries(
    TRANSLATED.map((lang) => [lang, Object.assign(dict<string>(), parsed.record[lang])]),
  ) as ReviewRecord;
  let changed = false;
  for (const t of texts) {
    if (!(TRANSLATED as readonly string[]).includes(t.lang) || isForbiddenKey(t.key) || !Object.hasOwn(english, t.key))
      continue;
    next[t.lang as Translated][t.key] = fingerprint(english[t.key]);
    changed = true;
  }
  if (!changed) return null;
  // Sorted, one key per line (as `npm run check:copy -- --reviewed` writes it); other entries kept as they are.
  for (const lang of TRANSLATED)
    next[lang] = Object.fromEntries(Object.entries(next[lang]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return serializeRecord(next);
}

/** "Texts: hero.title (Dutch), Sara Rahimi → content (Persian)" (at most five named). */
export function commitMessage(parsed: Parsed, changes: readonly TextAddress[], verb = "Texts"): string {
  // Every part on one line: a name with a line break must not add a line (a trailer such as Signed-off-by:).
  const named = changes.map((c) => oneLine(`${labelOf(parsed, c.key) ?? c.key} (${englishLanguageName(c.lang)})`));
  const shown = named.slice(0, 5).join(", ");
  return `${verb}: ${shown}${named.length > 5 ? ` and ${named.length - 5} more` : ""}\n\nChanged in the content editor.`;
}

/** The text on `line` of `path` (where a build's refusal points), or null. */
export function textAtLine(files: Files, path: string, line: number): TextAddress | null {
  if (!files.has(path)) return null;
  try {
    for (const at of parseTexts(files).located.values())
      if (at.file === path && at.node.line === line) return { lang: at.lang, key: at.key };
  } catch {
    return null;
  }
  return null;
}
