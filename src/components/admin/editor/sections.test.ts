import { expect, test } from "vitest";
import en from "#src/i18n/locales/en.json";
import nl from "#src/i18n/locales/nl.json";
import fa from "#src/i18n/locales/fa.json";
import { SECTION_PAGES } from "#functions/_lib/texts/groups.ts";
import { sectionName } from "./sections";

test("every section of the locale files has a name in every panel language", () => {
  for (const copy of [en.admin, nl.admin, fa.admin])
    expect(Object.keys(copy.editor.sections).sort()).toEqual(Object.keys(SECTION_PAGES).sort());
  expect(Object.keys(SECTION_PAGES).sort()).toEqual(Object.keys(en).sort());
});

test("a key is named by its section in the panel's language, a content key too", () => {
  expect(sectionName("general", fa.admin)).toBe("متن‌های پایهٔ همهٔ صفحه‌ها");
  expect(sectionName("hero.title", nl.admin)).toBe("Opening van de startpagina");
  expect(sectionName("testimonials:sara-rahimi.content", en.admin)).toBe("Testimonials");
  // A section added to the files before it is named shows its key, never nothing.
  expect(sectionName("pricing.title", en.admin)).toBe("pricing");
  expect(sectionName("constructor.x", en.admin)).toBe("constructor");
});
