/**
 * Review flags. For every Dutch and Persian text, `src/i18n/reviewed.json` keeps a fingerprint of
 * the English it was translated (or last checked) from. When the English changes, its fingerprint
 * no longer matches and the translations are listed for review (`npm run copy:review`) until a
 * translator marks them reviewed (`npm run copy:reviewed`).
 */
import { createHash } from "node:crypto";
import { LANGUAGES, SOURCE_LANGUAGE, type Language } from "#shared/languages.ts";

/** Short, stable fingerprint of an English text (10 hex digits of its SHA-256). */
export const fingerprint = (english: string) => createHash("sha256").update(english, "utf8").digest("hex").slice(0, 10);

/** The languages translated from the English: every language of the site but English. */
export type Translated = Exclude<Language, typeof SOURCE_LANGUAGE>;
export const TRANSLATED: readonly Translated[] = LANGUAGES.filter(
  (lang): lang is Translated => lang !== SOURCE_LANGUAGE,
);

/** The contents of reviewed.json: language → key → fingerprint of the English it was reviewed against. */
export type ReviewRecord = Record<Translated, Record<string, string>>;

export const emptyRecord = (): ReviewRecord => Object.fromEntries(TRANSLATED.map((lang) => [lang, {}])) as ReviewRecord;

export interface ReviewFlag {
  lang: Translated;
  key: string;
  /** "changed": the English changed since; "new": never marked reviewed. */
  reason: "changed" | "new";
  /** The fingerprint recorded when it was last reviewed (for finding the old English). */
  reviewedAgainst?: string;
}

/** Translations whose English changed since they were reviewed, or that were never reviewed. */
export function reviewFlags(
  english: ReadonlyMap<string, string>,
  translated: Record<Translated, ReadonlySet<string>>,
  record: ReviewRecord,
): ReviewFlag[] {
  const flags: ReviewFlag[] = [];
  for (const lang of TRANSLATED) {
    for (const [key, value] of english) {
      if (!translated[lang].has(key)) continue; // missing translations are errors of their own
      const seen = record[lang]?.[key];
      if (seen === undefined) flags.push({ lang, key, reason: "new" });
      else if (seen !== fingerprint(value)) flags.push({ lang, key, reason: "changed", reviewedAgainst: seen });
    }
  }
  return flags;
}

/**
 * The record after marking `keys` of `lang` reviewed against the current English (all of its keys
 * when `keys` is "all"). Keys that no longer exist in English are dropped, so the file stays tidy.
 */
export function markReviewed(
  record: ReviewRecord,
  english: ReadonlyMap<string, string>,
  lang: Translated,
  keys: readonly string[] | "all",
): ReviewRecord {
  const next = Object.fromEntries(TRANSLATED.map((l) => [l, { ...record[l] }])) as ReviewRecord;
  for (const key of keys === "all" ? english.keys() : keys) {
    const value = english.get(key);
    if (value !== undefined) next[lang][key] = fingerprint(value);
  }
  for (const l of TRANSLATED)
    next[l] = Object.fromEntries(
      Object.entries(next[l])
        .filter(([key]) => english.has(key))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  return next;
}

/** reviewed.json as written to disk: sorted, one key per line, so diffs stay small. */
export const serializeRecord = (record: ReviewRecord) => `${JSON.stringify(record, null, 2)}\n`;
