// `npm run fonts`: the site's two web fonts, cut down to what the pages use, and fallbacks that
// take the same room, so text neither waits for a font nor changes size when it arrives.
//
// - Inter (English and Dutch pages) and Vazirmatn (Persian pages, Latin runs included) are
//   subset from the @fontsource-variable files with HarfBuzz (subset-font) to the characters the
//   copy uses plus every character a visitor may type in those scripts, and their weight axis is
//   limited to 400–800 (the weights the site uses). Output: src/assets/fonts/*.woff2.
// - Each gets metric-matched fallback faces (`size-adjust`, `ascent-override`, …) for the system
//   fonts a phone or desktop will show first. Latin fallbacks use Capsize's published metrics of
//   Arial, Helvetica Neue, Roboto and Segoe UI. Persian fallbacks are measured here, in Chromium,
//   on the Persian copy itself, for the Arabic-script system fonts installed on this machine
//   (Android's Noto Naskh Arabic and Noto Sans Arabic come with Debian's fonts-noto-core).
//   Output: src/styles/fonts.css (generated: do not edit by hand).
//
// Run it again after copy changes that bring new characters; src/styles/fonts.test.ts says when.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";
import { fromBuffer } from "@capsizecss/unpack";
import subsetFont from "subset-font";
import { chromiumPath } from "./lib/chromium.mjs";
import { FONT_TEXT } from "./font-text.mjs";

const AXES = { wght: { min: 400, max: 800 } };
const OUT = "src/assets/fonts";
const CSS = "src/styles/fonts.css";

/** Metrics of common system fonts, from @capsizecss/metrics (units per em, ascent, descent, line gap, average Latin width). */
const SYSTEM_LATIN = {
  Arial: { ascent: 1854, descent: -434, lineGap: 67, unitsPerEm: 2048, xWidthAvg: 913 },
  "Helvetica Neue": { ascent: 952, descent: -213, lineGap: 28, unitsPerEm: 1000, xWidthAvg: 450 },
  Roboto: { ascent: 1900, descent: -500, lineGap: 0, unitsPerEm: 2048, xWidthAvg: 911 },
  "Segoe UI": { ascent: 2210, descent: -514, lineGap: 0, unitsPerEm: 2048, xWidthAvg: 908 },
  // Metric-compatible with Arial: the usual sans-serif on Linux.
  "Liberation Sans": { ascent: 1854, descent: -434, lineGap: 67, unitsPerEm: 2048, xWidthAvg: 913 },
};
/** Arabic-script system fonts, in the order phones and desktops fall back to them. */
const SYSTEM_ARABIC = [
  "Noto Naskh Arabic UI",
  "Noto Naskh Arabic",
  "Noto Sans Arabic",
  "Tahoma",
  "Segoe UI",
  "DejaVu Sans",
];
const ARABIC_RANGE = "U+0600-06FF, U+0750-077F, U+08A0-08FF, U+200C-200F, U+FB50-FDFF, U+FE70-FEFF";

const families = [
  {
    name: "Inter",
    file: "inter-latin.woff2",
    source: "node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
    text: FONT_TEXT.latin,
  },
  {
    name: "Vazirmatn",
    file: "vazirmatn-fa.woff2",
    sources: [
      "node_modules/@fontsource-variable/vazirmatn/files/vazirmatn-arabic-wght-normal.woff2",
      "node_modules/@fontsource-variable/vazirmatn/files/vazirmatn-latin-wght-normal.woff2",
    ],
    text: FONT_TEXT.persian,
  },
];

const pct = (n) => `${Number((n * 100).toFixed(2))}%`;
const unicodeRange = (text) => {
  const points = [...new Set([...text].map((c) => c.codePointAt(0)))].sort((a, b) => a - b);
  const ranges = [];
  for (const p of points) {
    const last = ranges.at(-1);
    if (last && p === last[1] + 1) last[1] = p;
    else ranges.push([p, p]);
  }
  const hex = (n) => n.toString(16).toUpperCase().padStart(4, "0");
  return ranges.map(([a, b]) => (a === b ? `U+${hex(a)}` : `U+${hex(a)}-${hex(b)}`)).join(", ");
};

/** A fallback face that takes the web font's room: Capsize's formulas. */
function fallbackFace(family, local, metrics, sizeAdjust, range) {
  const em = metrics.unitsPerEm * sizeAdjust;
  const rules = [
    `font-family: "${family} fallback: ${local}"`,
    `src: local("${local}")`,
    `size-adjust: ${pct(sizeAdjust)}`,
    `ascent-override: ${pct(metrics.ascent / em)}`,
    `descent-override: ${pct(Math.abs(metrics.descent) / em)}`,
    `line-gap-override: ${pct(metrics.lineGap / em)}`,
  ];
  if (range) rules.push(`unicode-range: ${range}`);
  return `@font-face {\n  ${rules.join(";\n  ")};\n}`;
}

mkdirSync(OUT, { recursive: true });
const built = [];
for (const family of families) {
  // Vazirmatn ships its Arabic and Latin halves separately: subset each and keep the glyphs of
  // both in one file by subsetting the Arabic one for Arabic text and the Latin one for the rest.
  let buffer;
  if (family.source) {
    buffer = await subsetFont(readFileSync(family.source), family.text, { targetFormat: "woff2", variationAxes: AXES });
  } else {
    const arabic = [...family.text].filter((c) => c.codePointAt(0) >= 0x600 || /[\u200c-\u200f]/.test(c)).join("");
    const latin = [...family.text].filter((c) => !arabic.includes(c)).join("");
    buffer = await subsetFont(readFileSync(family.sources[0]), arabic, { targetFormat: "woff2", variationAxes: AXES });
    family.latinFile = family.file.replace(".woff2", "-latin.woff2");
    const latinBuffer = await subsetFont(readFileSync(family.sources[1]), latin, {
      targetFormat: "woff2",
      variationAxes: AXES,
    });
    writeFileSync(`${OUT}/${family.latinFile}`, latinBuffer);
    family.arabicText = arabic;
    family.latinText = latin;
    family.latinMetrics = await fromBuffer(latinBuffer);
    family.latinBytes = latinBuffer.length;
  }
  writeFileSync(`${OUT}/${family.file}`, buffer);
  built.push({ ...family, bytes: buffer.length, metrics: await fromBuffer(buffer) });
}

// Persian widths, measured with real shaping on the Persian copy.
const [inter, vazirmatn] = built;
const sample = [...FONT_TEXT.persianCopy].filter((c) => /[\u0600-\u06ff\u200c ]/.test(c)).join("");
const browser = await chromium.launch({ executablePath: chromiumPath() });
let arabicWidths;
try {
  const page = await browser.newPage();
  const font = readFileSync(`${OUT}/${vazirmatn.file}`).toString("base64");
  arabicWidths = await page.evaluate(
    async ({ font, sample, candidates }) => {
      const face = new FontFace("Web", `url(data:font/woff2;base64,${font})`);
      document.fonts.add(await face.load());
      const ctx = document.createElement("canvas").getContext("2d");
      const width = (family) => {
        ctx.font = `100px ${family}`;
        return ctx.measureText(sample).width;
      };
      const out = { web: width('"Web"') };
      // A font that is not installed measures like the generic family it falls back to.
      for (const name of candidates) {
        const a = width(`"${name}", monospace`);
        const b = width(`"${name}", serif`);
        if (a === b) out[name] = a;
      }
      return out;
    },
    { font, sample, candidates: SYSTEM_ARABIC },
  );
} finally {
  await browser.close();
}

const faces = [];
const report = [];
faces.push(
  `@font-face {\n  font-family: "Inter";\n  src: url("../assets/fonts/${inter.file}") format("woff2");\n  font-weight: 400 800;\n  font-style: normal;\n  font-display: swap;\n  unicode-range: ${unicodeRange(inter.text)};\n}`,
);
const interFallbacks = [];
for (const [local, metrics] of Object.entries(SYSTEM_LATIN)) {
  const sizeAdjust = inter.metrics.xWidthAvg / inter.metrics.unitsPerEm / (metrics.xWidthAvg / metrics.unitsPerEm);
  faces.push(fallbackFace("Inter", local, inter.metrics, sizeAdjust));
  interFallbacks.push(`"Inter fallback: ${local}"`);
  report.push(`Inter → ${local}: size-adjust ${pct(sizeAdjust)}`);
}

faces.push(
  `@font-face {\n  font-family: "Vazirmatn";\n  src: url("../assets/fonts/${vazirmatn.file}") format("woff2");\n  font-weight: 400 800;\n  font-style: normal;\n  font-display: swap;\n  unicode-range: ${unicodeRange(vazirmatn.arabicText)};\n}`,
  `@font-face {\n  font-family: "Vazirmatn";\n  src: url("../assets/fonts/${vazirmatn.latinFile}") format("woff2");\n  font-weight: 400 800;\n  font-style: normal;\n  font-display: swap;\n  unicode-range: ${unicodeRange(vazirmatn.latinText)};\n}`,
);
const faFallbacks = [];
for (const local of SYSTEM_ARABIC) {
  if (!arabicWidths[local]) continue;
  const sizeAdjust = arabicWidths.web / arabicWidths[local];
  faces.push(fallbackFace("Vazirmatn", local, vazirmatn.metrics, sizeAdjust, ARABIC_RANGE));
  faFallbacks.push(`"Vazirmatn fallback: ${local}"`);
  report.push(`Vazirmatn → ${local}: size-adjust ${pct(sizeAdjust)} (measured on the Persian copy)`);
}
for (const [local, metrics] of Object.entries(SYSTEM_LATIN)) {
  const m = vazirmatn.latinMetrics;
  const sizeAdjust = m.xWidthAvg / m.unitsPerEm / (metrics.xWidthAvg / metrics.unitsPerEm);
  faces.push(fallbackFace("Vazirmatn Latin", local, m, sizeAdjust));
  faFallbacks.push(`"Vazirmatn Latin fallback: ${local}"`);
}

const css = `/* Generated by \`npm run fonts\` (scripts/fonts.mjs) from the site's copy: do not edit by hand.
   ${inter.name}: ${(inter.bytes / 1024).toFixed(1)} KB. ${vazirmatn.name}: ${(vazirmatn.bytes / 1024).toFixed(1)} KB Persian + ${(vazirmatn.latinBytes / 1024).toFixed(1)} KB Latin.
   Fallback faces take the web font's room, so nothing moves when it arrives:
   ${report.join("\n   ")} */

${faces.join("\n\n")}

@theme {
  --font-sans: "Inter", ${interFallbacks.join(", ")}, ui-sans-serif, system-ui, sans-serif;
  --font-fa: "Vazirmatn", ${faFallbacks.join(", ")}, Tahoma, ui-sans-serif, sans-serif;
}
`;
writeFileSync(CSS, css);
console.log(`Wrote ${CSS} and ${readdirSync(OUT).join(", ")} in ${OUT}/`);
for (const line of [
  `Inter: ${(inter.bytes / 1024).toFixed(1)} KB (${[...inter.text].length} characters)`,
  `Vazirmatn: ${(vazirmatn.bytes / 1024).toFixed(1)} KB Persian (${[...vazirmatn.arabicText].length}) + ${(vazirmatn.latinBytes / 1024).toFixed(1)} KB Latin (${[...vazirmatn.latinText].length})`,
  ...report,
])
  console.log(`  ${line}`);
