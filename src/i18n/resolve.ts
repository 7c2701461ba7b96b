import { defaultLang, isLang, languages, type Lang } from "./languages";

export type LanguageSource = "cookie" | "query" | "storage" | "browser" | "default";

export interface LanguageSignals {
  /** Value of the `<slug>_language` cookie. */
  cookie?: string | null;
  /** Value of the `?lang=` query parameter. */
  query?: string | null;
  /** Value of localStorage `i18nextLng`. */
  stored?: string | null;
  /** navigator.languages, most preferred first. */
  browser?: readonly string[];
}

/** Best supported match for a list of BCP 47 tags ("fa-IR" → fa), or null. */
export function matchBrowserLanguage(tags: readonly string[] = []): Lang | null {
  for (const tag of tags) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (isLang(primary)) return primary;
  }
  return null;
}

/**
 * Language for a visitor arriving without a language prefix, in the order of spec section 4:
 * cookie, then ?lang, then stored language, then browser language, then English.
 * Invalid values at any step are ignored.
 */
export function resolveLanguage(signals: LanguageSignals): { lang: Lang; source: LanguageSource } {
  if (isLang(signals.cookie)) return { lang: signals.cookie, source: "cookie" };
  if (isLang(signals.query)) return { lang: signals.query, source: "query" };
  if (isLang(signals.stored)) return { lang: signals.stored, source: "storage" };
  const browser = matchBrowserLanguage(signals.browser);
  if (browser) return { lang: browser, source: "browser" };
  return { lang: defaultLang, source: "default" };
}

/** Where an unprefixed path should go: `/startup-visa?x=1#faq` in fa → `/fa/startup-visa?x=1#faq`. */
export function prefixedUrl(lang: Lang, pathname: string, search = "", hash = ""): string {
  const rest = pathname === "/" || pathname === "" ? "/" : pathname;
  return `/${lang}${rest}${search}${hash}`;
}

export { languages };
