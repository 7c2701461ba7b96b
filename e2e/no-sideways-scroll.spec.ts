import { expect, test } from "./test";
import { skipSplash } from "./helpers";

/**
 * Nothing scrolls sideways at any width from 320 px, the narrowest phone the site supports: every
 * page in every language fits the viewport (the narrowest width is the hardest; wider ones have
 * more room and are covered by the text-fit tests).
 */
const PAGES = ["/", "/startup-visa", "/business-launchpad", "/startup-studio", "/privacy", "/meeting", "/404"];
const LANGS = ["en", "nl", "fa"] as const;

test.describe("at 320 px", () => {
  test.use({ viewport: { width: 320, height: 640 } });
  test.beforeEach(async ({ context }) => {
    await skipSplash(context);
  });

  for (const lang of LANGS) {
    test(`no ${lang} page scrolls sideways`, async ({ page }) => {
      const wide: string[] = [];
      for (const path of PAGES) {
        await page.goto(`/${lang}${path}`);
        await page.evaluate(() => document.fonts.ready);
        const out = await page.evaluate(() => {
          const root = document.documentElement;
          const sticking = [...document.querySelectorAll<HTMLElement>("body *")]
            .filter((e) => {
              const r = e.getBoundingClientRect();
              return r.width > 1 && (r.right > root.clientWidth + 0.5 || r.left < -0.5);
            })
            .filter((e) => getComputedStyle(e).visibility !== "hidden")
            .slice(0, 3)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
          return { scroll: root.scrollWidth, client: root.clientWidth, sticking };
        });
        if (out.scroll > out.client)
          wide.push(`/${lang}${path}: ${out.scroll} px wide in ${out.client} (${out.sticking.join("; ")})`);
      }
      expect(wide, wide.join("\n")).toEqual([]);
    });
  }
});
