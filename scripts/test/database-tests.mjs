// The vitest files that open a database: those that import db/testing.ts (a copy of the run's migrated
// template), directly or through a test helper such as functions/_tests/harness.ts. `npm test` runs
// these a second time on the PostgreSQL of TEST_DATABASE_URL (CI: the machine's PostgreSQL 15, the
// oldest version the product supports); the other files run no SQL on that server, so a second pass
// of them would check nothing new.
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

if (import.meta.url === `file://${process.argv[1]}`) console.log(databaseTestFiles(process.cwd()).join("\n"));
