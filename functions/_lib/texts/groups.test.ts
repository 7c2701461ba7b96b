import { describe, expect, test } from "vitest";
import en from "#src/i18n/locales/en.json";
import { outline } from "./groups.ts";

function allKeys(tree: object, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === "string" ? [prefix + k] : allKeys(v, `${prefix}${k}.`),
  );
}

describe("the content editor's outline", () => {
  test("places every text of the English file exactly once, page → section → text", () => {
    const placed = outline(en).flatMap((p) => p.sections.flatMap((s) => s.texts.map((t) => t.key)));
    expect(placed.sort()).toEqual(allKeys(en).sort());
    expect(placed.length).toBeGreaterThan(300);
  });
  test("names the home page's sections in the order the visitor scrolls through them", () => {
    const home = outline(en).find((p) => p.name === "Home page")!;
    expect(home.sections.map((s) => s.name).slice(0, 3)).toEqual(["hero", "services", "whyChooseUs"]);
  });
  test("refuses a section the map does not place", () => {
    expect(() => outline({ ...en, brandNew: { title: "x" } })).toThrow(/"brandNew" has no page/);
  });
});
