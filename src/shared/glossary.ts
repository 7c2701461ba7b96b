/**
 * The glossary check: per language, the term the site uses for a concept and the variants it does not
 * (src/i18n/glossary.<lang>.json). Pure, so `npm run check:copy`, the content API and the content
 * editor in the browser find the same words and say the same thing.
 */
import { keyGlob } from "./text-rules.ts";

/** One decision: write `use`, never any of `not` (in the keys `keys` names, but not in `except`). */
export interface GlossaryEntry {
  /** The preferred term, as the message shows it ("inloggen / uitloggen"). */
  use: string;
  /**
   * The variants that are wrong, matched as whole words, case-insensitively. A trailing `*` also
   * matches longer words starting so ("aanmeld*": aanmelden, aanmelding, aanmeldpagina).
   */
  not: string[];
  /** Why, in a sentence: the message quotes it, so a writer knows the decision and its reason. */
  why: string;
  /** Key patterns the decision holds for (`admin.**`, `mail.security.*`); all keys when absent. */
  keys?: string[];
  /** Key patterns where a variant is right after all (the newsletter's own *aanmelden*). */
  except?: string[];
}

/** A glossary entry with its patterns compiled. */
export interface CompiledGlossaryEntry extends GlossaryEntry {
  variants: RegExp[];
  keyPatterns: RegExp[] | null;
  exceptPatterns: RegExp[];
}

/** One word of a text that the glossary rules out. */
export interface GlossaryHit {
  /** The word as written in the text. */
  found: string;
  entry: GlossaryEntry;
}

// A word is letters, their marks and digits; a hyphen or an apostrophe joins words ("U-bocht", "u's").
// A ZWNJ is not part of this class, so a Persian suffix after it ("سرنخ‌ها") still leaves the word whole.
const WORD = String.raw`\p{L}\p{M}\p{N}_'’\-`;

function variantPattern(variant: string): RegExp {
  const prefix = variant.endsWith("*");
  const term = (prefix ? variant.slice(0, -1) : variant).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // Not after a number: "9 u" is nine o'clock (uur), not the formal "you".
  return new RegExp(`(?<![${WORD}])(?<!\\d\\s?)${term}${prefix ? `[\\p{L}\\p{M}]*` : `(?![${WORD}])`}`, "giu");
}

/** Checks the shape of a glossary file's contents: the entries, or what is wrong, in plain words. */
export function parseGlossary(plain: unknown): { entries: GlossaryEntry[]; errors: string[] } {
  const errors: string[] = [];
  if (!Array.isArray(plain)) return { entries: [], errors: ["A glossary file is a list [ … ] of entries."] };
  const entries: GlossaryEntry[] = [];
  const strings = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === "string" && s.trim());
  plain.forEach((raw: unknown, i) => {
    const e = raw as Partial<Record<keyof GlossaryEntry, unknown>> | null;
    const where = `Entry ${i + 1}`;
    if (!e || typeof e !== "object" || Array.isArray(e)) return errors.push(`${where} must be a group { … }.`);
    if (typeof e.use !== "string" || !e.use.trim()) return errors.push(`${where} needs "use": the preferred term.`);
    if (!strings(e.not)) return errors.push(`${where} (${e.use}) needs "not": a list of the variants ruled out.`);
    if (typeof e.why !== "string" || !e.why.trim()) return errors.push(`${where} (${e.use}) needs "why": the reason.`);
    for (const field of ["keys", "except"] as const)
      if (e[field] !== undefined && !strings(e[field]))
        return errors.push(`${where} (${e.use}): "${field}" must be a list of key patterns, e.g. ["admin.**"].`);
    entries.push(e as GlossaryEntry);
  });
  return { entries, errors };
}

export const compileGlossary = (entries: readonly GlossaryEntry[]): CompiledGlossaryEntry[] =>
  entries.map((e) => ({
    ...e,
    variants: e.not.map(variantPattern),
    keyPatterns: e.keys ? e.keys.map(keyGlob) : null,
    exceptPatterns: (e.except ?? []).map(keyGlob),
  }));

/** What no reader sees as a word: placeholders, web and email addresses. */
const masked = (text: string) =>
  text.replace(/\{\{[^}]*\}\}|\b(?:https?:\/\/|www\.)\S+|[^\s@]+@[^\s@]+\.[^\s@]+/g, (m) => " ".repeat(m.length));

/** The words of one text the glossary rules out, each once per entry. */
export function glossaryHits(key: string, value: string, glossary: readonly CompiledGlossaryEntry[]): GlossaryHit[] {
  const hits: GlossaryHit[] = [];
  const text = masked(value);
  for (const entry of glossary) {
    if (entry.keyPatterns && !entry.keyPatterns.some((p) => p.test(key))) continue;
    if (entry.exceptPatterns.some((p) => p.test(key))) continue;
    for (const pattern of entry.variants) {
      pattern.lastIndex = 0;
      const match = pattern.exec(text);
      if (match) {
        hits.push({ found: match[0], entry });
        break;
      }
    }
  }
  return hits;
}

/** The message for one hit: the key (or its label), the word, the preferred term and why. */
export const glossaryMessage = (name: string, hit: GlossaryHit) =>
  `${name} says “${hit.found}”; the glossary has “${hit.entry.use}” instead. ${hit.entry.why}`;
