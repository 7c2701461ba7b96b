// Where a page load's rendering time goes: a Chromium performance trace of one load (phone size, no
// interaction, from navigation to 4 s after `load`), summed by kind as DevTools' summary does it.
// Used by `npm run bench:web`; on its own, `node scripts/bench/main-thread.mjs [--cpu=4] [--runs=3]
// [--tasks] [--compare=dirA,dirB] [paths…]` traces the current build (or several builds, load by
// load in turn) and prints the sums (with --tasks, the last run's tasks over 10 ms and what they did).
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
 * Sums a trace's events by kind, twice: by wall time (what a visitor waits) and by the thread's own
 * CPU time (which other work on a busy machine inflates much less, so before/after comparisons hold
 * there). Main thread: the renderer's main thread (CrRendererMain), self time of each complete
 * event, so nested events are not counted twice. Raster: self time on the renderer's raster and
 * compositor threads. Also returns the main thread's long tasks (> 50 ms wall) within the window.
 */
export function summarizeTrace(events, { pid, from = 0, to = Infinity } = {}) {
  const names = new Map();
  for (const e of events)
    if (e.ph === "M" && e.name === "thread_name" && (pid === undefined || e.pid === pid))
      names.set(`${e.pid}:${e.tid}`, e.args.name);
  const mainKeys = new Set([...names].filter(([, n]) => n === "CrRendererMain").map(([k]) => k));
  const rasterKeys = new Set(
    [...names]
      .filter(([, n]) => /^(CompositorTileWorker|ThreadPoolForegroundWorker|RasterThread)/.test(n))
      .map(([k]) => k),
  );
  const spans = threadSpans(events, new Set([...mainKeys, ...rasterKeys]));
  const wall = Object.fromEntries(KINDS.map((k) => [k, 0]));
  const cpu = Object.fromEntries(KINDS.map((k) => [k, 0]));
  const longTasks = [];
  for (const [key, list] of spans) {
    const isMain = mainKeys.has(key);
    for (const { span, self, selfCpu } of selfTimes(list)) {
      if (span.start < from || span.start > to) continue;
      if (isMain && span.name === "RunTask" && span.end - span.start > 50_000)
        longTasks.push(Math.round((span.end - span.start) / 1000));
      const kind = KIND[span.name] ?? "other";
      if (!isMain && kind !== "raster") continue;
      wall[kind] += Math.max(0, self) / 1000;
      cpu[kind] += Math.max(0, selfCpu) / 1000;
    }
  }
  for (const k of KINDS) {
    wall[k] = Math.round(wall[k]);
    cpu[k] = Math.round(cpu[k]);
  }
  return {
    wall: { ...wall, rendering: wall.style + wall.layout + wall.paint },
    cpu: { ...cpu, rendering: cpu.style + cpu.layout + cpu.paint },
    longTasks,
  };
}

/** Each thread's complete events (X, or B/E pairs) as { start, end, cpu, name }, by "pid:tid". */
function threadSpans(events, keys) {
  const spans = new Map();
  const open = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (!keys.has(key)) continue;
    if (!spans.has(key)) spans.set(key, []);
    if (e.ph === "X" && e.dur !== undefined)
      spans.get(key).push({ start: e.ts, end: e.ts + e.dur, cpu: e.tdur ?? e.dur, name: e.name });
    else if (e.ph === "B") (open.get(key) ?? open.set(key, []).get(key)).push(e);
    else if (e.ph === "E") {
      const begin = open.get(key)?.pop();
      if (begin)
        spans.get(key).push({
          start: begin.ts,
          end: e.ts,
          cpu: begin.tts !== undefined && e.tts !== undefined ? e.tts - begin.tts : e.ts - begin.ts,
          name: begin.name,
        });
    }
  }
  return spans;
}

/**
 * Traces one load of `url` in a fresh context of a Playwright `browser`: phone viewport, the CPU
 * slowed `cpu` times (CDP Emulation.setCPUThrottlingRate), no network throttling, the splash's
 * first view as a first-time visitor sees it. Returns summarizeTrace's figures for the window from
 * navigation to `after` ms past `load`, and with `tasks` the main thread's tasks over 10 ms.
 */
export async function traceLoad(browser, url, options = {}) {
  // Now and then (on a busy machine) the trace holds no event of the page's renderer: once more.
  try {
    return await traceOnce(browser, url, options);
  } catch (error) {
    if (!(error instanceof MissingNavigation)) throw error;
    return await traceOnce(browser, url, options);
  }
}

class MissingNavigation extends Error {}

async function traceOnce(browser, url, { cpu = 1, after = 4000, tasks = false }) {
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
    // The page's renderer (not the one of the blank page before it), from the navigation's start.
    const navigation =
      events.find((e) => e.name === "navigationStart" && e.args?.data?.documentLoaderURL === page.url()) ??
      events.find((e) => e.name === "ParseHTML" && e.args?.beginData?.url === page.url());
    if (!navigation) {
      const seen = events.filter((e) => e.name === "navigationStart" || e.name === "ParseHTML");
      throw new MissingNavigation(
        `no navigation to ${page.url()} in the trace: ${JSON.stringify(seen.map((e) => e.args))}`,
      );
    }
    const window = { pid: navigation.pid, from: navigation.ts };
    const summary = summarizeTrace(events, window);
    if (tasks) summary.tasks = bigTasks(events, window);
    return summary;
  } finally {
    await context.close();
  }
}

/** The main thread's tasks over 10 ms: when, how long, and their self time by kind (diagnosis). */
function bigTasks(events, { pid, from }) {
  const main = new Set(
    events
      .filter((e) => e.ph === "M" && e.pid === pid && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const out = [];
  let task = null;
  for (const [, list] of threadSpans(events, main))
    for (const { span, self } of selfTimes(list.filter((s) => s.start >= from))) {
      if (span.name === "RunTask") {
        task = span.end - span.start > 10_000 ? { span, kinds: {} } : null;
        if (task) out.push(task);
      }
      if (task && span.start < task.span.end) {
        const kind = KIND[span.name] ?? span.name;
        task.kinds[kind] = (task.kinds[kind] ?? 0) + self;
      }
    }
  return out.map(
    ({ span, kinds }) =>
      `${Math.round((span.start - from) / 1000)} ms: task ${Math.round((span.end - span.start) / 1000)} ms (` +
      Object.entries(kinds)
        .filter(([, t]) => t > 1000)
        .sort((x, y) => y[1] - x[1])
        .map(([k, t]) => `${k} ${Math.round(t / 1000)}`)
        .join(", ") +
      ")",
  );
}

/** Each span of one thread with its self time, wall and CPU: its own less its children's. */
function selfTimes(spans) {
  // Parents first: by start, then the longer one first.
  const list = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const stack = [];
  const out = [];
  for (const span of list) {
    while (stack.length && stack.at(-1).span.end <= span.start) stack.pop();
    const item = { span, self: span.end - span.start, selfCpu: span.cpu };
    const parent = stack.at(-1);
    if (parent) {
      parent.self -= Math.min(span.end, parent.span.end) - span.start;
      parent.selfCpu -= span.cpu;
    }
    stack.push(item);
    out.push(item);
  }
  return out;
}

/** The median of each figure over several summaries, and the long tasks of the median run. */
export function medianSummary(summaries) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const of = (clock) =>
    Object.fromEntries([...KINDS, "rendering"].map((k) => [k, median(summaries.map((s) => s[clock][k]))]));
  const wall = of("wall");
  return {
    wall,
    cpu: of("cpu"),
    longTasks: summaries.find((s) => s.wall.rendering === wall.rendering)?.longTasks ?? [],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const value = (name) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const paths = args.filter((a) => !a.startsWith("--"));
  const { chromium } = await import("@playwright/test");
  const { chromiumPath } = await import("../test/chromium.mjs");
  const { startServer } = await import("../runtime/server.mjs");
  // --compare=dirA,dirB: several builds, traced in turn load by load, so they share the machine's hour.
  const dirs = value("compare")?.split(",") ?? ["dist"];
  const servers = [];
  for (const publishDir of dirs) servers.push(await startServer({ port: 0, publishDir, log: { error: () => {} } }));
  // The GPU off, as Lighthouse runs Chromium: raster then runs on the renderer's threads.
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--disable-gpu"] });
  const cpu = Number(value("cpu") ?? 4);
  const runs = Number(value("runs") ?? 3);
  const tasks = args.includes("--tasks");
  console.log(
    `load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}; CPU ÷${cpu}; median of ${runs}`,
  );
  const line = (figures) =>
    `${KINDS.map((k) => `${k} ${figures[k]}`).join(", ")}; style+layout+paint ${figures.rendering}`;
  try {
    await traceLoad(browser, servers[0].url + "/en/", { after: 500 }); // a cold browser's first load is slower
    for (const path of paths.length ? paths : ["/en/", "/fa/", "/nl/startup-visa"]) {
      const all = dirs.map(() => []);
      for (let i = 0; i < runs; i++)
        for (const [d, server] of servers.entries())
          all[d].push(await traceLoad(browser, server.url + path, { cpu, tasks }));
      for (const [d, dir] of dirs.entries()) {
        const m = medianSummary(all[d]);
        console.log(
          `${path} (${dir})\n  wall: ${line(m.wall)}; long tasks ${m.longTasks.join(", ") || "none"}\n` +
            `  CPU:  ${line(m.cpu)} (runs: ${all[d].map((r) => r.cpu.rendering).join(", ")})`,
        );
        if (tasks) console.log(`  last run's tasks:\n    ${all[d].at(-1).tasks.join("\n    ")}`);
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.close();
  }
}
