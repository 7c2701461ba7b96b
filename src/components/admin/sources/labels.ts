/**
 * How the Sources view and a lead's card name what was stored: a campaign source or a "How did you
 * hear about us?" choice by its name in the panel's language ("Instagram", "اینستاگرام"), a medium
 * by its kind, a language by its name; anything else as stored (it passed the allowlist). And the
 * rates and changes the view shows, in the panel's digits.
 */
import { formatNumber } from "#shared/format.ts";
import { LANGUAGE_INFO, isLanguage, type Language } from "#shared/languages.ts";
import { rate } from "#shared/api/sources.ts";
import type { AdminCopy } from "../copy.ts";

export type SourcesCopy = AdminCopy["sources"];

/** What a row's key names: a breakdown's value, a page or a referrer. */
export type KeyKind = "source" | "campaign" | "landing" | "language" | "pages" | "referrers";

const named = (names: Record<string, string>, key: string): string => (Object.hasOwn(names, key) ? names[key] : key);

/** A source or a "how did you hear" choice by its name, else as stored. */
export const sourceName = (copy: SourcesCopy, key: string) => named(copy.names, key);

/** A utm_medium by its kind ("Social media" for `social`), else as stored. */
export const mediumName = (copy: SourcesCopy, key: string) => named(copy.media, key);

/** A row's name as shown: "(direct)" or "(none)" for an empty key, a known source or language by its name. */
export function keyName(copy: SourcesCopy, key: string, kind: KeyKind): string {
  if (key === "") return kind === "source" || kind === "referrers" ? copy.direct : copy.none;
  if (kind === "language") return isLanguage(key) ? LANGUAGE_INFO[key].name : key;
  return kind === "source" ? sourceName(copy, key) : key;
}

/** `part` per `whole` as a percentage ("25 %", "۲۵٪"); "–" when there is nothing to divide by. */
export function percent(lang: Language, part: number, whole: number): string {
  const r = rate(part, whole);
  return r === null ? "–" : formatNumber(lang, r, { style: "percent", maximumFractionDigits: 1 });
}

/** The change from `before` to `now` as a signed percentage ("+25 %"); "–" when there was nothing before. */
export function change(lang: Language, now: number, before: number): string {
  if (before === 0) return now === 0 ? formatNumber(lang, 0, { style: "percent" }) : "–";
  return formatNumber(lang, (now - before) / before, {
    style: "percent",
    signDisplay: "exceptZero",
    maximumFractionDigits: 0,
  });
}

/** Euro cents as whole euros in the panel's digits ("€12,000", "€ 12.000", "€۱۲٬۰۰۰"): the Sources view and the board. */
export const euros = (lang: Language, cents: number): string =>
  formatNumber(lang, Math.round(cents / 100), { style: "currency", currency: "EUR", maximumFractionDigits: 0 });
