import i18next, { type TFunction } from "i18next";
import en from "./locales/en.json";
import nl from "./locales/nl.json";
import fa from "./locales/fa.json";
import { site } from "../config/site";
import { defaultLang, dirOf, languages, type Lang } from "./languages";
import { softHyphens } from "./typography";

export * from "./languages";

export const resources = { en, nl, fa } as const;

/** The one i18next instance. Pages render at build time, so every resource is bundled and init is synchronous. */
const instance = i18next.createInstance();
// Long Dutch words get soft hyphens so they break instead of overflowing (see typography.ts).
instance.use({
  type: "postProcessor",
  name: "softHyphens",
  process: (value: string, _key: string | string[], options: { lng?: string }) => softHyphens(value, options.lng ?? ""),
});
void instance.init({
  resources: Object.fromEntries(languages.map((l) => [l, { translation: resources[l] }])),
  lng: defaultLang,
  fallbackLng: defaultLang,
  supportedLngs: [...languages],
  initAsync: false,
  returnNull: false,
  postProcess: ["softHyphens"],
  interpolation: { escapeValue: false, defaultVariables: { brand: site.name } },
});

/** A translate function bound to one language. Markup escaping is left to Astro and React. */
export const t = (lang: Lang): TFunction => instance.getFixedT(lang);

export const dir = dirOf;

/** Path of a page in a language: `localePath('fa', '/startup-visa')` is `/fa/startup-visa`. */
export const localePath = (lang: Lang, path = "/") => {
  const clean = path === "/" || path === "" ? "/" : `/${path.replace(/^\/+/, "")}`;
  return clean === "/" ? `/${lang}/` : `/${lang}${clean}`;
};
