/**
 * The admin panel's one text regime: every word it shows comes from the locale files' `admin` group
 * (en, nl, fa), which AdminLayout renders once into the page (AdminCopy.astro). Each person chooses
 * the panel's language; it is remembered on their account (PATCH /api/user) and in this browser,
 * and until they choose, the browser's languages decide. Persian reads right to left, with Persian
 * digits and Jalali dates, through the public site's formatters (src/shared/format.ts).
 */
import { useStore } from "@nanostores/react";
import { atom } from "nanostores";
import type enCopy from "#src/i18n/locales/en.json";
import { dirOf, isLanguage, LANGUAGES, type Language } from "#shared/languages.ts";
import { commaOf, formatDate, formatNumber, formatTime, localizeDigits } from "#shared/format.ts";
import { ymd } from "#shared/dates.ts";
import { useHydrated } from "#src/lib/use-hydrated.ts";

export type AdminCopy = (typeof enCopy)["admin"];

/** The element AdminCopy.astro renders. */
export const ADMIN_COPY_ID = "admin-copy";

/** Where this browser keeps the panel's language (for the login page, before anyone has signed in). */
const STORAGE_KEY = "admin-language";

/** The first of the browser's languages that the admin texts exist in, else English. */
export function adminLanguage(preferred: readonly string[] = navigator.languages): Language {
  for (const tag of preferred) {
    const code = tag.toLowerCase().split("-")[0];
    if (isLanguage(code)) return code;
  }
  return "en";
}

function storedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/** The panel's language now: the person's choice, else the browser's. */
export const $panelLanguage = atom<Language>("en");

let texts: Record<Language, AdminCopy> | null = null;
function allTexts(): Record<Language, AdminCopy> {
  const data = texts ? null : document.getElementById(ADMIN_COPY_ID)?.dataset.copy;
  if (data) texts = JSON.parse(data) as Record<Language, AdminCopy>;
  return texts ?? ({} as Record<Language, AdminCopy>);
}

/** A plural entry of the locale files: `{ one, other }`. */
export interface Plural {
  one: string;
  other: string;
}

/** The admin texts in one language, with the formatters that write numbers and dates in it. */
export interface AdminText {
  lang: Language;
  dir: "ltr" | "rtl";
  copy: AdminCopy;
  /** Fills `{{name}}` placeholders; numbers in the language's digits. */
  f: (text: string, values: Record<string, string | number>) => string;
  /** A `{ one, other }` entry for `count`, its placeholders filled (`{{count}}` too). */
  p: (entry: Plural, count: number, values?: Record<string, string | number>) => string;
  /** A number in the language's digits and separators. */
  n: (value: number, options?: Intl.NumberFormatOptions) => string;
  /** A `yyyy-MM-dd` day: "Tue 24 Nov 2026", "di 24 nov 2026", "۳ آذر ۱۴۰۵ (۲۴ نوامبر ۲۰۲۶)". */
  date: (isoDate: string) => string;
  /** A `HH:mm` wall-clock time in the language's digits. */
  time: (time: string) => string;
  /**
   * An ISO timestamp in this browser's time zone. English: the specification's "US English short form:
   * year, short month, day, two-digit hour and minute", as Intl's en-US writes those fields ("Nov 29,
   * 2026, 01:31 AM": US English keeps its 12-hour clock, so the day period belongs to the form).
   * Dutch and Persian: the day as `date` writes it, then the 24-hour time ("zo 29 nov 2026, 01:31").
   */
  dateTime: (iso: string) => string;
  /** A language code's name in the panel's language ("Persian", "Perzisch", "فارسی"); Intl knows them all. */
  languageName: (code: string) => string;
}

/** The English panel's date and time (the specification's words, made once: building a format costs more than using it). */
const US_SHORT = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

const plurals = new Map<Language, Intl.PluralRules>();
const names = new Map<Language, Intl.DisplayNames>();

/** The admin texts and formatters of `lang`. */
export function adminText(lang: Language): AdminText {
  const all = allTexts();
  const f = (text: string, values: Record<string, string | number>) => fill(lang, text, values);
  const rules = plurals.get(lang) ?? new Intl.PluralRules(lang);
  plurals.set(lang, rules);
  const date = (isoDate: string) => formatDate(lang, isoDate, "short");
  const display = names.get(lang) ?? new Intl.DisplayNames(lang, { type: "language" });
  names.set(lang, display);
  const time = (value: string) => formatTime(lang, value);
  return {
    lang,
    dir: dirOf(lang),
    copy: all[lang] ?? all.en,
    f,
    p: (entry, count, values = {}) =>
      f(rules.select(count) === "one" ? entry.one : entry.other, { count: formatNumber(lang, count), ...values }),
    n: (value, options) => formatNumber(lang, value, options),
    date,
    time,
    dateTime: (iso) => {
      const at = new Date(iso);
      if (Number.isNaN(at.getTime())) return iso;
      if (lang === "en") return US_SHORT.format(at);
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${date(ymd(at.getFullYear(), at.getMonth() + 1, at.getDate()))}${commaOf(lang)} ${time(`${pad(at.getHours())}:${pad(at.getMinutes())}`)}`;
    },
    languageName: (code) => {
      try {
        return display.of(code) ?? code;
      } catch {
        return code;
      }
    },
  };
}

/** The admin texts in the panel's language now (outside React, or once in an island). */
export function adminCopy(): AdminText {
  return adminText($panelLanguage.get());
}

/**
 * The admin texts in the panel's language, following a change of language; null on the server and
 * while React hydrates (the texts are read from the page). An island shows a spinner until then.
 */
export function useAdminCopy(): AdminText | null {
  const lang = useStore($panelLanguage);
  const hydrated = useHydrated();
  return hydrated ? adminText(lang) : null;
}

/** The admin texts, in a component that renders only after its island has hydrated. */
export function useCopy(): AdminText {
  return adminText(useStore($panelLanguage));
}

/** Shows the panel in `lang`: the texts, the page's `lang` and `dir`, and this browser remembers it. */
export function showPanelIn(lang: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Storage blocked: the choice lasts as long as the page (and on the account, once signed in).
  }
  $panelLanguage.set(lang);
}

/** The signed-in person's own choice, once known, wins over this browser's. */
export function followUser(user: { language?: Language | null } | null): void {
  if (user?.language && user.language !== $panelLanguage.get()) showPanelIn(user.language);
}

/** The languages the panel can be shown in, in the site's order. */
export const PANEL_LANGUAGES = LANGUAGES;

/** Fills `{{name}}` placeholders; numbers in the language's digits. */
export function fill(lang: Language, text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name)
      ? typeof values[name] === "number"
        ? localizeDigits(lang, String(values[name]))
        : String(values[name])
      : whole,
  );
}

/** The page follows the panel's language: <html lang dir>, the title and the layout's own words. */
function applyToPage(lang: Language): void {
  const root = document.documentElement;
  root.lang = lang;
  root.dir = dirOf(lang);
  if (!allTexts()[lang]) return;
  const { copy, f } = adminText(lang);
  // A layout text by its path ("skip", "nav.leads"): the element's words, or its aria-label.
  const layoutText = (path = "") => {
    const text = path.split(".").reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], copy.layout);
    return typeof text === "string" ? text : null;
  };
  for (const el of document.querySelectorAll<HTMLElement>("[data-admin-text]")) {
    const text = layoutText(el.dataset.adminText);
    if (text !== null) el.textContent = text;
  }
  for (const el of document.querySelectorAll<HTMLElement>("[data-admin-label]")) {
    const text = layoutText(el.dataset.adminLabel);
    if (text !== null) el.setAttribute("aria-label", text);
  }
  const page = root.dataset.adminTitle as keyof AdminCopy["layout"]["titles"] | undefined;
  if (page && copy.layout.titles[page])
    document.title = `${copy.layout.titles[page]} | ${f(copy.layout.titleSuffix, { brand: root.dataset.brand ?? "" })}`;
}

if (typeof document !== "undefined") {
  $panelLanguage.set(storedLanguage() ?? adminLanguage());
  $panelLanguage.subscribe(applyToPage);
  // An island in the header can run this before the rest of the page is parsed: the side bar and
  // whatever else comes after it get their words once it is.
  if (document.readyState === "loading")
    document.addEventListener("DOMContentLoaded", () => applyToPage($panelLanguage.get()), { once: true });
}
