/**
 * The documentation stays true to the code: the environment tables and .env.example are what
 * `npm run docs` generates from the configuration, every variable a file reads is documented, and
 * every relative link between README.md and docs/*.md resolves, anchors included.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { generatedDocs, environmentVariables, TOOL_VARIABLES } from "./env-docs.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** Source files of the project (not dependencies, builds or test output). */
function sourceFiles(dir = ROOT): string[] {
  const skip = new Set([
    "node_modules",
    "dist",
    ".dist-next",
    ".git",
    ".netlify",
    ".data",
    "test-results",
    "bench-results",
  ]);
  return readdirSync(dir).flatMap((name) => {
    if (skip.has(name)) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts|mjs|js|astro)$/.test(name) ? [full] : [];
  });
}

/** The variables a file reads (`process.env.X`, `process.env["X"]`, `import.meta.env.X`), not those it only sets. */
function variablesRead(text: string): string[] {
  const found = new Set<string>();
  const pattern =
    /(?:process|import\.meta)\.env(?:\.([A-Z_][A-Z0-9_]*)|\[\s*["']([A-Z_][A-Z0-9_]*)["']\s*\])(\s*(?:\?\?=|\|\|=|=(?!=)))?/g;
  for (const match of text.matchAll(pattern)) {
    const assigned = match[3] !== undefined && !match[3].includes("?") && !match[3].includes("|");
    if (!assigned) found.add(match[1] ?? match[2]);
  }
  return [...found];
}

/** Set by the system, not by this project's operator. */
// The platform sets _X_AMZN_TRACE_ID on every call (AWS Lambda, under Netlify Functions); a test sets it.
const SYSTEM = new Set(["PATH", "HOME", "_X_AMZN_TRACE_ID"]);

describe("environment variables", () => {
  test("docs/operator.md's tables and .env.example are what `npm run docs` writes", async () => {
    const generated = await generatedDocs(ROOT);
    for (const [file, text] of Object.entries(generated))
      expect(read(file), `${file} differs from the configuration: run npm run docs`).toBe(text);
  });

  test("every variable a file reads is documented, and every documented tool variable is read", async () => {
    const documented = new Set((await environmentVariables(ROOT)).flatMap((row: { names: string[] }) => row.names));
    const readBy = new Map<string, string[]>();
    // This file's own examples of the pattern are not reads.
    for (const file of sourceFiles().filter((file) => file !== path.join(ROOT, "scripts/docs/docs.test.ts")))
      for (const name of variablesRead(readFileSync(file, "utf8")))
        readBy.set(name, [...(readBy.get(name) ?? []), path.relative(ROOT, file)]);
    // A test's own marker variables (NAME_FOR_TEST) are set and read by that test alone.
    const undocumented = [...readBy].filter(
      ([name]) => !documented.has(name) && !SYSTEM.has(name) && !name.endsWith("_FOR_TEST"),
    );
    expect(
      undocumented.map(([name, files]) => `${name} (read in ${files.join(", ")})`),
      "add it to server/config.ts's schema, src/config/site.ts's PUBLIC_SETTINGS or scripts/docs/env-docs.mjs's TOOL_VARIABLES",
    ).toEqual([]);
    expect(
      TOOL_VARIABLES.map((tool) => tool.name).filter((name) => !readBy.has(name)),
      "listed in TOOL_VARIABLES but read by no file",
    ).toEqual([]);
  });

  test("the scan finds reads and skips assignments", () => {
    expect(
      variablesRead(`process.env.A_1; process.env["B"]; import.meta.env.C; process.env.D = "1"; process.env.E ||= "2"`),
    ).toEqual(["A_1", "B", "C", "E"]);
  });
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, "");
  for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count ? `${base}-${count}` : base);
  }
  return result;
}

describe("links between the documents", () => {
  const documents = [
    "README.md",
    ...readdirSync(path.join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
  ];

  test.each(documents)("every relative link in %s resolves", (document) => {
    const text = read(document)
      .replace(/^```[\s\S]*?^```/gm, "")
      .replace(/`[^`\n]*`/g, "");
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split("#");
      const resolved = file ? path.join(path.dirname(document), file) : document;
      let exists = true;
      try {
        statSync(path.join(ROOT, resolved));
      } catch {
        exists = false;
      }
      if (!exists) broken.push(`${target}: no file ${resolved}`);
      else if (anchor && resolved.endsWith(".md") && !anchors(read(resolved)).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${resolved}`);
    }
    expect(broken).toEqual([]);
  });

  test("anchors follow GitHub's rules", () => {
    expect([...anchors("# Where an email's text is\n## The API under load: `npm run bench:api`\n## A\n## A")]).toEqual([
      "where-an-emails-text-is",
      "the-api-under-load-npm-run-benchapi",
      "a",
      "a-1",
    ]);
  });
});
