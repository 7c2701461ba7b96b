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
import { chromiumPath } from "../test/chromium.mjs";
import { FONT_TEXT } from "./font-text.mjs";

const AXES = { wght: { min: 400, max: 800 } };
const OUT = "src/assets/fonts";
const CSS = "src/styles/fonts.css";

/**
 * The system fonts a page shows before its web font arrives, in the order devices fall back to
 * them. `capsize`: published metrics (@capsizecss/metrics), for fonts this machine does not have;
 * the others are measured here in Chromium, regular and bold, on the site's own copy.
 */
// Few and in this order: every system font named here that a device lacks costs a lookup before
// the first paint (on Linux, fontconfig's are slow). Linux's first, then the one in Windows, macOS and
// iOS, then Android's. `names`/`boldNames`: local() names, full or PostScript, regular and bold.
const LATIN_FALLBACKS = [
  // The usual sans-serif on Linux (metric-compatible with Arial).
  { local: "Liberation Sans", names: ["Liberation Sans"], boldNames: ["Liberation Sans Bold"] },
  {
    local: "Arial",
    names: ["Arial"],
    boldNames: ["Arial Bold"],
    capsize: {
      regular: { ascent: 1854, descent: -434, lineGap: 67, unitsPerEm: 2048, xWidthAvg: 913 },
      bold: { ascent: 1854, descent: -434, lineGap: 67, unitsPerEm: 2048, xWidthAvg: 983 },
    },
  },
  { local: "Roboto", names: ["Roboto"], capsize: { regular: { unitsPerEm: 2048, xWidthAvg: 911 } } },
];
/** Arabic-script system fonts: DejaVu Sans (Linux), Noto Naskh Arabic and Noto Sans Arabic (Android, Linux). */
const ARABIC_FALLBACKS = [
  { local: "DejaVu Sans", names: ["DejaVu Sans"], boldNames: ["DejaVu Sans Bold"] },
  {
    local: "Noto Naskh Arabic",
    names: ["Noto Naskh Arabic Regular", "Noto Naskh Arabic UI"],
    boldNames: ["Noto Naskh Arabic Bold", "Noto Naskh Arabic UI Bold"],
  },
  { local: "Noto Sans Arabic", names: ["Noto Sans Arabic Regular"], boldNames: ["Noto Sans Arabic Bold"] },
];
const ARABIC_RANGE = "U+0600-06FF, U+0750-077F, U+08A0-08FF, U+200C-200F, U+FB50-FDFF, U+FE70-FEFF";
/**
 * The weights a fallback face stands in for: regular text (400–500) with the system font's
 * regular; semibold and bold (600–700) and extra bold (800, the page titles) with its bold, each
 * scaled to the web font at that weight.
 */
const TIERS = [
  { range: "100 549", web: 400, system: 400, sample: 0 },
  { range: "550 749", web: 700, system: 700, sample: 1 },
  { range: "750 900", web: 800, system: 700, sample: 2 },
];

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

/** A fallback face that takes the web font's room: Capsize's formulas with a measured size-adjust. */
function fallbackFace(family, local, metrics, sizeAdjust, { weight, range } = {}) {
  const em = metrics.unitsPerEm * sizeAdjust;
  const rules = [
    `font-family: "${family} fallback: ${local.name}"`,
    `src: ${local.faces.map((f) => `local("${f}")`).join(", ")}`,
    ...(weight ? [`font-weight: ${weight}`] : []),
    `size-adjust: ${pct(sizeAdjust)}`,
    `ascent-override: ${pct(metrics.ascent / em)}`,
    `descent-override: ${pct(Math.abs(metrics.descent) / em)}`,
    `line-gap-override: ${pct(metrics.lineGap / em)}`,
    ...(range ? [`unicode-range: ${range}`] : []),
  ];
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

// Widths of the copy in each font, regular (400) and bold (700), measured with real shaping.
const [inter, vazirmatn] = built;
// Regular widths on the body copy; bold widths on the headings (set at 700–800), where a
// mismatch would show most.
const only = (text, pattern) => [...text].filter((c) => pattern.test(c)).join("");
const LATIN = /[\p{Script=Latin} ]/u;
const PERSIAN = /[\u0600-\u06ff\u200c ]/;
const samples = {
  latin: [
    only(FONT_TEXT.englishAndDutch, LATIN),
    only(FONT_TEXT.headings.latin, LATIN),
    only(FONT_TEXT.pageTitles.latin, LATIN),
  ],
  persian: [
    only(FONT_TEXT.persianCopy, PERSIAN),
    only(FONT_TEXT.headings.persian, PERSIAN),
    only(FONT_TEXT.pageTitles.persian, PERSIAN),
  ],
};
const browser = await chromium.launch({ executablePath: chromiumPath() });
let widths;
try {
  const page = await browser.newPage();
  const file = (name) => readFileSync(`${OUT}/${name}`).toString("base64");
  widths = await page.evaluate(
    async ({ webFonts, samples, tiers, locals }) => {
      for (const [name, data] of Object.entries(webFonts)) {
        const face = new FontFace(name, `url(data:font/woff2;base64,${data})`, { weight: "400 800" });
        document.fonts.add(await face.load());
      }
      const ctx = document.createElement("canvas").getContext("2d");
      const width = (family, weight, sample) => {
        ctx.font = `${weight} 100px ${family}`;
        return ctx.measureText(sample).width;
      };
      const out = {};
      for (const [key, texts] of Object.entries(samples)) {
        const row = (out[key] = {});
        // Per tier: the web font at the tier's weight, on the tier's sample, and the same sample at 400.
        for (const name of Object.keys(webFonts))
          row[name] = tiers.map((t) => [
            width(`"${name}"`, t.web, texts[t.sample]),
            width(`"${name}"`, 400, texts[t.sample]),
          ]);
        // A font that is not installed measures like the generic family after it.
        for (const name of locals) {
          const [a, b] = [`"${name}", monospace`, `"${name}", serif`].map((f) => width(f, 400, texts[0]));
          if (a === b) row[name] = tiers.map((t) => [width(`"${name}", monospace`, t.system, texts[t.sample])]);
        }
      }
      return out;
    },
    {
      webFonts: {
        Inter: file(inter.file),
        VazirmatnArabic: file(vazirmatn.file),
        VazirmatnLatin: file(vazirmatn.latinFile),
      },
      samples,
      tiers: TIERS,
      locals: [...LATIN_FALLBACKS, ...ARABIC_FALLBACKS].map((f) => f.local),
    },
  );
} finally {
  await browser.close();
}

/**
 * Fallback faces for one web font: for each system font, one face per weight tier (regular only
 * when the bold widths are unknown), scaled so the copy takes the same width as in the web font.
 */
function fallbacks(family, web, metrics, xWidthAvg, sample, candidates, range) {
  const faces = [];
  const names = [];
  for (const candidate of candidates) {
    // Published metrics first: fontconfig answers for a missing font with a look-alike (Arial → Liberation Sans).
    const measured = !candidate.capsize && widths[sample][candidate.local];
    const webTiers = widths[sample][web];
    let adjusts;
    if (measured) adjusts = TIERS.map((_, i) => webTiers[i][0] / measured[i][0]);
    else if (candidate.capsize) {
      const em = (m) => m.xWidthAvg / m.unitsPerEm;
      const webEm = xWidthAvg / metrics.unitsPerEm;
      // The web font's width per em at a weight: at 400 from its metrics, scaled by how much wider that weight sets the sample.
      adjusts = TIERS.map((tier, i) => {
        const system = tier.system >= 700 ? candidate.capsize.bold : candidate.capsize.regular;
        return system ? (webEm * webTiers[i][0]) / webTiers[i][1] / em(system) : null;
      });
    } else continue;
    const tiers = candidate.boldNames && adjusts.every(Boolean) ? TIERS : [null];
    for (const [i, tier] of tiers.entries()) {
      const names = tier && tier.system >= 700 ? candidate.boldNames : candidate.names;
      faces.push(
        fallbackFace(family, { name: candidate.local, faces: names }, metrics, adjusts[i], {
          weight: tier?.range,
          range,
        }),
      );
    }
    names.push(`"${family} fallback: ${candidate.local}"`);
    report.push(
      `${family} → ${candidate.local}: size-adjust ${tiers
        .map((t, i) => `${pct(adjusts[i])}${t ? ` (${t.web})` : ""}`)
        .join(", ")}${measured ? ", measured" : ", Capsize metrics"}`,
    );
  }
  return { faces, names };
}

const report = [];
const webFace = (family, file, text) =>
  `@font-face {\n  font-family: "${family}";\n  src: url("../assets/fonts/${file}") format("woff2");\n  font-weight: 400 800;\n  font-style: normal;\n  font-display: optional;\n  unicode-range: ${unicodeRange(text)};\n}`;
const interFallbacks = fallbacks("Inter", "Inter", inter.metrics, inter.metrics.xWidthAvg, "latin", LATIN_FALLBACKS);
const persianFallbacks = fallbacks(
  "Vazirmatn",
  "VazirmatnArabic",
  vazirmatn.metrics,
  vazirmatn.metrics.xWidthAvg,
  "persian",
  ARABIC_FALLBACKS,
  ARABIC_RANGE,
);
const persianLatinFallbacks = fallbacks(
  "Vazirmatn Latin",
  "VazirmatnLatin",
  vazirmatn.latinMetrics,
  vazirmatn.latinMetrics.xWidthAvg,
  "latin",
  LATIN_FALLBACKS,
);
const faces = [
  webFace("Inter", inter.file, inter.text),
  ...interFallbacks.faces,
  webFace("Vazirmatn", vazirmatn.file, vazirmatn.arabicText),
  webFace("Vazirmatn", vazirmatn.latinFile, vazirmatn.latinText),
  ...persianFallbacks.faces,
  ...persianLatinFallbacks.faces,
];
const interStack = interFallbacks.names;
const faStack = [...persianFallbacks.names, ...persianLatinFallbacks.names];

const css = `/* Generated by \`npm run fonts\` (scripts/assets/fonts.mjs) from the site's copy: do not edit by hand.
   ${inter.name}: ${(inter.bytes / 1024).toFixed(1)} KB. ${vazirmatn.name}: ${(vazirmatn.bytes / 1024).toFixed(1)} KB Persian + ${(vazirmatn.latinBytes / 1024).toFixed(1)} KB Latin.
   Fallback faces take the web font's room, so nothing moves when it arrives:
   ${report.join("\n   ")} */

${faces.join("\n\n")}

@theme {
  --font-sans: "Inter", ${interStack.join(", ")}, ui-sans-serif, system-ui, sans-serif;
  --font-sans-fallback: ${interStack.join(", ")}, ui-sans-serif, system-ui, sans-serif;
  --font-fa: "Vazirmatn", ${faStack.join(", ")}, Tahoma, ui-sans-serif, sans-serif;
  --font-fa-fallback: ${faStack.join(", ")}, Tahoma, ui-sans-serif, sans-serif;
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
