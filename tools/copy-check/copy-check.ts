/**
 * The copy check (`npm run check:copy`): reads the locale files, the content files and the code
 * that uses them, and reports every mistake an editor can make with the file, the line and the key,
 * in plain words. Offline, no build needed, a fraction of a second. Errors stop the build;
 * warnings let it run but fail `npm test`; review flags only inform.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { socialImagesFile, teamFile, testimonialsFile } from "#src/data/content-schema.ts";
import { isLanguage, LANGUAGES } from "#shared/languages.ts";
import { findKeyMentions, findKeyUses, usesKey, type KeyUse } from "./code-usage.ts";
import {
  JsonSyntaxError,
  lineNear,
  parseJsonSource,
  toPlain,
  type JsonNode,
} from "#functions/_lib/texts/json-source.ts";
import {
  emptyRecord,
  reviewFlags,
  TRANSLATED,
  type ReviewFlag,
  type ReviewRecord,
  type Translated,
} from "#functions/_lib/texts/review.ts";
import { toPersianLetters } from "#shared/text-rules.ts";
import { compileGlossary, parseGlossary, type CompiledGlossaryEntry } from "#shared/glossary.ts";
import {
  allowedWords,
  checkText,
  compileBudgets,
  langName,
  scriptOf,
  SOURCE_LANG,
  type CopyRules,
} from "#shared/text-checks.ts";

/** Where everything lives, relative to the project root. */
export const PATHS = {
  locales: "src/i18n/locales",
  rules: "src/i18n/copy-rules.json",
  /** Per language, the terms chosen and the variants ruled out (src/shared/glossary.ts). */
  glossary: (lang: string) => `src/i18n/glossary.${lang}.json`,
  reviewed: "src/i18n/reviewed.json",
  /** Where code that reads the locale files lives (pages and islands; the emails' templates). */
  code: ["src", "functions"],
  pages: "src/pages/[lang]",
  public: "public",
  content: {
    testimonials: "src/data/testimonials.json",
    team: "src/data/team.json",
    socialImages: "src/data/social-images.json",
  },
} as const;

export { SOURCE_LANG } from "#shared/text-checks.ts";

export type Severity = "error" | "warning";

export interface Problem {
  severity: Severity;
  /** Short name of the rule, for tests and filtering. */
  rule:
    | "syntax"
    | "duplicate-key"
    | "missing-key"
    | "extra-key"
    | "not-text"
    | "empty"
    | "unused-key"
    | "absent-key"
    | "placeholder"
    | "html"
    | "line-break"
    | "arabic-letters"
    | "english"
    | "glossary"
    | "length"
    | "content"
    | "image"
    | "rules-file";
  /** Repo-relative path. */
  file: string;
  line?: number;
  /** The key (locale files) or "collection:id.field" (content files). */
  key?: string;
  message: string;
}

/** One text in one language, wherever it lives. */
export interface TextEntry {
  file: string;
  lang: string;
  key: string;
  value: string;
  line: number;
  /** "locale": a locale JSON file; "content": a content file (texts are not interpolated there). */
  source: "locale" | "content";
  /** How an editor recognises a content entry: "Sara Rahimi → content". */
  label?: string;
}

export interface CopyReport {
  problems: Problem[];
  reviews: ReviewFlag[];
  /** Every text, for the editors' preview. */
  entries: TextEntry[];
  /** Languages found (en first). */
  languages: string[];
  /** Number of Arabic letters replaced by --fix. */
  fixed: number;
  durationMs: number;
}

export interface CheckOptions {
  root: string;
  /** Replace Arabic letters in Persian texts by their Persian forms, in the files. */
  fix?: boolean;
}

interface LoadedFile {
  file: string;
  text: string;
  root: JsonNode | null;
}

/** One run of the check: where it reads, and what it has found so far. */
class Run {
  readonly problems: Problem[] = [];
  /** Every text read, locale and content, for the text rules and the editors' preview. */
  readonly entries: TextEntry[] = [];
  /** Arabic letters replaced by --fix. */
  fixed = 0;

  readonly root: string;
  readonly fix: boolean;

  constructor(root: string, fix: boolean) {
    this.root = root;
    this.fix = fix;
  }

  abs(rel: string): string {
    return path.join(this.root, rel);
  }

  report(problem: Problem): void {
    this.problems.push(problem);
  }

  /**
   * Reads and parses a JSON file; a missing file, a syntax error or a key written twice is reported.
   * With --fix, `fixPersian` rewrites the text first (Arabic letters to Persian ones).
   */
  load(file: string, fixPersian?: (text: string, root: JsonNode) => string): LoadedFile {
    if (!existsSync(this.abs(file))) {
      this.report({ severity: "error", rule: "syntax", file, message: "This file is missing." });
      return { file, text: "", root: null };
    }
    let text = readFileSync(this.abs(file), "utf8");
    try {
      let { root: node, duplicates } = parseJsonSource(text);
      if (this.fix && fixPersian) {
        const next = fixPersian(text, node);
        if (next !== text) {
          const before = [...text];
          const after = [...next];
          this.fixed += before.filter((ch, i) => ch !== after[i]).length;
          writeFileSync(this.abs(file), next);
          text = next;
          ({ root: node, duplicates } = parseJsonSource(text));
        }
      }
      for (const d of duplicates)
        this.report({
          severity: "error",
          rule: "duplicate-key",
          file,
          line: d.line,
          key: d.key,
          message: `“${d.key}” appears twice in the same group (lines ${d.firstLine} and ${d.line}); only the second one would be used. Remove one of them.`,
        });
      return { file, text, root: node };
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      this.report({ severity: "error", rule: "syntax", file, line: error.line, message: error.message });
      return { file, text, root: null };
    }
  }
}

/** The locale files as read: their languages (English first) and each one's texts and groups by key. */
interface Locales {
  languages: string[];
  loaded: Map<string, LoadedFile>;
  flat: Map<string, { texts: Map<string, TextEntry>; groups: Map<string, number> }>;
  /** The source language's (English) texts and groups. */
  source: { texts: Map<string, TextEntry>; groups: Map<string, number> };
  /** Whether the source file could be read: without it, nothing is compared against it. */
  sourceOk: boolean;
}

/**
 * Runs every check, phase by phase: the rules file, the locale files (read, then compared with the
 * English), the content files, the keys the code uses, every text's own rules, the review flags.
 * Never throws for a mistake in the files: it reports it.
 */
export function checkCopy({ root, fix = false }: CheckOptions): CopyReport {
  const started = performance.now();
  const run = new Run(root, fix);
  const rules = readRules(run);
  const locales = readLocales(run);
  compareLocales(run, locales);
  checkContentFiles(run, locales.languages);
  const uses = checkKeyUses(run, locales);
  checkTexts(run, rules, uses, readGlossaries(run, locales.languages));
  const reviews = reviewFlagsOf(run);
  return {
    problems: run.problems,
    reviews,
    entries: run.entries,
    languages: locales.languages,
    fixed: run.fixed,
    durationMs: performance.now() - started,
  };
}

/** Phase 1: copy-rules.json, the words kept in English and the length budgets. */
function readRules(run: Run): CopyRules {
  const rules: CopyRules = { keepInEnglish: {}, lengthBudgets: [] };
  const rulesFile = run.load(PATHS.rules);
  if (rulesFile.root) {
    const plain = toPlain(rulesFile.root) as Partial<CopyRules>;
    if (plain.keepInEnglish && typeof plain.keepInEnglish === "object") rules.keepInEnglish = plain.keepInEnglish;
    if (Array.isArray(plain.lengthBudgets)) rules.lengthBudgets = plain.lengthBudgets;
    for (const [lang, words] of Object.entries(rules.keepInEnglish))
      if (!Array.isArray(words) || words.some((w) => typeof w !== "string"))
        run.report({
          severity: "error",
          rule: "rules-file",
          file: PATHS.rules,
          line: lineNear(rulesFile.root, ["keepInEnglish", lang]),
          message: `keepInEnglish.${lang} must be a list of words in double quotes, e.g. ["CEO", "LinkedIn"].`,
        });
  }
  return rules;
}

/** Phase 2: the locale files, English first; a value that is neither a text nor a group is reported. */
function readLocales(run: Run): Locales {
  const localeFiles = existsSync(run.abs(PATHS.locales))
    ? readdirSync(run.abs(PATHS.locales))
        .filter((f) => f.endsWith(".json"))
        .map((f) => f.slice(0, -5))
    : [];
  // English first, then Dutch and Persian (the site's order), then any other language alphabetically.
  const order = (l: string) => (isLanguage(l) ? LANGUAGES.indexOf(l) : 99);
  const languages = [
    SOURCE_LANG,
    ...localeFiles.filter((l) => l !== SOURCE_LANG).sort((a, b) => order(a) - order(b) || a.localeCompare(b)),
  ];
  const persianFix = (text: string) => toPersianLetters(text);
  const locales = new Map(
    languages.map((lang) => [
      lang,
      run.load(`${PATHS.locales}/${lang}.json`, scriptOf(lang) === "persian" ? persianFix : undefined),
    ]),
  );

  /** key → { value, line } for the texts of a locale file; groups → line. */
  const flat = new Map<string, { texts: Map<string, TextEntry>; groups: Map<string, number> }>();
  for (const [lang, loaded] of locales) {
    const texts = new Map<string, TextEntry>();
    const groups = new Map<string, number>();
    flat.set(lang, { texts, groups });
    if (!loaded.root) continue;
    if (loaded.root.kind !== "object") {
      run.report({
        severity: "error",
        rule: "not-text",
        file: loaded.file,
        line: 1,
        message: "A locale file must be one group { … } of keys.",
      });
      continue;
    }
    const walk = (node: JsonNode, prefix: string, line: number) => {
      if (node.kind === "string") {
        texts.set(prefix, { file: loaded.file, lang, key: prefix, value: node.value, line, source: "locale" });
      } else if (node.kind === "object") {
        if (prefix) groups.set(prefix, line);
        for (const p of node.properties) walk(p.value, prefix ? `${prefix}.${p.key}` : p.key, p.line);
      } else {
        run.report({
          severity: "error",
          rule: "not-text",
          file: loaded.file,
          line,
          key: prefix,
          message: `“${prefix}” must be a text in double quotes (or a group { … }), not ${node.kind === "array" ? "a list" : node.kind === "number" ? "a number" : String(node.value)}.`,
        });
      }
    };
    walk(loaded.root, "", 1);
  }
  const source = flat.get(SOURCE_LANG)!;
  const sourceOk = !!locales.get(SOURCE_LANG)?.root;
  return { languages, loaded: locales, flat, source, sourceOk };
}

/** Phase 3: every translation has exactly the English keys (missing ones stop the build). */
function compareLocales(run: Run, { languages, loaded: locales, flat, source, sourceOk }: Locales): void {
  for (const lang of languages.filter((l) => l !== SOURCE_LANG)) {
    const target = flat.get(lang)!;
    const loaded = locales.get(lang)!;
    if (!loaded.root || !sourceOk) continue;
    for (const [key, entry] of source.texts) {
      if (target.texts.has(key)) continue;
      const parts = key.split(".");
      const parent = parts.slice(0, -1).join(".");
      const where = parent ? target.groups.get(parent) : undefined;
      run.report({
        severity: "error",
        rule: "missing-key",
        file: loaded.file,
        line: where ?? lineNear(loaded.root, parts),
        key,
        message:
          `“${key}” is missing${parent && where ? ` from the group “${parent}”` : ""}. ` +
          `${SOURCE_LANG}.json has it on line ${entry.line}; without it the ${langName(lang)} pages would show the English text. ` +
          `Add "${parts[parts.length - 1]}": "…" with the ${langName(lang)} text.`,
      });
    }
    for (const [key, entry] of target.texts) {
      if (source.texts.has(key)) continue;
      run.report({
        severity: "warning",
        rule: "extra-key",
        file: loaded.file,
        line: entry.line,
        key,
        message: `“${key}” is not in ${SOURCE_LANG}.json, so no page shows it. ${SOURCE_LANG}.json is the source: add the key there too, or remove it here.`,
      });
    }
  }
  for (const texts of [...flat.values()].map((f) => f.texts)) run.entries.push(...texts.values());
}

/** Phase 4: the content files (testimonials, team, social images): their schema, texts and images. */
function checkContentFiles(run: Run, languages: string[]): void {
  const contentFiles: { file: string; collection: string; schema: z.ZodType }[] = [
    { file: PATHS.content.testimonials, collection: "testimonials", schema: testimonialsFile },
    { file: PATHS.content.team, collection: "team", schema: teamFile },
    { file: PATHS.content.socialImages, collection: "social-images", schema: socialImagesFile },
  ];
  const knownPages = pagePaths(run.root);
  for (const { file, collection, schema } of contentFiles) {
    const loaded = run.load(file, (text, node) => fixPersianInContent(text, node));
    if (!loaded.root) continue;
    const plain = toPlain(loaded.root);
    const labelOf = (index: string | number) => {
      const item = (plain as Record<string | number, unknown>)[index] as Record<string, unknown> | undefined;
      const name = (item?.author ?? item?.name) as { en?: string } | undefined;
      return typeof index === "number" ? (name?.en ?? (item?.id as string) ?? `entry ${index + 1}`) : index;
    };
    const idOf = (index: string | number) =>
      typeof index === "number"
        ? String(((plain as unknown[])[index] as { id?: string } | undefined)?.id ?? index + 1)
        : index;
    const result = schema.safeParse(plain);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const where = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
        // "… → company: the Dutch text is missing", not "… → company → nl: …".
        const named = languages.includes(String(where.at(-1))) ? where.slice(0, -1) : where;
        const [head, ...rest] = named;
        const label = head === undefined ? "" : ` (${[labelOf(head), ...rest].join(" → ")})`;
        run.report({
          severity: "error",
          rule: "content",
          file,
          line: lineNear(loaded.root, where),
          key: head === undefined ? undefined : `${collection}:${idOf(head)}${rest.length ? `.${rest.join(".")}` : ""}`,
          message: `${label ? `${label.slice(2, -1)}: ` : ""}${issue.message}.`.replace(/^./, (c) => c.toUpperCase()),
        });
      }
    }
    // Texts: every group keyed by language ({ "en": …, "nl": …, "fa": … }), wherever it sits.
    const walk = (node: JsonNode, at: (string | number)[]) => {
      if (node.kind === "object") {
        const isText = node.properties.length > 0 && node.properties.every((p) => languages.includes(p.key));
        if (isText && at.length) {
          const [head, ...rest] = at;
          for (const p of node.properties) {
            if (p.value.kind !== "string") continue;
            run.entries.push({
              file,
              lang: p.key,
              key: `${collection}:${idOf(head)}${rest.length ? `.${rest.join(".")}` : ""}`,
              value: p.value.value,
              line: p.line,
              source: "content",
              label: [labelOf(head), ...rest].join(" → "),
            });
          }
          return;
        }
        for (const p of node.properties) walk(p.value, [...at, p.key]);
      } else if (node.kind === "array") node.items.forEach((item, i) => walk(item, [...at, i]));
    };
    walk(loaded.root, []);
    // Images must exist in public/; social images should have the size the networks show.
    const images: { at: (string | number)[]; src: string }[] = [];
    const findImages = (value: unknown, at: (string | number)[]) => {
      if (Array.isArray(value)) value.forEach((v, i) => findImages(v, [...at, i]));
      else if (value && typeof value === "object") {
        const record = value as Record<string, unknown>;
        if (typeof record.src === "string" && "alt" in record) images.push({ at, src: record.src });
        else for (const [k, v] of Object.entries(record)) findImages(v, [...at, k]);
      }
    };
    findImages(plain, []);
    for (const { at, src } of images) {
      const line = lineNear(loaded.root, [...at, "src"]);
      const [head, ...rest] = at;
      const label = [labelOf(head), ...rest].join(" → ");
      const filePath = path.join(run.root, PATHS.public, src);
      if (!/^\//.test(src)) continue; // the schema reports it
      if (!existsSync(filePath)) {
        run.report({
          severity: "error",
          rule: "image",
          file,
          line,
          message: `${label}: the image ${src} is not in ${PATHS.public}/. Put the file at ${PATHS.public}${src}, or correct the path.`,
        });
        continue;
      }
      if (collection === "social-images") {
        const size = pngSize(filePath);
        if (size && (size.width < 600 || Math.abs(size.width / size.height - 1.91) > 0.1))
          run.report({
            severity: "warning",
            rule: "image",
            file,
            line,
            message: `${label}: ${src} is ${size.width} × ${size.height} px; social networks show 1200 × 630 px (at least 600 px wide, 1.91 : 1) and crop other sizes.`,
          });
      }
    }
    if (collection === "social-images" && plain && typeof plain === "object")
      for (const page of Object.keys(plain))
        if (page !== "default" && !knownPages.has(page))
          run.report({
            severity: "warning",
            rule: "content",
            file,
            line: lineNear(loaded.root, [page]),
            message: `“${page}” is not a page of the site (${[...knownPages].join(", ")}); its image would never be used.`,
          });
  }
}

/** Phase 5: the keys the code asks for exist, and every English key is used somewhere. */
function checkKeyUses(run: Run, { source, sourceOk }: Locales): KeyUse[] {
  const uses: KeyUse[] = [];
  const topGroups = new Set([...source.texts.keys(), ...source.groups.keys()].map((k) => k.split(".")[0]));
  for (const file of sourceFiles(run.root)) {
    const text = readFileSync(run.abs(file), "utf8");
    uses.push(...findKeyUses(file, text), ...findKeyMentions(file, text, topGroups));
  }
  if (sourceOk) {
    const isGroup = (key: string) => source.groups.has(key);
    for (const use of uses) {
      if (use.mention) continue;
      const found = use.exact
        ? source.texts.has(use.written) || (use.group && isGroup(use.written))
        : [...source.texts.keys()].some((k) => usesKey(use, k));
      if (!found)
        run.report({
          severity: "error",
          rule: "absent-key",
          file: use.file,
          line: use.line,
          key: use.written,
          message: use.exact
            ? `The code asks for “${use.written}”, which ${SOURCE_LANG}.json does not have: visitors would see “${use.written}”. Add it to all locale files, or correct the key.`
            : `The code asks for keys like “${use.written}”, and ${SOURCE_LANG}.json has none: visitors would see the raw key. Add them, or correct the key.`,
        });
    }
    const localeFile = `${PATHS.locales}/${SOURCE_LANG}.json`;
    for (const [key, entry] of source.texts) {
      if (uses.some((u) => usesKey(u, key))) continue;
      run.report({
        severity: "warning",
        rule: "unused-key",
        file: localeFile,
        line: entry.line,
        key,
        message: `“${key}” is not shown anywhere: no page or component uses it. Remove it from every locale file, or ask a developer to place it on a page.`,
      });
    }
  }
  return uses;
}

/** The glossary of each language that has one (a language without a glossary file has no terms fixed). */
function readGlossaries(run: Run, languages: string[]): Map<string, CompiledGlossaryEntry[]> {
  const out = new Map<string, CompiledGlossaryEntry[]>();
  for (const lang of languages) {
    const file = PATHS.glossary(lang);
    if (!existsSync(run.abs(file))) continue;
    const loaded = run.load(file);
    if (!loaded.root) continue;
    const { entries, errors } = parseGlossary(toPlain(loaded.root));
    for (const message of errors) run.report({ severity: "error", rule: "rules-file", file, line: 1, message });
    out.set(lang, compileGlossary(entries));
  }
  return out;
}

/**
 * Phase 6: each text's own rules (text-checks.ts): not empty, placeholders, no HTML, Persian letters,
 * no English left, the glossary, length.
 */
function checkTexts(
  run: Run,
  rules: CopyRules,
  uses: KeyUse[],
  glossaries: Map<string, CompiledGlossaryEntry[]>,
): void {
  const budgets = compileBudgets(rules);
  const sourceTexts = new Map<string, string>();
  for (const e of run.entries) if (e.lang === SOURCE_LANG) sourceTexts.set(e.key, e.value);
  for (const e of run.entries) {
    let filled: Set<string> | null = null;
    if (e.source === "locale" && e.lang === SOURCE_LANG) {
      const matching = uses.filter((u) => !u.mention && usesKey(u, e.key));
      if (matching.length && matching.every((u) => u.variables !== null))
        filled = new Set(["brand", ...matching.flatMap((u) => u.variables ?? [])]);
    }
    const found = checkText(e, {
      english: sourceTexts.get(e.key),
      filled,
      allowed: allowedWords(rules, e.lang),
      budgets,
      glossary: glossaries.get(e.lang),
    });
    for (const p of found) run.report({ ...p, file: e.file, line: e.line, key: e.key });
  }
}

/** Phase 7: translations whose English changed since reviewed.json recorded them. */
function reviewFlagsOf(run: Run): ReviewFlag[] {
  const entries = run.entries;
  const sourceTexts = new Map<string, string>();
  for (const e of entries) if (e.lang === SOURCE_LANG) sourceTexts.set(e.key, e.value);
  let record: ReviewRecord = emptyRecord();
  const reviewedFile = run.load(PATHS.reviewed);
  if (reviewedFile.root) record = { ...emptyRecord(), ...(toPlain(reviewedFile.root) as Partial<ReviewRecord>) };
  const translated = Object.fromEntries(
    TRANSLATED.map((lang) => [lang, new Set(entries.filter((e) => e.lang === lang).map((e) => e.key))]),
  ) as Record<Translated, Set<string>>;
  return reviewFlags(sourceTexts, translated, record);
}

/** Replaces Arabic letters inside the Persian-script texts of a content file, leaving the rest alone. */
function fixPersianInContent(text: string, root: JsonNode): string {
  const spans: { start: number; end: number }[] = [];
  const walk = (node: JsonNode) => {
    if (node.kind === "object")
      for (const p of node.properties) {
        if (scriptOf(p.key) === "persian" && p.value.kind === "string")
          spans.push({ start: p.value.start, end: p.value.end });
        else walk(p.value);
      }
    else if (node.kind === "array") node.items.forEach(walk);
  };
  walk(root);
  let out = text;
  for (const { start, end } of spans.reverse())
    out = out.slice(0, start) + toPersianLetters(out.slice(start, end)) + out.slice(end);
  return out;
}

/** Source files that may use translation keys (tests excluded). */
function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (rel !== "functions/_tests" && entry.name !== "node_modules") walk(rel);
      } else if (/\.(astro|tsx?|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
    }
  };
  for (const dir of PATHS.code) if (existsSync(path.join(root, dir))) walk(dir);
  return out;
}

/** Unprefixed paths of the language pages, from the files in src/pages/[lang]/ ("/", "/startup-visa" …). */
export function pagePaths(root: string): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    const full = path.join(root, dir);
    if (!existsSync(full)) return;
    for (const entry of readdirSync(full, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(`${dir}/${entry.name}`, `${prefix}/${entry.name}`);
      else if (entry.name.endsWith(".astro")) {
        const name = entry.name.slice(0, -6);
        out.add(name === "index" ? prefix || "/" : `${prefix}/${name}`);
      }
    }
  };
  walk(PATHS.pages, "");
  return out;
}

/** Width and height of a PNG file, or null for another format. */
function pngSize(file: string): { width: number; height: number } | null {
  const head = readFileSync(file).subarray(0, 24);
  if (head.length < 24 || head.toString("latin1", 1, 4) !== "PNG") return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}
