import { expect, test } from "vitest";
import en from "#src/i18n/locales/en.json";
import nl from "#src/i18n/locales/nl.json";
import fa from "#src/i18n/locales/fa.json";
import { SECTION_PAGES } from "#functions/_lib/texts/groups.ts";
import { fieldName, sectionName } from "./sections";

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

test("a card is named by its text's part in the panel's language, not by its key (issue 41, m7)", () => {
  expect(fieldName("hero.title", en.admin)).toBe("Title");
  expect(fieldName("services.startupVisa.description", nl.admin)).toBe("Beschrijving");
  expect(fieldName("mail.enquiryAck.subject", fa.admin)).toBe("موضوع ایمیل");
  // A part the texts do not name gives no name (the card shows its key), an inherited one neither.
  expect(fieldName("hero.titleHighlight", en.admin)).toBeUndefined();
  expect(fieldName("x.constructor", en.admin)).toBeUndefined();
  expect(fieldName("x.__proto__", en.admin)).toBeUndefined();
});

test("every part named in English is named in Dutch and Persian, and names most cards", () => {
  const names = Object.keys(en.admin.editor.fields).sort();
  expect(Object.keys(nl.admin.editor.fields).sort()).toEqual(names);
  expect(Object.keys(fa.admin.editor.fields).sort()).toEqual(names);
  const keys: string[] = [];
  const walk = (o: object, at: string) => {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === "object") walk(v, `${at}${k}.`);
      else keys.push(`${at}${k}`);
    }
  };
  const { admin: _panel, ...site } = en;
  walk(site, "");
  const named = keys.filter((k) => fieldName(k, en.admin)).length;
  // 1 of 2 site texts at least carries a name (the rest keep their key, shown small on every card).
  expect(named / keys.length).toBeGreaterThan(0.5);
});
