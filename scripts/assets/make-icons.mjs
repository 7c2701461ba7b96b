// Renders public/favicon.svg to the PNG icons that need raster formats (touch icon, manifest,
// Open Graph fallback). Run after changing the mark: `npm run icons`. Needs Chromium.
import { readFileSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { chromiumPath } from "../test/chromium.mjs";

const svg = readFileSync("public/favicon.svg", "utf8");
const browser = await chromium.launch({ executablePath: chromiumPath() });
const page = await browser.newPage();
for (const [file, size] of [
  ["apple-touch-icon.png", 180],
  ["icon-192.png", 192],
  ["icon-512.png", 512],
]) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<style>html,body{margin:0}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`);
  writeFileSync(`public/${file}`, await page.screenshot({ omitBackground: true }));
  console.log(`public/${file}`);
}
await browser.close();
