/**
 * The site's languages: the one list, and every fact about a language that
 * is not text. Pages, islands, functions, the database layer and the emails take their language
 * type and their check from here; a language's words live in its locale file
 * (src/i18n/locales/<code>.json).
 */

/** Every language of the site, in the order the language switcher shows them. */
export const LANGUAGES = ["en", "nl", "fa"] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The language the site's texts are written in first, the first of the list: the others are
 * translated from it (the copy check and the content editor compare them with it).
 */
export const SOURCE_LANGUAGE = LANGUAGES[0];

/** The language when nothing else decides. */
export const DEFAULT_LANGUAGE: Language = "en";

export interface LanguageInfo {
  /** The language's display name in the switcher. */
  name: string;
  /** Short label: EN, NL, FA. */
  short: string;
  dir: "ltr" | "rtl";
  /** BCP 47 tag for Intl dates, times and numbers; fa-IR writes Persian digits and the Solar Hijri calendar. */
  intl: string;
  /** The calendar a visitor reads dates in: the booking calendar's months and days follow it. */
  calendar: "gregory" | "persian";
  /** The ISO weekday a calendar week starts on: 1 (Monday) in Europe, 6 (Saturday) in Iran. */
  weekStart: 1 | 6;
  /** The digits its numbers, dates and times are written in. */
  digits: "latin" | "persian";
  /**
   * The letters its texts are written in. Persian script: the Persian letter forms (ی ک, not the
   * Arabic ي ك; the copy check holds them) and the Persian font; English words are never expected in it.
   */
  script: "latin" | "persian";
  /** Open Graph locale (og:locale). */
  ogLocale: string;
  /** Countries (ISO 3166-1 alpha-2) whose visitors get this language on a first visit (GET /api/detect-language). */
  countries: readonly string[];
}

export const LANGUAGE_INFO: Record<Language, LanguageInfo> = {
  en: {
    name: "English",
    short: "EN",
    dir: "ltr",
    intl: "en-GB",
    calendar: "gregory",
    weekStart: 1,
    digits: "latin",
    script: "latin",
    ogLocale: "en_US",
    countries: [],
  },
  nl: {
    name: "Dutch",
    short: "NL",
    dir: "ltr",
    intl: "nl-NL",
    calendar: "gregory",
    weekStart: 1,
    digits: "latin",
    script: "latin",
    ogLocale: "nl_NL",
    countries: ["NL", "BE"],
  },
  fa: {
    name: "فارسی",
    short: "FA",
    dir: "rtl",
    intl: "fa-IR",
    calendar: "persian",
    weekStart: 6,
    digits: "persian",
    script: "persian",
    ogLocale: "fa_IR",
    countries: ["IR"],
  },
};

/** The one check: whether a value (a cookie, a path segment, a stored column) is one of our languages. */
export const isLanguage = (value: unknown): value is Language =>
  typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);

/** A value that should be a language and is not (a stored row from before a language was removed, a bad caller). */
export class UnknownLanguageError extends Error {
  readonly value: unknown;
  constructor(value: unknown, where: string) {
    super(`Unknown language ${JSON.stringify(value)} in ${where}; expected one of ${LANGUAGES.join(", ")}`);
    this.name = "UnknownLanguageError";
    this.value = value;
  }
}

/**
 * A language that must be one of ours, or an explicit failure: never a silent English. `where` names
 * the caller for the error, e.g. "enquiries #42".
 */
export function requireLanguage(value: unknown, where: string): Language {
  if (isLanguage(value)) return value;
  throw new UnknownLanguageError(value, where);
}

export const dirOf = (language: Language) => LANGUAGE_INFO[language].dir;

/** The language of a country's visitors (`IR` → fa), or null when none is set for it. */
export function languageOfCountry(country: string): Language | null {
  const code = country.toUpperCase();
  return LANGUAGES.find((language) => LANGUAGE_INFO[language].countries.includes(code)) ?? null;
}

const englishNames = new Intl.DisplayNames("en", { type: "language" });

/**
 * A language code's English name ("Persian" for fa), for the English-only admin and company emails.
 * From Intl, so a new language needs no entry here; a value that is no language code is shown as it is.
 */
export function englishLanguageName(code: string): string {
  try {
    return englishNames.of(code) ?? code;
  } catch {
    return code;
  }
}
