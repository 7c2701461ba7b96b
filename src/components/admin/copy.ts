/**
 * The admin's texts that exist in en, nl and fa (the `admin` group of the locale files), for the
 * parts of the admin built with them: the booking rules and meeting outcomes. The page renders
 * all three once (AdminCopy.astro) and the island picks the admin's language from the browser's
 * preferences, English when none of ours is among them. The rest of the admin is English only.
 */
import type enCopy from "#src/i18n/locales/en.json";
import { dirOf, isLanguage, type Language } from "#shared/languages.ts";
import { localizeDigits } from "#shared/format.ts";

export type AdminCopy = (typeof enCopy)["admin"];

/** The element AdminCopy.astro renders. */
export const ADMIN_COPY_ID = "admin-copy";

/** The first of the browser's languages that the admin texts exist in, else English. */
export function adminLanguage(preferred: readonly string[] = navigator.languages): Language {
  for (const tag of preferred) {
    const code = tag.toLowerCase().split("-")[0];
    if (isLanguage(code)) return code;
  }
  return "en";
}

/** The admin texts in the admin's language, with `lang` and `dir` for the element that shows them. */
export function adminCopy(): { lang: Language; dir: "ltr" | "rtl"; copy: AdminCopy } {
  const lang = adminLanguage();
  const all = JSON.parse(document.getElementById(ADMIN_COPY_ID)?.dataset.copy ?? "{}") as Record<Language, AdminCopy>;
  return { lang, dir: dirOf(lang), copy: all[lang] ?? all.en };
}

/** Fills `{{name}}` placeholders; numbers in the language's digits. */
export function fill(lang: Language, text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values
      ? typeof values[name] === "number"
        ? localizeDigits(lang, String(values[name]))
        : String(values[name])
      : whole,
  );
}
