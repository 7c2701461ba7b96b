// Where a page load's rendering time goes: a Chromium performance trace of one load (phone size, no
// interaction, from navigation to 4 s after `load`), summed by kind as DevTools' summary does it.
// Used by `npm run bench:web`; on its own, `node scripts/lib/main-thread.mjs [--cpu=4] [--runs=3]
// [--top] [paths…]` traces the current build (served by the local server) and prints the sums.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Lighthouse's mobile screen (moto g power). */
export const TRACE_VIEWPORT = { width: 412, height: 823 };
// Lighthouse's trace categories, without its screenshots and stacks: DevTools' named events only,
// so each one's self time is its own (finer categories such as "blink" would take it over).
const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "v8.execute",
  "v8",
  "toplevel",
  "blink.user_timing",
  "loading",
].join(",");

/** Trace event name → kind (self time; a name missing here counts as "other"). */
const KIND = {
  // Script: the page's own JavaScript and the engine compiling it.
  EvaluateScript: "script",
  FunctionCall: "script",
  TimerFire: "script",
  EventDispatch: "script",
  FireAnimationFrame: "script",
  FireIdleCallback: "script",
  RunMicrotasks: "script",
  "v8.compile": "script",
  "v8.compileModule": "script",
  "v8.evaluateModule": "script",
  "v8.produceCache": "script",
  "v8.produceModuleCache": "script",
  "V8.CompileCode": "script",
  "v8.run": "script",
  "v8.callFunction": "script",
  "V8.GC_SCAVENGER_SCAVENGE": "script",
  MinorGC: "script",
  MajorGC: "script",
  "BlinkGC.AtomicPhase": "script",
  // Style: matching rules and computing styles; parsing the style sheets.
  UpdateLayoutTree: "style",
  RecalculateStyles: "style",
  ParseAuthorStyleSheet: "style",
  "Document::updateStyle": "style",
  // Layout: boxes and text.
  Layout: "layout",
  "LocalFrameView::layout": "layout",
  // Paint: recording what to draw, layers and the commit to the compositor.
  PrePaint: "paint",
  Paint: "paint",
  PaintImage: "paint",
  UpdateLayer: "paint",
  UpdateLayerTree: "paint",
  Layerize: "paint",
  Commit: "paint",
  "LocalFrameView::RunPaintLifecyclePhase": "paint",
  // Decoding and rasterising (on the raster threads, counted separately).
  "Decode Image": "raster",
  "ImageDecodeTask::RunOnWorkerThread": "raster",
  RasterTask: "raster",
  "TileManager::RunTask": "raster",
  ParseHTML: "parse",
};
export const KINDS = ["script", "style", "layout", "paint", "raster", "parse", "other"];

/**
 * Sums a trace's events by kind. Main thread: the renderer's main thread (CrRendererMain), self
 * time of each complete event, so nested events are not counted twice. Raster: self time on the
 * renderer's raster and compositor threads. Also returns the main thread's long tasks (> 50 ms)
 * within the window.
 */
export function summarizeTrace(events, { from = 0, to = Infinity } = {}) {
  const names = new Map();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args.name);
  const mainKeys = new Set([...names].filter(([, n]) => n === "CrRendererMain").map(([k]) => k));
  const rasterKeys = new Set(
    [...names].filter(([, n]) => /^(CompositorTileWorker|Compositor$|RasterThread)/.test(n)).map(([k]) => k),
  );
  /** Complete events (X, or B/E pairs) of one thread, as [start, end, name]. */
  const spans = new Map();
  const open = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (!mainKeys.has(key) && !rasterKeys.has(key)) continue;
    if (!spans.has(key)) spans.set(key, []);
    if (e.ph === "X" && e.dur !== undefined) spans.get(key).push([e.ts, e.ts + e.dur, e.name]);
    else if (e.ph === "B") (open.get(key) ?? open.set(key, []).get(key)).push(e);
    else if (e.ph === "E") {
      const begin = open.get(key)?.pop();
      if (begin) spans.get(key).push([begin.ts, e.ts, begin.name]);
    }
  }
  const totals = Object.fromEntries(KINDS.map((k) => [k, 0]));
  const longTasks = [];
  for (const [key, list] of spans) {
    const isMain = mainKeys.has(key);
    const self = selfTimes(list);
    for (const { span } of self)
      if (isMain && span[2] === "RunTask" && span[1] - span[0] > 50_000 && span[0] >= from && span[0] <= to)
        longTasks.push(Math.round((span[1] - span[0]) / 1000));
    for (const { span, self: t } of self) {
      if (span[0] < from || span[0] > to || t <= 0) continue;
      const kind = KIND[span[2]] ?? "other";
      if (!isMain && kind !== "raster") continue;
      if (isMain && kind === "raster") totals.raster += t / 1000;
      else if (isMain) totals[kind] += t / 1000;
      else totals.raster += t / 1000;
    }
  }
  for (const k of KINDS) totals[k] = Math.round(totals[k]);
  return { ...totals, rendering: totals.style + totals.layout + totals.paint, longTasks };
}

/**
 * Traces one load of `url` in a fresh context of a Playwright `browser`: phone viewport, the CPU
 * slowed `cpu` times (CDP Emulation.setCPUThrottlingRate), no network throttling, the splash's
 * first view as a first-time visitor sees it. Returns summarizeTrace's figures for the window from
 * navigation to `after` ms past `load`, and the same for the top event names when `top` is set.
 */
export async function traceLoad(browser, url, { cpu = 1, after = 4000, top = false } = {}) {
  const context = await browser.newContext({ viewport: TRACE_VIEWPORT, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    if (cpu > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
    const events = [];
    cdp.on("Tracing.dataCollected", ({ value }) => events.push(...value));
    const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.start", { categories: CATEGORIES, transferMode: "ReportEvents" });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForTimeout(after);
    await cdp.send("Tracing.end");
    await complete;
    // The window: from the navigation's start on the renderer to the end of the trace.
    const start = events.find((e) => e.name === "navigationStart" || e.name === "TracingStartedInBrowser")?.ts ?? 0;
    const summary = summarizeTrace(events, { from: start });
    if (top) summary.top = topNames(events, start);
    if (process.env.TRACE_EVENTS) summary.events = bigEvents(events, start);
    return summary;
  } finally {
    await context.close();
  }
}

/** The main thread's 15 costliest event names by self time (for finding a cause). */
function topNames(events, from) {
  const main = new Set(
    events.filter((e) => e.ph === "M" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  const spans = events
    .filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === "X" && e.dur !== undefined && e.ts >= from)
    .map((e) => [e.ts, e.ts + e.dur, e.name]);
  const byName = new Map();
  for (const { span, self } of selfTimes(spans)) byName.set(span[2], (byName.get(span[2]) ?? 0) + self);
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([name, t]) => `${name} ${Math.round(t / 1000)}`);
}

/** The main thread's style, layout and paint events over 3 ms, with what they worked on (diagnosis). */
function bigEvents(events, from) {
  const main = new Set(
    events.filter((e) => e.ph === "M" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  const out = [];
  const open = new Map();
  for (const e of events) {
    if (!main.has(`${e.pid}:${e.tid}`) || !/^(Layout|UpdateLayoutTree|Paint|PrePaint|Commit|Layerize)$/.test(e.name))
      continue;
    if (e.ph === "B") open.set(e.name, e);
    const begin = e.ph === "E" ? open.get(e.name) : e;
    const dur = e.ph === "E" ? e.ts - begin.ts : e.dur;
    if (e.ph === "B" || dur === undefined || dur < 3000) continue;
    const data = { ...begin.args?.beginData, ...e.args?.endData, ...e.args?.data };
    const what = ["dirtyObjects", "totalObjects", "elementCount", "partialLayout"]
      .filter((k) => data[k] !== undefined)
      .map((k) => `${k}=${data[k]}`)
      .join(" ");
    out.push(`${Math.round((begin.ts - from) / 1000)} ms ${e.name} ${Math.round(dur / 1000)} ms ${what}`);
  }
  return out;
}

/** Each span of one thread ([start, end, name]) with its self time: its length less its children's. */
function selfTimes(spans) {
  // Parents first: by start, then the longer one first.
  const list = [...spans].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const stack = [];
  const out = [];
  for (const span of list) {
    while (stack.length && stack.at(-1).span[1] <= span[0]) stack.pop();
    const item = { span, self: span[1] - span[0] };
    if (stack.length) stack.at(-1).self -= Math.min(span[1], stack.at(-1).span[1]) - span[0];
    stack.push(item);
    out.push(item);
  }
  return out;
}

/** The median of each figure over several summaries. */
export function medianSummary(summaries) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const out = {};
  for (const k of [...KINDS, "rendering"]) out[k] = median(summaries.map((s) => s[k]));
  out.longTasks = summaries[summaries.indexOf(summaries.find((s) => s.rendering === out.rendering))]?.longTasks ?? [];
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
  const paths = args.filter((a) => !a.startsWith("--"));
  const { chromium } = await import("@playwright/test");
  const { chromiumPath } = await import("./chromium.mjs");
  const { startServer } = await import("./server.mjs");
  const server = await startServer({ port: Number(process.env.PORT || 0), log: { error: () => {} } });
  const browser = await chromium.launch({ executablePath: chromiumPath() });
  const cpu = option("cpu", 4);
  const runs = option("runs", 3);
  console.log(
    `load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}; CPU ÷${cpu}; median of ${runs}`,
  );
  try {
    for (const path of paths.length ? paths : ["/en/", "/fa/", "/nl/startup-visa"]) {
      const all = [];
      for (let i = 0; i < runs; i++)
        all.push(await traceLoad(browser, server.url + path, { cpu, top: args.includes("--top") }));
      const m = medianSummary(all);
      console.log(
        `${path.padEnd(20)} ${KINDS.map((k) => `${k} ${m[k]}`).join(", ")}; style+layout+paint ${m.rendering}; long tasks ${m.longTasks.join(", ") || "none"}`,
      );
      if (args.includes("--top")) console.log(`   ${all.at(-1).top.join(", ")}`);
      if (process.env.TRACE_EVENTS) console.log(`   ${all.at(-1).events.join("\n   ")}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}
