/**
 * The translations without soft hyphens: `plainT(lang)`, the names of the service catalogue and
 * `localePath`, for emails, the functions' result pages, titles, meta tags and structured data. Apart from index.ts so the functions that write
 * emails load i18next and the locale files but not the Dutch hyphenation patterns (typography.ts),
 * which only text a browser lays out needs.
 */
import i18next, { type TFunction } from "i18next";
import { site } from "../config/site.ts";
import { DEFAULT_LANGUAGE, dirOf, LANGUAGES, type Language } from "../shared/languages.ts";
import { SERVICE_IDS, serviceNameKey, type ServiceNames } from "../shared/services.ts";
import { interpolatedValue, isolateLatinRuns } from "../shared/format.ts";
import { resources } from "./locales/index.ts";

type PostProcessor = {
  type: "postProcessor";
  name: string;
  process: (value: string, key: string | string[], options: { lng?: string }) => string;
};

/** An i18next instance over every locale, initialised synchronously; with a post-processor when given one. */
export function createInstance(postProcessor?: PostProcessor) {
  const instance = i18next.createInstance();
  instance.use(numbersAsWritten);
  if (postProcessor) instance.use(postProcessor);
  void instance.init({
    resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: resources[l] }])),
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    initAsync: false,
    returnNull: false,
    postProcess: postProcessor ? [postProcessor.name] : false,
    interpolation: { escapeValue: false, alwaysFormat: true, defaultVariables: { brand: site.name } },
  });
  return instance;
}

/**
 * i18next's formatter, replaced by one that writes every interpolated number as its language writes
 * it (format.ts): no translation carries a format name, so this is the only formatting there is.
 */
const numbersAsWritten = {
  type: "formatter" as const,
  init() {},
  add() {},
  addCached() {},
  format: (value: unknown, _format: string | undefined, lng: string | undefined) =>
    interpolatedValue(lng ?? DEFAULT_LANGUAGE, value),
};

const plain = createInstance();

/** A translate function without soft hyphens: for emails, titles, meta tags, structured data. */
export const plainT = (lang: Language): TFunction => isolating(plain.getFixedT(lang), lang);

/**
 * In right-to-left Persian, every embedded Latin or number run (a postcode, a phone number, an
 * email address, the brand) is isolated, interpolated values included, so it keeps its own order:
 * "1017 BZ" never reads "BZ 1017".
 */
export function isolating(fixed: TFunction, lang: Language): TFunction {
  if (dirOf(lang) !== "rtl") return fixed;
  const isolated = (...args: Parameters<TFunction>) => {
    const out = (fixed as unknown as (...a: unknown[]) => unknown)(...args);
    return typeof out === "string" ? isolateLatinRuns(out) : out;
  };
  return Object.assign(isolated, fixed) as unknown as TFunction;
}

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
