// The vitest files that open a database: those that import db/testing.ts (a copy of the run's migrated
// template), directly or through a test helper such as functions/_tests/harness.ts. `npm test` runs
// these a second time on the PostgreSQL of TEST_DATABASE_URL (CI: the machine's PostgreSQL 15, the
// oldest version the product supports); the other files run no SQL on that server, so a second pass
// of them would check nothing new.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { importGraph } from "./changed.mjs";

/** Whether `file`'s imports reach db/testing.ts. */
function opensDatabase(graph, file) {
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length) {
    const next = queue.shift();
    if (next === "db/testing.ts") return true;
    for (const target of graph.get(next) ?? []) if (!seen.has(target) && seen.add(target)) queue.push(target);
  }
  return false;
}

/** The vitest files (relative to `root`) that open a database, sorted. */
export function databaseTestFiles(root) {
  const graph = importGraph(root);
  return [...graph.keys()]
    .filter((f) => f.endsWith(".test.ts") && !f.startsWith("e2e/") && opensDatabase(graph, f))
    .sort();
}

/**
 * A statement as pg_stat_statements records it, with its parameters' numbers and list lengths left
 * out: `in ($1, $2)` and `in ($3)`, or one row's `values` and three rows', are one shape.
 */
export function statementShape(sql) {
  return sql
    .replace(/\s+/g, " ")
    .replace(/\$\d+/g, "$")
    .replace(/\(\$(?:, \$)*\)/g, "($…)")
    .replace(/\(\$…\)(?:, \(\$…\))+/g, "($…)");
}

/**
 * `statementShape` with the constants left out too, as pg_stat_statements writes them (`'sent'`,
 * `5` → `$`; a list PostgreSQL 18 squashes to its first item and a comment): the shape of a statement as
 * its client sent it then matches the server's record of it (which starts at its first word). `order
 * by 1` becomes `$` on both sides.
 */
export function looseShape(sql) {
  return statementShape(sql.replace(/'(?:[^']|'')*'/g, "$").replace(/(?<![\w$."])\d+(?:\.\d+)?(?![\w"])/g, "$"))
    .replace(/\(\$ \/\*, \.\.\. \*\/\)/g, "($…)")
    .trim();
}

/**
 * Of `files`, a set that together runs every statement shape `statementsByFile` records for them:
 * each step takes the file with the most shapes not yet taken per second it took (`seconds`, the
 * first pass's times), until none is left; then a taken file whose every shape the others run is
 * dropped again, the slowest first. A file with no record is always taken: nothing shows that others
 * run what it runs. Sorted.
 * @param {string[]} files
 * @param {Record<string, string[]>} statementsByFile
 * @param {Record<string, number>} seconds
 */
export function coveringFiles(files, statementsByFile, seconds) {
  const shapes = new Map(files.map((f) => [f, new Set((statementsByFile[f] ?? []).map(statementShape))]));
  const chosen = files.filter((f) => shapes.get(f).size === 0);
  const covered = new Set();
  let left = files.filter((f) => shapes.get(f).size > 0);
  for (;;) {
    let best;
    let bestScore = 0;
    for (const file of left) {
      let fresh = 0;
      for (const shape of shapes.get(file)) if (!covered.has(shape)) fresh++;
      const score = fresh / Math.max(seconds[file] ?? 1, 0.1);
      if (score > bestScore) [best, bestScore] = [file, score];
    }
    if (!best) break;
    chosen.push(best);
    for (const shape of shapes.get(best)) covered.add(shape);
    left = left.filter((f) => f !== best);
  }
  // Greedy can take a cheap file first that a later, larger one makes redundant.
  const runs = new Map();
  for (const file of chosen) for (const shape of shapes.get(file)) runs.set(shape, (runs.get(shape) ?? 0) + 1);
  const slowestFirst = [...chosen].sort((a, b) => (seconds[b] ?? 1) - (seconds[a] ?? 1));
  const dropped = new Set();
  for (const file of slowestFirst) {
    const mine = [...shapes.get(file)];
    if (mine.length === 0 || mine.some((shape) => runs.get(shape) === 1)) continue;
    for (const shape of mine) runs.set(shape, runs.get(shape) - 1);
    dropped.add(file);
  }
  return chosen.filter((f) => !dropped.has(f)).sort();
}

/**
 * The files a second pass on another PostgreSQL runs: of the database files, those `coveringFiles`
 * takes by the first pass's statements (`coverageFile`, db/test-setup.ts) and times (`reportFile`,
 * vitest's JSON report); every database file when either is missing.
 */
export function secondPassFiles(root, coverageFile, reportFile) {
  const all = databaseTestFiles(root);
  if (!existsSync(coverageFile) || !existsSync(reportFile)) return { files: all, all };
  const statements = JSON.parse(readFileSync(coverageFile, "utf8"));
  const { testResults } = JSON.parse(readFileSync(reportFile, "utf8"));
  const seconds = Object.fromEntries(
    testResults.map((t) => [path.relative(root, t.name), (t.endTime - t.startTime) / 1000]),
  );
  return { files: coveringFiles(all, statements, seconds), all };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(databaseTestFiles(process.cwd()).join("\n"));
