import { describe, expect, test } from "vitest";
import { resources } from "#src/i18n/locales/index.ts";
import { LANGUAGES } from "#shared/languages.ts";
import { change, keyName, mediumName, percent, sourceName } from "./labels.ts";

const copy = (lang: (typeof LANGUAGES)[number]) => resources[lang].admin.sources;

describe("the Sources view's names", () => {
  test("a known source reads as its name in every panel language, not as stored", () => {
    expect(keyName(copy("en"), "instagram", "source")).toBe("Instagram");
    expect(keyName(copy("fa"), "instagram", "source")).toBe("اینستاگرام");
    expect(keyName(copy("nl"), "newsletter", "source")).toBe("Nieuwsbrief");
    expect(mediumName(copy("fa"), "social")).toBe("شبکه‌های اجتماعی");
    expect(mediumName(copy("nl"), "cpc")).toBe("Betaald zoeken");
  });

  test("every 'How did you hear about us?' choice has its name, as the public form words it", () => {
    for (const lang of LANGUAGES) {
      const options = resources[lang].contact.form.heardOptions as Record<string, string>;
      for (const [id, label] of Object.entries(options))
        expect(sourceName(copy(lang), id), `${lang} ${id}`).toBe(label);
    }
  });

  test("an unknown or hostile key stays as stored; prototype names are not names", () => {
    expect(keyName(copy("en"), "img-srcx-onerroralert1", "source")).toBe("img-srcx-onerroralert1");
    expect(keyName(copy("en"), "__proto__", "source")).toBe("__proto__");
    expect(keyName(copy("en"), "constructor", "source")).toBe("constructor");
    expect(keyName(copy("en"), "instagram", "campaign")).toBe("instagram");
    expect(keyName(copy("en"), "", "source")).toBe(copy("en").direct);
    expect(keyName(copy("fa"), "fa", "language")).toBe("فارسی");
  });
});

describe("rates and changes", () => {
  test("in the panel's digits; a dash where there is nothing to divide by", () => {
    expect(percent("en", 1, 4)).toBe("25%");
    expect(percent("fa", 1, 4)).toBe("۲۵٪");
    expect(percent("en", 3, 0)).toBe("–");
    expect(change("en", 6, 4)).toBe("+50%");
    expect(change("nl", 2, 4)).toBe("-50%");
    expect(change("en", 3, 0)).toBe("–");
    expect(change("en", 0, 0)).toBe("0%");
  });
});
