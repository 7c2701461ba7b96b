import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, test } from "vitest";
import {
  DEFAULT_LANGUAGE,
  englishLanguageName,
  isLanguage,
  languageOfCountry,
  LANGUAGE_INFO,
  LANGUAGES,
  requireLanguage,
  UnknownLanguageError,
  type Language,
} from "./languages";

describe("the site's languages", () => {
  test("include en, nl and fa, English first and the default, Persian right to left", () => {
    expect(LANGUAGES).toEqual(expect.arrayContaining(["en", "nl", "fa"]));
    expect([LANGUAGES[0], DEFAULT_LANGUAGE]).toEqual(["en", "en"]);
    expect(["en", "nl", "fa"].map((l) => LANGUAGE_INFO[l as Language].dir)).toEqual(["ltr", "ltr", "rtl"]);
    for (const lang of LANGUAGES) expect(LANGUAGE_INFO[lang].short).toBe(lang.toUpperCase());
  });

  test("one guard decides what is a language: exact codes only", () => {
    for (const lang of LANGUAGES) expect(isLanguage(lang)).toBe(true);
    for (const other of ["zz", "EN", "en-US", "", " fa", null, undefined, 1, "toString"]) {
      expect(isLanguage(other)).toBe(false);
    }
  });

  test("an unknown language is an explicit failure, never a silent English", () => {
    expect(requireLanguage("fa", "test")).toBe("fa");
    expect(() => requireLanguage("zz", "enquiries #7")).toThrow(UnknownLanguageError);
    expect(() => requireLanguage("zz", "enquiries #7")).toThrow(/"zz" in enquiries #7/);
  });

  test("English names for the admin and the company's emails, from Intl", () => {
    expect(["en", "nl", "fa"].map(englishLanguageName)).toEqual(["English", "Dutch", "Persian"]);
    expect(englishLanguageName("not a code")).toBe("not a code");
  });

  test("visitors from Iran get Persian, from the Netherlands and Belgium Dutch", () => {
    expect(languageOfCountry("IR")).toBe("fa");
    expect(languageOfCountry("nl")).toBe("nl");
    expect(languageOfCountry("BE")).toBe("nl");
    expect(languageOfCountry("US")).toBeNull();
  });

  // netlify.toml cannot import the list, so this test holds it to it.
  test("each has its own 404 page rule in netlify.toml, and no other language does", () => {
    const { redirects = [] } = parse(readFileSync("netlify.toml", "utf8")) as {
      redirects?: { from: string; to: string; status: number }[];
    };
    const rules = redirects.filter((r) => r.status === 404 && /^\/[a-z]{2,3}\/\*$/.test(r.from));
    expect(rules.map((r) => [r.from, r.to]).sort()).toEqual(LANGUAGES.map((l) => [`/${l}/*`, `/${l}/404/`]).sort());
  });
});

describe("the facts of each language agree with its Intl locale", () => {
  test.each(LANGUAGES)("%s: calendar, week start, digits and direction", (lang) => {
    const info = LANGUAGE_INFO[lang];
    const locale = new Intl.Locale(info.intl) as Intl.Locale & {
      getWeekInfo(): { firstDay: number };
      getTextInfo(): { direction: string };
    };
    expect(new Intl.DateTimeFormat(info.intl).resolvedOptions().calendar).toBe(info.calendar);
    expect(locale.getWeekInfo().firstDay).toBe(info.weekStart);
    expect(locale.getTextInfo().direction).toBe(info.dir);
    expect(new Intl.NumberFormat(info.intl).format(7)).toBe(info.digits === "persian" ? "۷" : "7");
  });
});
