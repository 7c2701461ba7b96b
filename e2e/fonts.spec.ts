import type { Browser } from "@playwright/test";
import { expect, test } from "./test";
import { skipSplash } from "./helpers";

/**
 * Text shows at once in a system font that takes the web font's room (metric-matched fallback
 * faces, src/styles/fonts.css); the web font joins after the first paint. Nothing on the first
 * screen moves or resizes when it arrives, and the page as a whole keeps its length.
 */

/** Boxes of the first screen's text and the page height, with the web fonts loaded or withheld. */
async function layout(browser: Browser, baseURL: string, path: string, withFonts: boolean) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL });
  await skipSplash(context);
  const page = await context.newPage();
  if (!withFonts) await page.route("**/*.woff2", (route) => route.abort());
  await page.goto(path);
  // The head script loads the page's web font after the first paint, then turns it on (html.wf) if it
  // came within 100 ms (as font-display: optional would); wait until its files have come or failed.
  const family = path.startsWith("/fa/") ? "Vazirmatn" : "Inter";
  await page.waitForFunction((f) => {
    const faces = [...document.fonts].filter((face) => face.family === f);
    return faces.length > 0 && faces.every((face) => face.status === "loaded" || face.status === "error");
  }, family);
  await page.evaluate(() => document.fonts.ready);
  expect(
    await page.evaluate(
      (f) => [...document.fonts].some((face) => face.family === f && face.status === "loaded"),
      family,
    ),
    `${family} loaded`,
  ).toBe(withFonts);
  const result = await page.evaluate(() => {
    const firstScreen = [...document.querySelectorAll("header a, header summary, main h1, main h2, main p, main a")]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.top < window.innerHeight && r.height > 0)
      .map((r) => [Math.round(r.top), Math.round(r.height)]);
    return { firstScreen, height: document.documentElement.scrollHeight, fonts: document.fonts.size };
  });
  await context.close();
  return result;
}

for (const path of ["/en/", "/fa/", "/nl/startup-visa"]) {
  test(`${path}: nothing on the first screen moves when the web font arrives`, async ({ browser, baseURL }) => {
    const fallback = await layout(browser, baseURL!, path, false);
    const web = await layout(browser, baseURL!, path, true);
    expect(web.firstScreen.length).toBeGreaterThan(3);
    for (const [i, [top, height]] of web.firstScreen.entries()) {
      expect(Math.abs(top - fallback.firstScreen[i][0]), `top of text box #${i}`).toBeLessThanOrEqual(2);
      expect(Math.abs(height - fallback.firstScreen[i][1]), `height of text box #${i}`).toBeLessThanOrEqual(2);
    }
    expect(Math.abs(web.height - fallback.height) / web.height, "page length").toBeLessThan(0.01);
  });
}
