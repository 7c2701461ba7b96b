import { describe, expect, test } from "vitest";
import { DEFAULT_LANGUAGE, LANGUAGES } from "../shared/languages";
import { resources } from "./locales";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

/** Values that are rightly the same as English: numbers, and words Dutch shares with English. */
const SAME_AS_ENGLISH: Partial<Record<string, string[]>> = {
  nl: [
    "contact.iranOffice.phone",
    "contact.netherlandsOffice.phone",
    "navbar.home",
    "navbar.contact",
    "contact.eyebrow",
    "footer.contactHeading",
    "footer.resources.blog",
  ],
  fa: ["contact.iranOffice.phone", "contact.netherlandsOffice.phone"],
};

const source = flatten(resources[DEFAULT_LANGUAGE] as Tree);
const translations = LANGUAGES.filter((lang) => lang !== DEFAULT_LANGUAGE);

describe.each(translations)("%s translations", (lang) => {
  const target = flatten(resources[lang] as Tree);

  test("have exactly the English keys", () => {
    expect([...target.keys()].sort()).toEqual([...source.keys()].sort());
  });

  test("keep every {{placeholder}} of the English value", () => {
    const mismatches = [...source].filter(
      ([key, value]) => JSON.stringify(placeholders(value)) !== JSON.stringify(placeholders(target.get(key) ?? "")),
    );
    expect(mismatches.map(([key]) => key)).toEqual([]);
  });

  test("leave no value untranslated (names and numbers excepted)", () => {
    const same = [...source]
      .filter(([key, value]) => target.get(key) === value && !SAME_AS_ENGLISH[lang]?.includes(key))
      .map(([key]) => key);
    expect(same).toEqual([]);
  });

  test("have no empty values", () => {
    expect([...target].filter(([, v]) => !v.trim()).map(([k]) => k)).toEqual([]);
  });
});

test("Persian copy is written in Persian script", () => {
  const values = [...flatten(resources.fa as Tree)].filter(([key]) => !SAME_AS_ENGLISH.fa?.includes(key));
  const latinOnly = values.filter(([, v]) => !/[\u0600-\u06FF]/.test(v)).map(([k]) => k);
  expect(latinOnly).toEqual([]);
});

describe("Persian text keeps embedded Latin and number runs in their own order", () => {
  test("postcodes, phone numbers, email addresses and the brand are isolated by t('fa')", async () => {
    const { t } = await import("./index");
    const tr = t("fa");
    expect(tr("contact.netherlandsOffice.address")).toContain("\u20661017 BZ\u2069");
    expect(tr("contact.iranOffice.phone")).toBe("\u2066+98 21 8888 1234\u2069");
    expect(tr("newsletter.placeholder")).toContain("\u2066name@company.com\u2069");
    expect(tr("general.homeLink")).toMatch(/\u2066\w+\u2069/);
    // Left-to-right languages are untouched.
    expect(t("nl")("contact.netherlandsOffice.address")).not.toContain("\u2066");
  });
});
