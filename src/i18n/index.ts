import i18next, { type TFunction } from "i18next";
import en from "./locales/en.json";
import nl from "./locales/nl.json";
import fa from "./locales/fa.json";
import { site } from "../config/site";
import { isolateLatinRuns } from "../shared/format";
import { defaultLang, dirOf, languages, type Lang } from "./languages";

export * from "./languages";

export const resources = { en, nl, fa } as const;

/** The one i18next instance. Pages render at build time, so every resource is bundled and init is synchronous. */
const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(languages.map((l) => [l, { translation: resources[l] }])),
  lng: defaultLang,
  fallbackLng: defaultLang,
  supportedLngs: [...languages],
  initAsync: false,
  returnNull: false,
  interpolation: { escapeValue: false, defaultVariables: { brand: site.name } },
});

/**
 * A translate function bound to one language. Markup escaping is left to Astro and React.
 * In right-to-left Persian, every embedded Latin or number run (a postcode, a phone number, an
 * email address, the brand) is isolated, interpolated values included, so it keeps its own order.
 */
export const t = (lang: Lang): TFunction => {
  const fixed = instance.getFixedT(lang);
  if (dirOf(lang) !== "rtl") return fixed;
  const isolated = (...args: Parameters<TFunction>) => {
    const out = (fixed as unknown as (...a: unknown[]) => unknown)(...args);
    return typeof out === "string" ? isolateLatinRuns(out) : out;
  };
  return Object.assign(isolated, fixed) as unknown as TFunction;
};

export const dir = dirOf;

/** Path of a page in a language: `localePath('fa', '/startup-visa')` is `/fa/startup-visa`. */
export const localePath = (lang: Lang, path = "/") => {
  const clean = path === "/" || path === "" ? "/" : `/${path.replace(/^\/+/, "")}`;
  return clean === "/" ? `/${lang}/` : `/${lang}${clean}`;
};
