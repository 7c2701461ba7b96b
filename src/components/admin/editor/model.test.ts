import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { ContentAnswer } from "#shared/api/content.ts";
import { ALL_PATHS, pagesOf, parseTexts, reviewsOf, rulesOf } from "#functions/_lib/texts/texts.ts";
import { liveProblems, normaliseInput, overview, pageOfKey, search } from "./model.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../../..");

/** The answer GET /api/content/texts gives for the project's files as they are. */
function answer(): ContentAnswer {
  const files = new Map(ALL_PATHS.map((p) => [p, readFileSync(path.join(repoRoot, p), "utf8")]));
  const parsed = parseTexts(files);
  return {
    success: true,
    languages: ["en", "nl", "fa"],
    revisions: {},
    pages: pagesOf(parsed),
    collections: parsed.collections,
    texts: parsed.texts,
    reviews: reviewsOf(parsed),
    rules: rulesOf(parsed),
    publish: { provider: "git", state: "idle" },
  };
}

describe("the content editor in the browser", () => {
  const data = answer();

  test("search finds a text by a word of its Dutch, by its key, and across languages with Arabic letters folded", () => {
    expect(search(data, {}, "voorbehouden")).toEqual(["footer.copyright"]);
    expect(search(data, {}, "footer.copyright")).toEqual(["footer.copyright"]);
    // A Persian word typed with an Arabic keyboard (ي for ی) still finds it.
    expect(search(data, {}, "سارا رحيمي")).toContain("testimonials:sara-rahimi.author");
    // Every word must match, in any language.
    expect(search(data, {}, "voorbehouden reserved")).toEqual(["footer.copyright"]);
    // A draft's words find its text too.
    expect(search(data, { "nl:footer.copyright": "Zwaluwstaart" }, "zwaluwstaart")).toEqual(["footer.copyright"]);
  });

  test("a text found by its words stays found while it is edited (the walk-through's M1)", () => {
    expect(data.texts.nl["hero.title"]).toBe("Breng je bedrijf");
    expect(search(data, {}, "Breng je bedrijf")).toContain("hero.title");
    // One Backspace: the draft no longer holds the words, the published text still does.
    expect(search(data, { "nl:hero.title": "Breng je bedrij" }, "Breng je bedrijf")).toContain("hero.title");
    expect(search(data, { "nl:hero.title": "" }, "Breng je bedrijf")).toContain("hero.title");
  });

  test("live checks: the same messages as the copy check and the API, against the text as typed", () => {
    const drafts = { "nl:footer.copyright": "© {{year} {{brand}}. Alle rechten voorbehouden." };
    expect(liveProblems(data, drafts, { lang: "nl", key: "footer.copyright" }).map((p) => p.message)).toEqual([
      "“footer.copyright” has “{{year}”: a placeholder needs two braces on each side, {{year}}. As it is, visitors would see “{{year}”.",
      "“footer.copyright” lacks {{year}}, which the English has; that part would be missing from the page. Add it.",
    ]);
    expect(liveProblems(data, {}, { lang: "nl", key: "footer.copyright" })).toEqual([]);
    // An English placeholder the page does not fill.
    const english = { "en:hero.badge": "From {{city}} to Europe" };
    expect(liveProblems(data, english, { lang: "en", key: "hero.badge" })[0].message).toContain(
      "uses {{city}}, but the page fills in only {{brand}}",
    );
  });

  test("Persian is typed with Persian letters and digits; other languages are left as typed", () => {
    expect(normaliseInput("fa", "يك ٦")).toBe("یک ۶");
    expect(normaliseInput("nl", "يك ٦")).toBe("يك ٦");
  });

  test("the overview counts missing texts and problems per language", () => {
    expect(overview(data, {}).nl).toEqual({ missing: 0, review: 0, problems: 0 });
    const counts = overview(data, { "nl:hero.title": "", "fa:hero.badge": "Hello there" });
    expect(counts.nl.missing).toBe(1);
    expect(counts.fa.problems).toBe(1);
  });

  test("the preview opens the page a text is on", () => {
    expect(pageOfKey("servicesPage.startupVisa.hero.title")).toBe("/startup-visa");
    expect(pageOfKey("privacy.title")).toBe("/privacy");
    expect(pageOfKey("footer.copyright")).toBe("/");
  });
});
