/**
 * The one i18next module: `t(lang)`, `dir(lang)`, `localePath(lang, path)` and the names of the
 * service catalogue. Pages render at build time and the functions render emails on the server, so
 * every resource is bundled and init is synchronous; no translation code ships to the browser.
 * `t` is for text a browser lays out (long Dutch words carry soft hyphens, see typography.ts);
 * `plainT` is for everything else: emails, titles and meta tags.
 */
import i18next, { type TFunction } from "i18next";
import { site } from "../config/site.ts";
import { DEFAULT_LANGUAGE, dirOf, LANGUAGES, type Language } from "../shared/languages.ts";
import { SERVICE_IDS, serviceNameKey, type ServiceNames } from "../shared/services.ts";
import { isolateLatinRuns } from "../shared/format.ts";
import { resources } from "./locales/index.ts";
import { softHyphens } from "./typography.ts";

/** Two instances over the same resources: one adds soft hyphens to what it returns, one does not. */
function createInstance(hyphenate: boolean) {
  const instance = i18next.createInstance();
  if (hyphenate)
    instance.use({
      type: "postProcessor",
      name: "softHyphens",
      process: (value: string, _key: string | string[], options: { lng?: string }) =>
        softHyphens(value, options.lng ?? ""),
    });
  void instance.init({
    resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: resources[l] }])),
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    initAsync: false,
    returnNull: false,
    postProcess: hyphenate ? ["softHyphens"] : false,
    interpolation: { escapeValue: false, defaultVariables: { brand: site.name } },
  });
  return instance;
}
const pages = createInstance(true);
const plain = createInstance(false);

/**
 * A translate function bound to one language, for page text. Markup escaping is left to Astro, React
 * and the mail templates. In right-to-left Persian, every embedded Latin or number run (a postcode,
 * a phone number, an email address, the brand) is isolated, interpolated values included, so it
 * keeps its own order: "1017 BZ" never reads "BZ 1017".
 */
export const t = (lang: Language): TFunction => isolating(pages.getFixedT(lang), lang);

/** The same without soft hyphens: for emails, titles, meta tags, structured data. */
export const plainT = (lang: Language): TFunction => isolating(plain.getFixedT(lang), lang);

function isolating(fixed: TFunction, lang: Language): TFunction {
  if (dirOf(lang) !== "rtl") return fixed;
  const isolated = (...args: Parameters<TFunction>) => {
    const out = (fixed as unknown as (...a: unknown[]) => unknown)(...args);
    return typeof out === "string" ? isolateLatinRuns(out) : out;
  };
  return Object.assign(isolated, fixed) as unknown as TFunction;
}

export const dir = dirOf;

/** Path of a page in a language: `localePath('fa', '/startup-visa')` is `/fa/startup-visa`. */
export const localePath = (lang: Language, path = "/") => {
  const clean = path === "/" || path === "" ? "/" : `/${path.replace(/^\/+/, "")}`;
  return clean === "/" ? `/${lang}/` : `/${lang}${clean}`;
};

/** The names of the service catalogue in a language: the form, the admin and the emails all show these. */
export function serviceNames(lang: Language): ServiceNames {
  const tr = plainT(lang);
  return Object.fromEntries(SERVICE_IDS.map((id) => [id, tr(serviceNameKey(id))])) as ServiceNames;
}
