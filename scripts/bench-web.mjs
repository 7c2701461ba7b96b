// `npm run bench:web`: what a visitor downloads before interacting, and Lighthouse mobile scores.
// Builds, serves with the local server (netlify.toml rules, compression), loads each page in Chromium without scrolling or
// interacting, and prints per page the gzip bytes of HTML, CSS, JS (external + inline) and fonts.
// Budget (issue 2): at most 10 KB gzip JavaScript before interaction. Exits 1 when a page exceeds it.
import { gzipSync } from "node:zlib";
import { mkdirSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { findChromium } from "./lib/chromium.mjs";
import { buildIfNeeded } from "./lib/build-if-needed.mjs";
import { startServer } from "./lib/server.mjs";

const JS_BUDGET = 10 * 1024;
const PAGES = ["/", "/startup-visa", "/business-launchpad", "/startup-studio"].flatMap((p) =>
  ["en", "nl", "fa"].map((l) => `/${l}${p === "/" ? "/" : p}`),
);
const LIGHTHOUSE_PAGES = ["/en/", "/fa/", "/nl/startup-visa"];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const chromePath = findChromium();
if (!chromePath) {
  console.error("Chromium is required: apt-get install -y chromium (or set CHROMIUM_PATH).");
  process.exit(1);
}

buildIfNeeded(process.cwd(), { force: true });
const server = await startServer({ port: 0, log: { error: () => {} } });
const browser = await chromium.launch({
  executablePath: chromePath,
  args: ["--disable-background-networking", "--disable-component-update"],
});
const rows = [];
try {
  for (const path of PAGES) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const sizes = { html: 0, css: 0, js: 0, inlineJs: 0, font: 0, image: 0 };
    const pending = [];
    page.on("response", (response) => {
      pending.push(
        (async () => {
          const type = response.request().resourceType();
          const body = await response.body().catch(() => Buffer.alloc(0));
          const gz = gzipSync(body).length;
          if (type === "document") sizes.html += gz;
          else if (type === "stylesheet") sizes.css += gz;
          else if (type === "script") sizes.js += gz;
          else if (type === "font") sizes.font += gz;
          else if (type === "image") sizes.image += gz;
        })(),
      );
    });
    await page.goto(server.url + path, { waitUntil: "networkidle" });
    await page.waitForTimeout(500);
    await Promise.all(pending);
    const inline = await page.evaluate(() =>
      [...document.querySelectorAll("script:not([src])")]
        .filter((s) => !s.type || s.type === "module" || s.type === "text/javascript")
        .map((s) => s.textContent)
        .join("\n"),
    );
    sizes.inlineJs = gzipSync(Buffer.from(inline)).length;
    rows.push({ path, ...sizes, jsTotal: sizes.js + sizes.inlineJs });
    await context.close();
  }
} finally {
  await browser.close();
}

console.log("\nBytes loaded before interaction (gzip, phone viewport, no scrolling):\n");
console.log(
  ["page".padEnd(26), "HTML", "CSS", "JS ext", "JS inline", "JS total", "fonts", "images"]
    .map((s, i) => (i ? s.padStart(10) : s))
    .join(""),
);
for (const r of rows) {
  console.log(
    [r.path.padEnd(26), kb(r.html), kb(r.css), kb(r.js), kb(r.inlineJs), kb(r.jsTotal), kb(r.font), kb(r.image)]
      .map((s, i) => (i ? s.padStart(10) : s))
      .join(""),
  );
}
const over = rows.filter((r) => r.jsTotal > JS_BUDGET);
console.log(
  `\nJS budget ${kb(JS_BUDGET)}: ${over.length ? `EXCEEDED on ${over.map((r) => r.path).join(", ")}` : "met on every page"}`,
);

// Lighthouse (mobile, simulated throttling), when it can run here.
const lighthouseRows = [];
try {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const runOnce = async (path) => {
    const chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    });
    try {
      return (await lighthouse(server.url + path, { port: chrome.port, output: "json", logLevel: "error" })).lhr;
    } finally {
      await chrome.kill();
    }
  };
  for (const path of LIGHTHOUSE_PAGES) {
    // A cold headless Chrome sometimes fails its first trace here (NO_FCP); one retry settles it.
    let lhr = await runOnce(path);
    if (lhr.runtimeError) lhr = await runOnce(path);
    const { categories, audits, runtimeError } = lhr;
    if (runtimeError) console.log(`Lighthouse on ${path}: ${runtimeError.code} ${runtimeError.message}`);
    {
      lighthouseRows.push({
        path,
        performance: Math.round(categories.performance.score * 100),
        accessibility: Math.round(categories.accessibility.score * 100),
        bestPractices: Math.round(categories["best-practices"].score * 100),
        seo: Math.round(categories.seo.score * 100),
        lcp: audits["largest-contentful-paint"].displayValue,
        tbt: audits["total-blocking-time"].displayValue,
        cls: audits["cumulative-layout-shift"].displayValue,
        lcpElement: audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node?.selector ?? "",
      });
    }
  }
  console.log("\nLighthouse (mobile):\n");
  console.table(lighthouseRows);
} catch (error) {
  console.log(`\nLighthouse skipped: ${error instanceof Error ? error.message : error}`);
}

mkdirSync("bench-results", { recursive: true });
writeFileSync(
  "bench-results/web.json",
  JSON.stringify({ date: new Date().toISOString(), pages: rows, lighthouse: lighthouseRows }, null, 2),
);
await server.close();
process.exit(over.length ? 1 : 0);
