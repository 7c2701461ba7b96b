// Screenshots for looking at the site: `node scripts/test/screenshots.mjs [outDir] [paths…]`.
// Serves the current build, shoots each path in en/nl/fa at phone (390) and desktop (1440) widths
// (WIDTHS=360,1280 for others).
import { mkdirSync } from "node:fs";
import { chromium } from "@playwright/test";
import { chromiumPath } from "./chromium.mjs";
import { buildIfNeeded } from "../build/build-if-needed.mjs";
import { startServer } from "../runtime/server.mjs";
import { LANGUAGES } from "#shared/languages.ts";

const [outDir = "screenshots", ...paths] = process.argv.slice(2);
const targets = paths.length ? paths : ["/", "/startup-visa"];
mkdirSync(outDir, { recursive: true });
buildIfNeeded();
const server = await startServer({ port: 0 });
const browser = await chromium.launch({ executablePath: chromiumPath() });
try {
  const widths = process.env.WIDTHS ? process.env.WIDTHS.split(",").map(Number) : [390, 1440];
  for (const width of widths) {
    const context = await browser.newContext({
      viewport: { width, height: width < 800 ? 844 : 900 },
      deviceScaleFactor: 1,
    });
    await context.addInitScript(() => sessionStorage.setItem("splash-seen", "1"));
    const page = await context.newPage();
    for (const lang of LANGUAGES) {
      for (const p of targets) {
        await page.goto(`${server.url}/${lang}${p === "/" ? "/" : p}`, { waitUntil: "networkidle" });
        await page.evaluate(() => document.fonts.ready);
        const name = `${outDir}/${lang}${p === "/" ? "-home" : p.replaceAll("/", "-")}-${width}.png`;
        await page.screenshot({ path: name, fullPage: true });
        console.log(name);
        if (process.env.SEGMENTS) {
          // Viewport-height slices of the full page, easier to inspect than one tall image.
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          const step = width < 800 ? 844 : 900;
          for (let y = 0, i = 0; y < height; y += step, i++) {
            const clip = { x: 0, y, width, height: Math.min(step, height - y) };
            await page.screenshot({ path: name.replace(".png", `-part${i}.png`), fullPage: true, clip });
          }
        }
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
