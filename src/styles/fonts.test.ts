import { readFileSync, statSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { FONT_TEXT } from "#scripts/assets/font-text.mjs";

/**
 * The generated fonts (npm run fonts) still fit the copy: every character the pages use is in a
 * web font, so no word is drawn half in a fallback font, and a page's fonts stay within budget.
 */
const css = readFileSync(new URL("./fonts.css", import.meta.url), "utf8");

/** The code points covered by the unicode-range of the web font faces of `family`. */
function covered(family: string): Set<number> {
  const points = new Set<number>();
  for (const face of css.matchAll(/@font-face \{([^}]*)\}/g)) {
    if (!face[1].includes(`font-family: "${family}";`)) continue;
    const range = /unicode-range: ([^;]+);/.exec(face[1])?.[1] ?? "";
    for (const part of range.split(",")) {
      const [from, to = from] = part.trim().replace("U+", "").split("-");
      for (let p = parseInt(from, 16); p <= parseInt(to, 16); p++) points.add(p);
    }
  }
  return points;
}

const missing = (text: string, points: Set<number>) =>
  [...new Set(text)].filter(
    (c) => c.codePointAt(0)! >= 0x20 && !/\p{Extended_Pictographic}|\p{Cf}/u.test(c) && !points.has(c.codePointAt(0)!),
  );

describe("web fonts", () => {
  test("Inter holds every character of the English and Dutch copy (else run `npm run fonts`)", () => {
    expect(missing(FONT_TEXT.englishAndDutch, covered("Inter"))).toEqual([]);
  });

  test("Vazirmatn holds every character of the Persian copy (else run `npm run fonts`)", () => {
    expect(missing(FONT_TEXT.persianCopy, covered("Vazirmatn"))).toEqual([]);
  });

  test("a page's fonts weigh at most 40 KB", () => {
    const size = (file: string) => statSync(new URL(`../assets/fonts/${file}`, import.meta.url)).size;
    expect(size("inter-latin.woff2")).toBeLessThanOrEqual(40 * 1024);
    expect(size("vazirmatn-fa.woff2") + size("vazirmatn-fa-latin.woff2")).toBeLessThanOrEqual(40 * 1024);
  });

  test("every web font has metric-matched fallbacks and never blocks text", () => {
    for (const family of ["Inter", "Vazirmatn"]) {
      expect(css).toMatch(
        new RegExp(
          `font-family: "${family} fallback: [^"]+";\\s+src: local\\("[^"]+"\\);(\\s+font-weight: [\\d ]+;)?\\s+size-adjust: [\\d.]+%`,
        ),
      );
    }
    expect(css.match(/font-display: optional/g)?.length).toBe(3);
  });
});
