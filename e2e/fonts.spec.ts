import type { Browser } from "@playwright/test";
import { expect, test } from "./test";
import { WHOLE_PAGE } from "../src/lib/anchor-scroll.ts";
import { skipSplash } from "./helpers";

/**
 * Text shows at once in a system font that takes the web font's room (metric-matched fallback
 * faces, src/styles/fonts.css); the web font is fetched after the first paint and shown from the
 * next page of the visit. Nothing on the first screen moves or resizes between the two, and the
 * page as a whole keeps its length.
 */

/** Boxes of the first screen's text and the page height, with the web fonts loaded or withheld. */
async function layout(browser: Browser, baseURL: string, path: string, withFonts: boolean) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL });
  await skipSplash(context);
  const page = await context.newPage();
  if (!withFonts) await page.route("**/*.woff2", (route) => route.abort());
  const family = path.startsWith("/fa/") ? "Vazirmatn" : "Inter";
  const settled = (f: string) => {
    const faces = [...document.fonts].filter((face) => face.family === f);
    return faces.length > 0 && faces.every((face) => face.status === "loaded" || face.status === "error");
  };
  // The first page of a visit keeps the fallback and fetches the web font after its first paint;
  // the next page of the session shows the web font from its first paint (html.wf).
  await page.goto(path);
  await page.waitForFunction(settled, family);
  expect(await page.evaluate(() => document.documentElement.classList.contains("wf")), "first page: fallback").toBe(
    false,
  );
  await page.goto(path);
  expect(await page.evaluate(() => document.documentElement.classList.contains("wf")), "next page: wf").toBe(true);
  await page.waitForFunction(settled, family);
  await page.evaluate(() => document.fonts.ready);
  expect(
    await page.evaluate(
      (f) => [...document.fonts].some((face) => face.family === f && face.status === "loaded"),
      family,
    ),
    `${family} loaded`,
  ).toBe(withFonts);
  // What draws the heading: the web font from the cache, or the fallback when it is withheld.
  const cdp = await context.newCDPSession(page);
  const { root } = await cdp.send("DOM.getDocument");
  await cdp.send("CSS.enable");
  const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: "main h1" });
  const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
  expect(
    fonts.some((f) => f.isCustomFont && f.familyName === family),
    `h1 drawn in ${family}`,
  ).toBe(withFonts);
  const result = await page.evaluate((wholePage) => {
    const firstScreen = [...document.querySelectorAll("header a, header summary, main h1, main h2, main p, main a")]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.top < window.innerHeight && r.height > 0)
      .map((r) => [Math.round(r.top), Math.round(r.height)]);
    // The sections after the first are laid out only as they near the viewport (content-visibility:
    // auto); until then each counts as 900 px, so scrollHeight depends on which of them the browser
    // had reached when it is read. The page's length is read with every section laid out.
    document.documentElement.classList.add(wholePage);
    return { firstScreen, height: document.documentElement.scrollHeight, fonts: document.fonts.size };
  }, WHOLE_PAGE);
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
