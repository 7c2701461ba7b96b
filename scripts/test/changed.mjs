// `npm run test:changed`: the unit, API and browser tests that reach what changed since `main` (commits,
// staged and unstaged edits, new files), so a change is checked in a minute or two. The full run
// (`npm test`, `.ci/run`) stays the check before a commit (docs/architecture.md, "Tests").
//
// The selection is an import graph of the tree's own modules (relative and `#alias` imports; type-only
// imports run nothing and are left out), walked from each changed module to the modules that import it:
//  - a vitest file runs when it changed, or imports a changed module directly or through product
//    modules. The walk stops at test helpers (`functions/_tests/*.ts`, `db/testing.ts`, `e2e/*.ts` that
//    are not tests), which pass a change on only when they changed themselves: the API harness imports
//    the form guard to post the forms, which does not make every API test a test of the form guard.
//  - the walk also stops at a function (`functions/<name>.ts`): past it run the tests written for it,
//    its API tests and browser specs as scripts/test/function-tests.mjs lists them, not every test
//    that calls it to make its own records. A changed function itself still runs every vitest file
//    that imports it. A function missing from that table runs what imports it and the specs that name
//    its addresses (changed.test.ts fails until it has a line).
//  - a browser spec imports no product code, so it runs when it changed, when a test helper it imports
//    changed, when an island it names (as `hydrated(page, "ContactForm")` does) changed through its
//    imports, or when it is listed for a function the walk reached.
//  - a change to what every test or page shares (the configs, package.json, the migrations, pages,
//    layouts, styles, texts, public/) runs every vitest file or every spec it can affect, listed in GLOBAL.
//  - anything else (docs/, Markdown, the reviews) runs nothing.
//
// The vitest files and the browser specs run side by side (the browser on 2 workers, beside vitest); the
// vitest output is printed when both have ended. The browser specs run against dist/, rebuilt first only
// when a build input is newer (scripts/build/build-if-needed.mjs): a change under functions/ or db/
// alone is served from the functions' source and needs no build.
//
//   npm run test:changed                 run the selection
//   npm run test:changed -- --list       print it, with why each test is in it, and run nothing
//   npm run test:changed -- --base=ref   compare with another ref than main
import { execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROUTES_FILE = "src/shared/routes.ts";
const CODE = /\.(ts|tsx|mjs|js|astro)$/;
const VITEST_TEST = /^(src|server|tools|functions|db|scripts)\/.*\.test\.ts$/;
const E2E_SPEC = /^e2e\/.*\.spec\.ts$/;
/** Test helpers: a change reaching them from product code does not pass on (see the top of the file). */
const SUPPORT = (file) =>
  (/^e2e\//.test(file) && !E2E_SPEC.test(file)) ||
  (/^functions\/_tests\//.test(file) && !file.endsWith(".test.ts")) ||
  ["db/testing.ts", "db/test-setup.ts"].includes(file);

/** Changes that reach every vitest file ("vitest"), every browser spec ("e2e") or both. */
export const GLOBAL = [
  { test: (f) => ["package.json", "package-lock.json", "tsconfig.json"].includes(f), runs: ["vitest", "e2e"] },
  { test: (f) => f === "vitest.config.ts" || f === "db/test-setup.ts", runs: ["vitest"] },
  { test: (f) => f === "playwright.config.ts" || f.startsWith("scripts/runtime/"), runs: ["e2e"] },
  // The migrations make the template every database test copies, and the e2e server's database.
  { test: (f) => f.startsWith("db/migrations/"), runs: ["vitest", "e2e"] },
  // What every page is built from: a change shows on pages no spec names.
  {
    test: (f) =>
      /^src\/(pages|layouts|styles|i18n|content|config)\//.test(f) ||
      f.startsWith("public/") ||
      f === "astro.config.mjs" ||
      f.startsWith("scripts/build/"),
    runs: ["e2e"],
  },
];

const git = (root, args) => execFileSync("git", args, { cwd: root, encoding: "utf8" });

/** Files changed since `base`: its merge base with HEAD against the work tree, and untracked files. */
export function changedFiles(root, base = "main") {
  const since = git(root, ["merge-base", base, "HEAD"]).trim();
  const changed = git(root, ["diff", "--name-only", since]).split("\n");
  const untracked = git(root, ["ls-files", "--others", "--exclude-standard"]).split("\n");
  return [...new Set([...changed, ...untracked].filter(Boolean))].sort();
}

/** The project's code files (tracked and new). */
function codeFiles(root) {
  return git(root, ["ls-files", "--cached", "--others", "--exclude-standard"])
    .split("\n")
    .filter((f) => CODE.test(f) && !f.startsWith("node_modules/") && existsSync(path.join(root, f)));
}

/** What `specifier` imported from `from` names, as a file of the tree, or undefined (a package). */
function resolveImport(specifier, from, aliases, files) {
  let base;
  if (specifier.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else if (specifier.startsWith("#")) {
    const alias = Object.keys(aliases).find((a) => specifier.startsWith(a.replace("*", "")));
    if (!alias) return undefined;
    base = path.posix.normalize(aliases[alias].replace("./", "").replace("*", specifier.slice(alias.length - 1)));
  } else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}.js`, `${base}/index.ts`])
    if (files.has(candidate)) return candidate;
  return undefined;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** file → the tree's files it imports at run time. */
export function importGraph(root) {
  const files = new Set(codeFiles(root));
  const aliases = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).imports ?? {};
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    const imports = new Set();
    for (const m of text.matchAll(IMPORT)) {
      if (m[1]) continue; // `import type`: nothing runs
      const target = resolveImport(m[2] ?? m[3], file, aliases, files);
      if (target) imports.add(target);
    }
    graph.set(file, imports);
  }
  return graph;
}

/** A function's file (`functions/<name>.ts`, one Netlify Function) → its name, or undefined. */
export const functionName = (file) => /^functions\/([^/_][^/]*)\.ts$/.exec(file)?.[1];

/**
 * Every file that imports one of `changed`, directly or through product modules, with `changed` itself.
 * The walk goes on past neither a test helper nor a function in `stopAt` (unless it changed itself).
 */
export function reached(graph, changed, stopAt = new Set()) {
  const importers = new Map();
  for (const [file, imports] of graph)
    for (const target of imports) importers.set(target, [...(importers.get(target) ?? []), file]);
  const seen = new Set(changed);
  const queue = [...changed];
  while (queue.length) {
    const file = queue.shift();
    if ((SUPPORT(file) || stopAt.has(functionName(file))) && !changed.includes(file)) continue;
    for (const importer of importers.get(file) ?? [])
      if (!seen.has(importer)) {
        seen.add(importer);
        queue.push(importer);
      }
  }
  return seen;
}

/** The API addresses a text names: literal `/api/…` strings and `ROUTES.…` entries. */
export function apiPathsIn(text, routes) {
  const paths = new Set();
  // Addresses as strings ("/api/…", `/api/…${id}`), not import paths ("../shared/api/….ts").
  for (const m of text.matchAll(/(?<=["'`])\/api\/[\w\-/.:${}]*/g))
    paths.add(m[0].replace(/\$\{[^}]*\}/g, "x").replace(/\/$/, ""));
  for (const m of text.matchAll(/\bROUTES((?:\.\w+)+)/g)) {
    const value = m[1]
      .slice(1)
      .split(".")
      .reduce((node, key) => node?.[key], routes);
    if (typeof value === "string") paths.add(value);
  }
  return paths;
}

/** Whether address `used` (from a test) is one a function answers on (`pattern`, with `:params`). */
export function pathMatches(pattern, used) {
  const regex = new RegExp(`^${pattern.replace(/[.]/g, "\\.").replace(/:\w+/g, "[^/]+")}(?:[?#].*)?$`);
  return regex.test(used) || regex.test(used.split("?")[0]);
}

/** The closure of `file` over the graph (what it imports, transitively). */
function closure(graph, file) {
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length)
    for (const next of graph.get(queue.shift()) ?? []) if (!seen.has(next) && (seen.add(next), true)) queue.push(next);
  return seen;
}

/** What a browser spec reaches: the API addresses and islands it names, itself and through its helpers. */
export function specReach(root, graph, spec, routes, islands) {
  const read = (f) => readFileSync(path.join(root, f), "utf8");
  const own = read(spec);
  let text = own;
  const helpers = [...(graph.get(spec) ?? [])].filter((f) => f.startsWith("e2e/"));
  // The exported functions of the e2e helpers the spec calls, with their bodies.
  for (const helper of helpers) {
    const source = read(helper);
    for (const part of source.split(/\n(?=export )/)) {
      const name = /^export (?:async )?function (\w+)|^export const (\w+)/.exec(part);
      const id = name?.[1] ?? name?.[2];
      if (id && new RegExp(`\\b${id}\\b`).test(own)) text += `\n${part}`;
    }
  }
  // Islands are named by string, as `hydrated(page, "ContactForm")` names them.
  const named = islands.filter(({ name }) => new RegExp(`["'\`]${name}["'\`]`).test(text)).map(({ file }) => file);
  // What the islands call: their own code and what it imports, without the address book itself
  // (src/shared/routes.ts names every address; the calls name the entries they use).
  for (const island of named)
    for (const f of closure(graph, island))
      if (!f.startsWith("functions/") && f !== ROUTES_FILE) text += `\n${read(f)}`;
  return { paths: apiPathsIn(text, routes), islands: new Set(named.flatMap((f) => [...closure(graph, f)])), helpers };
}

/** The table of the tests written for each function in `root` (scripts/test/function-tests.mjs), or {}. */
async function functionTests(root) {
  const file = path.join(root, "scripts/test/function-tests.mjs");
  return existsSync(file) ? (await import(pathToFileURL(file).href)).FUNCTION_TESTS : {};
}

/**
 * The tests that reach `changed`: { vitest: [...files], e2e: [...specs], why }, `why` saying for each
 * test the first reason it was chosen.
 */
export async function selectTests(root, changed) {
  const graph = importGraph(root);
  const files = [...graph.keys()];
  const vitestFiles = files.filter((f) => VITEST_TEST.test(f)).sort();
  const specs = files.filter((f) => E2E_SPEC.test(f)).sort();
  const table = await functionTests(root);
  const listed = new Set(Object.keys(table));
  const why = new Map();
  const choose = (test, reason) => (why.has(test) || why.set(test, reason), true);

  const global = new Map();
  for (const f of changed) for (const g of GLOBAL) if (g.test(f)) for (const runs of g.runs) global.set(runs, f);
  const touched = reached(
    graph,
    changed.filter((f) => graph.has(f)),
    listed,
  );
  // The functions the walk reached (or that changed), each with the tests written for it.
  const functions = [...touched].map(functionName).filter((name) => name && listed.has(name));
  const written = (kind, test) => functions.find((name) => table[name][kind].includes(test));

  const vitest = vitestFiles.filter((f) => {
    if (global.has("vitest")) return choose(f, `${global.get("vitest")} reaches every vitest file`);
    if (touched.has(f)) return choose(f, changed.includes(f) ? "changed" : "imports what changed");
    const name = written("api", path.posix.basename(f, ".test.ts"));
    return name !== undefined && f.startsWith("functions/_tests/") && choose(f, `a test of functions/${name}.ts`);
  });

  let e2e = specs;
  if (global.has("e2e")) for (const spec of specs) choose(spec, `${global.get("e2e")} reaches every spec`);
  else {
    const { ROUTES } = await import(pathToFileURL(path.join(root, ROUTES_FILE)).href);
    // The addresses of the changed functions the table does not list yet (their `config` names them
    // through ROUTES or literally): the specs naming them run.
    const served = [];
    for (const f of touched)
      if (functionName(f) && !listed.has(functionName(f))) {
        const source = readFileSync(path.join(root, f), "utf8");
        const config = source.slice(source.indexOf("export const config"));
        served.push(...apiPathsIn(config, ROUTES));
      }
    const islands = files
      .filter((f) => /^src\/components\/.*\.tsx$/.test(f))
      .map((file) => ({ file, name: path.basename(file, ".tsx") }));
    e2e = specs.filter((spec) => {
      if (changed.includes(spec)) return choose(spec, "changed");
      const reach = specReach(root, graph, spec, ROUTES, islands);
      const helper = reach.helpers.find((h) => changed.includes(h));
      if (helper) return choose(spec, `imports ${helper}`);
      const island = [...reach.islands].find((f) => touched.has(f));
      if (island) return choose(spec, `names an island that imports ${island}`);
      const name = written("browser", path.posix.basename(spec, ".spec.ts"));
      if (name) return choose(spec, `a test of functions/${name}.ts`);
      return served.some((pattern) => [...reach.paths].some((used) => pathMatches(pattern, used)))
        ? choose(spec, "names an address of a changed function")
        : false;
    });
  }
  return { vitest, e2e, why };
}

/**
 * CPU seconds (user + system) of the child processes that have ended, with theirs (Linux's
 * /proc/self/stat, in clock ticks of 1/100 s), or undefined elsewhere. On a machine other work loads,
 * this says what the run itself cost where its wall time cannot.
 */
function childCpuSeconds() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Runs `cmd` (its output in `log`, or on this terminal) and resolves with its exit status, wall time
 * and the CPU time it and its children took.
 */
function run(cmd, args, log, env = {}) {
  const out = log ? openSync(log, "w") : undefined;
  const started = performance.now();
  const child = spawn(cmd, args, {
    stdio: out === undefined ? "inherit" : ["ignore", out, out],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve) => {
    child.on("close", (status) => {
      if (out !== undefined) closeSync(out);
      resolve({ status: status ?? 1, seconds: (performance.now() - started) / 1000, cpu: childCpuSeconds() });
    });
  });
}

async function main() {
  const root = process.cwd();
  const option = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const changed = changedFiles(root, option("base") ?? "main");
  const { vitest, e2e, why } = await selectTests(root, changed);
  const list = process.argv.includes("--list");
  console.log(`Changed since ${option("base") ?? "main"}: ${changed.length ? changed.join(", ") : "nothing"}`);
  for (const [label, tests] of [
    ["vitest", vitest],
    ["browser", e2e],
  ])
    if (list)
      console.log(`${label} (${tests.length}):${tests.map((t) => `\n  ${t}  (${why.get(t)})`).join("") || " -"}`);
    else console.log(`${label} (${tests.length}): ${tests.join(" ") || "-"}`);
  if (list) return;
  const bin = (name) => path.join(root, "node_modules/.bin", name);
  if (!vitest.length && !e2e.length) {
    console.log("Nothing to run: no test reaches these changes.");
    return;
  }
  // Side by side, as `npm test` runs its stages: the vitest files mostly wait on PostgreSQL while the
  // browser specs' server starts and their pages load (docs/benchmarks.md, "npm run test:changed").
  // The vitest output goes to a log, printed whole when both are done, so the two never interleave.
  mkdirSync(path.join(root, "test-results"), { recursive: true });
  const log = path.join(root, "test-results", "changed-vitest.log");
  const cpuBefore = childCpuSeconds();
  const started = performance.now();
  const skipped = Promise.resolve({ status: 0, seconds: 0, cpu: cpuBefore });
  const unit = vitest.length ? run(bin("vitest"), ["run", ...vitest], log) : skipped;
  let browser = skipped;
  if (e2e.length) {
    const { buildIfNeeded } = await import("../build/build-if-needed.mjs");
    try {
      buildIfNeeded(root);
      // Two workers (E2E_WORKERS chooses): by default Playwright takes half the cores, one on a 2-core
      // machine, and the vitest files run beside them. No trace, as in CI: it doubles each test's CPU;
      // E2E_TRACE=retain-on-failure keeps a failed test's.
      browser = run(bin("playwright"), ["test", `--workers=${process.env.E2E_WORKERS || 2}`, ...e2e], undefined, {
        E2E_TRACE: process.env.E2E_TRACE ?? "off",
        E2E_SHOTS: process.env.E2E_SHOTS ?? "off",
      });
    } catch (error) {
      // The vitest files still end and are printed.
      console.error(`The browser specs did not run: ${error.message}`);
      browser = Promise.resolve({ status: 1, seconds: 0, cpu: cpuBefore });
    }
  }
  const [unitRun, browserRun] = await Promise.all([unit, browser]);
  if (vitest.length) console.log(`\n── vitest (${log}) ──\n${readFileSync(log, "utf8")}`);
  const cpu = childCpuSeconds();
  console.log(
    `test:changed: ${((performance.now() - started) / 1000).toFixed(0)} s (vitest ${unitRun.seconds.toFixed(0)} s, ` +
      `browser ${browserRun.seconds.toFixed(0)} s)` +
      (cpu === undefined ? "" : `, ${(cpu - cpuBefore).toFixed(0)} s of CPU time`),
  );
  process.exit(unitRun.status !== 0 || browserRun.status !== 0 ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
