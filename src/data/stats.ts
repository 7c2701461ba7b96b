import { dirOf, type Language } from "#shared/languages.ts";
import { plainT } from "#src/i18n/plain.ts";

/**
 * The claims shown on the home page: a count, how it reads in each language (`hero.statValues.*`:
 * "€5M+" is "۵ میلیون یورو+" in Persian) and its label (`hero.stats.*`).
 */
export const heroStats = [
  { count: 28, key: "businesses", reads: "atLeast" },
  { count: 23, key: "countries", reads: "atLeast" },
  { count: 5, key: "capital", reads: "millionEurosAtLeast" },
] as const;

/**
 * A claim as it reads in `lang`: a figure alone ("۲۸+") stays left to right on one line; one with
 * words ("۵ میلیون یورو+") runs in the language's own direction, its "+" after the words, and may
 * wrap between them (a phone's column is narrower than the words).
 */
export function statValue(
  lang: Language,
  stat: (typeof heroStats)[number],
): { text: string; dir: "ltr" | "rtl"; wraps: boolean } {
  const text = plainT(lang)(`hero.statValues.${stat.reads}`, { count: stat.count });
  const words = /\p{L}/u.test(text);
  return { text, dir: words ? dirOf(lang) : "ltr", wraps: words && /\s/.test(text) };
}

export const successRate = "94%";
export const businessesGuided = "50+";
