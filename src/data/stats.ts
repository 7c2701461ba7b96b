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
 * A claim as it reads in `lang`, and its direction: a figure alone ("۲۸+") stays left to right, one
 * with words ("۵ میلیون یورو+") runs in the language's own direction, its "+" after the words.
 */
export function statValue(lang: Language, stat: (typeof heroStats)[number]): { text: string; dir: "ltr" | "rtl" } {
  const text = plainT(lang)(`hero.statValues.${stat.reads}`, { count: stat.count });
  return { text, dir: /\p{L}/u.test(text) ? dirOf(lang) : "ltr" };
}

export const successRate = "94%";
export const businessesGuided = "50+";
