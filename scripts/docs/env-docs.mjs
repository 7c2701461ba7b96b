// The environment variables' documentation, generated from where they are defined: the server's zod
// schema (server/config.ts) and the public settings (src/config/site.ts), each key's doc comment being
// its meaning, plus the test tools' variables listed below. `npm run docs` writes the tables into
// docs/operator.md and .env.example; scripts/docs/docs.test.ts fails when the committed files differ.
import { readFileSync } from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import ts from "typescript";

/**
 * Variables read by the test runner, the browser tests, the benchmarks and the deploy rehearsal
 * themselves (never by the site or the functions). scripts/docs/docs.test.ts fails when a file reads a
 * variable that is neither here nor in the configuration, or when one listed here is read nowhere.
 */
export const TOOL_VARIABLES = [
  {
    name: "CI_STARTED_AT",
    fallback: "when `npm test` starts",
    meaning:
      "Unix seconds when the whole run began; `.ci/run` sets it so that `npm test`'s closing time includes the install.",
  },
  {
    name: "CI_INSTALL_SECONDS",
    fallback: "not printed",
    meaning: "How long `.ci/run`'s `npm install` took; `npm test` prints it among the stages' times.",
  },
  {
    name: "TEST_DATABASE_URL",
    meaning:
      "When set, `npm test` also runs the API and database tests against this PostgreSQL (each run creates and drops its own databases). `.ci/run` sets it to the machine's server.",
  },
  {
    name: "CHROMIUM_PATH",
    fallback: "`/usr/bin/chromium`",
    meaning:
      "Browser for tests, screenshots and benchmarks (the browser tests prefer `/usr/bin/chromium-headless-shell` when this is unset).",
  },
  {
    name: "WIDTHS",
    fallback: "`390,1440`",
    meaning: "`npm run screenshots`: the page widths to capture, comma-separated.",
  },
  { name: "E2E_PORT", fallback: "`8899`", meaning: "Port the browser tests serve the site on." },
  {
    name: "E2E_SHOTS",
    fallback: "`on`; `off` when `CI` is set and in `npm run test:changed`",
    meaning:
      "The browser tests' screenshots of pages and panels at phone and desktop widths, for a person to look at (nothing compares them), in `test-results/`: `on` saves them, `off` skips them.",
  },
  {
    name: "E2E_BASE_URL",
    meaning: "Run the browser tests against this address instead of starting the server.",
  },
  {
    name: "E2E_DATA_DIR",
    fallback: "a temporary folder",
    meaning: "`DATA_DIR` of the server the browser tests start (the tests read its file outbox).",
  },
  {
    name: "E2E_CONSULTANTS_DATA_DIR",
    fallback: "a temporary folder",
    meaning:
      "`DATA_DIR` of the second server the browser tests start, two ports up, for the specs that link more consultants.",
  },
  {
    name: "E2E_TRACE",
    fallback: "`retain-on-failure`; `off` when `CI` is set and in `npm run test:changed`",
    meaning:
      "Playwright's trace of each browser test: `retain-on-failure` keeps it for a failed test in `test-results/e2e/` (it doubles a test's CPU), `on` for every test, `off` for none.",
  },
  {
    name: "E2E_OUTPUT_DIR",
    fallback: "`test-results/e2e`",
    meaning:
      "Playwright's output folder (screenshots, traces), which it empties when it starts: one per run when two run at once, as `npm test` runs the Friday-evening clock's beside the other browser tests.",
  },
  {
    name: "E2E_WORKERS",
    fallback: "`2` when `CI` is set and in `npm run test:changed`, else Playwright's default (half the cores)",
    meaning: "How many browser tests run at once.",
  },
  {
    name: "SQL_COVERAGE_FILE",
    fallback: "unset: nothing is recorded; `npm test` sets it for its first pass",
    meaning:
      "Where the vitest run writes, per database test file, the statements it ran on the embedded PostgreSQL (db/test-setup.ts). `npm test` runs on PostgreSQL 15 the files that together run all of them.",
  },
  { name: "CI", meaning: "Set by CI: the browser tests run on 2 workers, without a trace." },
  {
    name: "FUZZ_SEED",
    fallback: "`29` in `npm test`; random in `npm run test:fuzz`",
    meaning:
      "The hostile-input test's seed (`functions/_tests/never-500.test.ts`): a failure prints it, to replay the run.",
  },
  {
    name: "FUZZ_ROUNDS",
    fallback: "`6`",
    meaning: "The hostile-input test's cases per endpoint method and session, when it runs a fixed number.",
  },
  {
    name: "FUZZ_SECONDS",
    fallback: "`600` in `npm run test:fuzz`",
    meaning: "Runs the hostile-input test for this long instead of a fixed number of cases.",
  },
  {
    name: "TEST_CLOCK",
    meaning:
      "An ISO date and time with its offset: every Node process of a test run starts its clock there and runs on (scripts/test/test-clock.mjs, loaded through `NODE_OPTIONS` by `npm run test:clock`).",
  },
  {
    name: "TEST_CLOCK_SET_AT",
    fallback: "the time the first process read `TEST_CLOCK`",
    meaning: "The real time (ms since 1970) `TEST_CLOCK` was set at, so the runner, its workers and the server agree.",
  },
  {
    name: "BENCH_ROUNDS",
    fallback: "`2`",
    meaning: "`npm run bench:web`: rounds of Lighthouse runs, alternated page by page with AstroWind.",
  },
  {
    name: "ASTROWIND_DIST",
    meaning:
      "`npm run bench:web`: the built `dist/` of AstroWind to measure side by side (how to build it: docs/benchmarks.md); without it the bench fails its comparison.",
  },
  {
    name: "BENCH_RUNS",
    fallback: "`3`",
    meaning: "Lighthouse runs per page in `npm run bench:web` (the median is reported).",
  },
  {
    name: "BENCH_PORT",
    fallback: "a free port",
    meaning: "Port of the server `npm run bench:admin` and `bench:sources` start.",
  },
  { name: "SEGMENTS", meaning: "`1`: `npm run screenshots` also writes viewport-sized slices." },
  {
    name: "REHEARSE_DATABASE_URL",
    fallback: "`postgres://postgres@127.0.0.1:5432/postgres`, else an embedded one",
    meaning: "The PostgreSQL server `npm run rehearse:deploy` stands in for Neon with.",
  },
  {
    name: "REHEARSE_COLD_RUNS",
    fallback: "`3`; `1` in `npm test`",
    meaning:
      "Fresh processes per packaged function whose cold start `npm run rehearse:deploy` times (the median is reported).",
  },
  {
    name: "REHEARSE_PGBOUNCER_PORT",
    fallback: "a free port",
    meaning: "Port of the rehearsal's PgBouncer.",
  },
  {
    name: "REHEARSE_WS_PORT",
    fallback: "a free port",
    meaning: "Port of the rehearsal's WebSocket proxy for Neon's driver.",
  },
  {
    name: "EMBEDDED_POSTGRES_ROOT_DIR",
    fallback: "`/var/lib/bridgewise-site`",
    meaning:
      "As root, where the embedded PostgreSQL's binaries and cluster are kept when the `postgres` user cannot enter the project's folder.",
  },
];

/** The groups, in the order the docs show them. */
export const GROUPS = [
  "Site (read at build time)",
  "Local server",
  "Database",
  "Sessions",
  "Email",
  "Booking",
  "Privacy",
  "Content editor",
  "Set by Netlify",
  "Tests and tools",
];
/** Groups .env.example leaves out: the platform sets them, never the operator. */
const NOT_IN_ENV_EXAMPLE = new Set(["Set by Netlify"]);

/**
 * The documented keys of an object literal: [{ names, meaning, group, fallback }]. A key without a
 * doc comment shares the row of the key before it (`HOST` with `PORT`); a documented key without
 * `@group` stays in the group of the key before it.
 */
function documentedKeys(file, object) {
  const rows = [];
  let group;
  for (const property of object.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const name = property.name.getText(file);
    const docs = ts.getJSDocCommentsAndTags(property).filter(ts.isJSDoc);
    if (!docs.length) {
      if (!rows.length) throw new Error(`${file.fileName}: ${name} has no doc comment`);
      rows.at(-1).names.push(name);
      continue;
    }
    const doc = docs.at(-1);
    const text = (value) => (typeof value === "string" ? value : (ts.getTextOfJSDocComment(value) ?? ""));
    const tags = Object.fromEntries((doc.tags ?? []).map((tag) => [tag.tagName.text, text(tag.comment).trim()]));
    group = tags.group ?? group;
    if (!GROUPS.includes(group)) throw new Error(`${file.fileName}: ${name} has no known @group (${group})`);
    rows.push({ names: [name], meaning: text(doc.comment).replace(/\s+/g, " ").trim(), group, fallback: tags.default });
  }
  return rows;
}

/** The object literal a declaration or call in a source file holds. */
function findObject(file, predicate) {
  let found;
  const visit = (node) => {
    if (!found && ts.isObjectLiteralExpression(node) && predicate(node)) found = node;
    else ts.forEachChild(node, visit);
  };
  visit(file);
  if (!found) throw new Error(`${file.fileName}: the settings object was not found`);
  return found;
}

const parse = (root, relative) =>
  ts.createSourceFile(relative, readFileSync(path.join(root, relative), "utf8"), ts.ScriptTarget.Latest, true);

/** `value` as a table cell: a literal in backticks, none when empty. */
const shown = (value) =>
  value === undefined || value === "" || (Array.isArray(value) && !value.length) ? undefined : `\`${value}\``;

/** Every documented variable: [{ names, meaning, group, fallback (markdown), examples (.env.example) }]. */
export async function environmentVariables(root) {
  const siteFile = parse(root, "src/config/site.ts");
  const siteObject = findObject(siteFile, (node) => {
    const parent = node.parent;
    return ts.isAsExpression(parent) && parent.parent.name?.getText(siteFile) === "PUBLIC_SETTINGS";
  });
  const { PUBLIC_SETTINGS } = await import(path.join(root, "src/config/site.ts"));
  const site = documentedKeys(siteFile, siteObject).map((row) => ({
    ...row,
    examples: row.names.map((name) => PUBLIC_SETTINGS[name]),
    fallback: row.fallback ?? shown(PUBLIC_SETTINGS[row.names[0]]),
  }));

  const serverFile = parse(root, "server/config.ts");
  const schemaObject = findObject(
    serverFile,
    (node) => ts.isCallExpression(node.parent) && node.parent.parent?.name?.getText(serverFile) === "schema",
  );
  const rows = documentedKeys(serverFile, schemaObject);
  const defaults = await defaultsOf(
    root,
    rows.flatMap((row) => row.names),
  );
  const server = rows.map((row) => {
    const literal = (name) => {
      const value = defaults[name];
      return row.fallback === undefined && (typeof value === "string" || typeof value === "number") ? value : undefined;
    };
    const values = row.names.map((name) => shown(defaults[name]));
    const fallback = values.every((value) => value === undefined)
      ? undefined
      : values.map((value) => value ?? "none").join(", ");
    return { ...row, examples: row.names.map(literal), fallback: row.fallback ?? fallback };
  });

  const tools = TOOL_VARIABLES.map(({ name, meaning, fallback }) => ({
    names: [name],
    meaning,
    group: "Tests and tools",
    fallback,
    // A literal default (`8899`) is the example value; a description ("a free port") is not.
    examples: [/^`[^`]*`$/.test(fallback ?? "") ? fallback.slice(1, -1) : undefined],
  }));
  const all = [...site, ...server, ...tools];
  return GROUPS.flatMap((group) => all.filter((row) => row.group === group));
}

/** What the server's configuration gives each variable when none is set. */
async function defaultsOf(root, names) {
  const { serverEnv } = await import(path.join(root, "server/config.ts"));
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  for (const name of names) delete process.env[name];
  try {
    return serverEnv();
  } finally {
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  }
}

const cell = (text) => text.replaceAll("|", "\\|");

/** The markdown tables, one per group. */
export function environmentTables(variables) {
  const out = [];
  for (const group of GROUPS) {
    const rows = variables.filter((row) => row.group === group);
    if (!rows.length) continue;
    out.push(`### ${group}`, "", "| variable | default | meaning |", "| --- | --- | --- |");
    for (const row of rows)
      out.push(
        `| ${row.names.map((name) => `\`${name}\``).join(", ")} | ${cell(row.fallback ?? "none")} | ${cell(row.meaning)} |`,
      );
    out.push("");
  }
  return out.join("\n");
}

/** Wraps a comment at 100 columns, each line starting with "# ". */
function comment(text) {
  const lines = [];
  let line = "#";
  for (const word of text.split(" ")) {
    if (line.length + word.length + 1 > 100 && line !== "#") {
      lines.push(line);
      line = "#";
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines.join("\n");
}

/** .env.example: every variable an operator or a tool may set, with its meaning and default. */
export function envExample(variables) {
  const out = [
    "# Every environment variable the project reads, all optional locally. Generated by `npm run docs`",
    "# from server/config.ts, src/config/site.ts and scripts/docs/env-docs.mjs: edit those, not this file.",
    '# The same list with defaults: docs/operator.md, "Environment".',
  ];
  for (const group of GROUPS) {
    if (NOT_IN_ENV_EXAMPLE.has(group)) continue;
    const rows = variables.filter((row) => row.group === group);
    if (!rows.length) continue;
    out.push("", `# ── ${group} ──`);
    for (const row of rows) {
      out.push(comment(row.meaning));
      row.names.forEach((name, i) => out.push(`${name}=${row.examples?.[i] ?? ""}`));
    }
  }
  return `${out.join("\n")}\n`;
}

export const START = "<!-- env:start: generated by `npm run docs` from the configuration; edit it there -->";
export const END = "<!-- env:end -->";

/** docs/operator.md with its environment section rewritten, formatted as Prettier formats it. */
export async function operatorDoc(root, text, variables) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/operator.md needs the markers ${START} and ${END}`);
  const updated = `${text.slice(0, start)}${START}\n\n${environmentTables(variables)}\n${text.slice(end)}`;
  const file = path.join(root, "docs/operator.md");
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(updated, { ...options, filepath: file });
}

/** What `npm run docs` writes: { "docs/operator.md": text, ".env.example": text }. */
export async function generatedDocs(root) {
  const variables = await environmentVariables(root);
  return {
    "docs/operator.md": await operatorDoc(root, readFileSync(path.join(root, "docs/operator.md"), "utf8"), variables),
    ".env.example": envExample(variables),
  };
}
