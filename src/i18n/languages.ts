/** Supported languages, their names, direction and short labels (spec section 3). */
export const languages = ["en", "nl", "fa"] as const;
export type Lang = (typeof languages)[number];
export const defaultLang: Lang = "en";

export const languageInfo: Record<Lang, { name: string; short: string; dir: "ltr" | "rtl"; locale: string }> = {
  en: { name: "English", short: "EN", dir: "ltr", locale: "en_US" },
  nl: { name: "Dutch", short: "NL", dir: "ltr", locale: "nl_NL" },
  fa: { name: "فارسی", short: "FA", dir: "rtl", locale: "fa_IR" },
};

export const isLang = (value: unknown): value is Lang =>
  typeof value === "string" && (languages as readonly string[]).includes(value);

export const dirOf = (lang: Lang) => languageInfo[lang].dir;
