// Renders the images shown when a page is shared on social media (1200 × 630 JPEG, what the networks
// crop to) into public/images/social/: the page's illustration on the brand background, with the
// logo, brand name and the page's name. Run after changing an illustration or the brand:
// `node scripts/assets/make-social-images.mjs`. Needs Chromium. Which page uses which image, and its
// description in each language, is in src/data/social-images.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { chromiumPath } from "../test/chromium.mjs";

const brand = process.env.PUBLIC_BRAND_NAME || "Bridgewise";
const images = [
  { file: "home.jpg", illustration: "hero.svg", title: "Global Business Solutions" },
  { file: "startup-visa.jpg", illustration: "startup-visa.svg", title: "Startup Visa" },
  { file: "business-launchpad.jpg", illustration: "business-launchpad.svg", title: "Business Launchpad" },
  { file: "startup-studio.jpg", illustration: "startup-studio.svg", title: "Startup Studio" },
];
const inline = (name) => `data:image/svg+xml;base64,${readFileSync(`public/${name}`).toString("base64")}`;
const font = `data:font/woff2;base64,${readFileSync("node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2").toString("base64")}`;

mkdirSync("public/images/social", { recursive: true });
const browser = await chromium.launch({ executablePath: chromiumPath() });
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
for (const { file, illustration, title } of images) {
  await page.setContent(`<!doctype html><style>
    @font-face { font-family: Inter; src: url(${font}) format("woff2"); font-weight: 100 900; }
    html, body { margin: 0; width: 1200px; height: 630px; overflow: hidden; font-family: Inter, sans-serif; }
    .bg { position: absolute; inset: 0; background: url(${inline("images/og.svg")}) center / cover; }
    .art { position: absolute; right: 64px; top: 95px; width: 500px; height: 440px; border-radius: 36px;
           background: #eff6ff url(${inline(`images/${illustration}`)}) center / cover; box-shadow: 0 30px 60px -20px rgb(0 0 0 / .45); }
    .text { position: absolute; left: 72px; top: 0; bottom: 0; width: 520px; display: flex; flex-direction: column; justify-content: center; color: #fff; }
    .brand { display: flex; align-items: center; gap: 18px; font-size: 34px; font-weight: 700; letter-spacing: -.01em; }
    .brand img { width: 64px; height: 64px; border-radius: 16px; }
    h1 { margin: 36px 0 0; font-size: 68px; line-height: 1.05; font-weight: 800; letter-spacing: -.02em; }
    .line { margin-top: 36px; width: 120px; height: 8px; border-radius: 4px; background: linear-gradient(90deg, #ccfbf1, #fde68a); }
  </style>
  <div class="bg"></div><div class="art"></div>
  <div class="text"><div class="brand"><img src="${inline("favicon.svg")}" alt="">${brand}</div><h1>${title}</h1><div class="line"></div></div>`);
  await page.evaluate(() => document.fonts.ready);
  writeFileSync(`public/images/social/${file}`, await page.screenshot({ type: "jpeg", quality: 88 }));
  console.log(`public/images/social/${file}`);
}
await browser.close();
