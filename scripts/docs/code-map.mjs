// The code's map checked against the tree (part of `npm run check`): docs/architecture.md's "The
// code, folder by folder" block must name every folder of the tree to two levels (plus the feature
// folders of src/components, src/components/admin, src/shared and functions/_lib), the README's
// "The code" block every top-level folder, and every folder either names must exist. `node scripts/docs/code-map.mjs`
// prints what is missing or gone and exits 1.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Folders whose subfolders are features, so the map names each of them too. */
const FEATURE_PARENTS = ["src/components", "src/components/admin", "src/shared", "functions/_lib"];
/** Folders the map names as one: their insides are data, not code. */
const OPAQUE = ["public"];

/** The folders the map must name: tracked folders to two levels, and the feature folders. */
export function treeFolders(files) {
  const folders = new Set();
  for (const file of files) {
    const parts = file.split("/").slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) {
      const folder = parts.slice(0, depth).join("/");
      const parent = parts.slice(0, depth - 1).join("/");
      if (OPAQUE.some((o) => parent === o || parent.startsWith(`${o}/`))) break;
      if (depth <= 2 || FEATURE_PARENTS.includes(parent)) folders.add(folder);
    }
  }
  return folders;
}

/** The fenced block under a heading of a Markdown text. */
export function blockUnder(markdown, heading) {
  const at = markdown.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const match = /```\n([\s\S]*?)```/.exec(markdown.slice(at));
  if (!match) throw new Error(`no code block under "${heading}"`);
  return match[1];
}

/**
 * The folders a map block names: a line's first word ending in "/", whole ("src/pages/") or nested
 * under the line above by two spaces of indentation per level ("src/" then "  pages/").
 */
export function namedFolders(block) {
  const named = new Set();
  const stack = [];
  for (const line of block.split("\n")) {
    const match = /^( *)(\S+\/)(\s|$)/.exec(line);
    if (!match) continue;
    const level = match[1].length / 2;
    const name = match[2].replace(/\/$/, "");
    // Continuation lines are indented past the name column and start with words, not folders.
    if (!Number.isInteger(level) || level > stack.length) continue;
    stack.length = level;
    const full = [...stack, name].join("/");
    stack.push(name);
    // "src/pages/" names src/ too.
    full.split("/").forEach((_, i, parts) => named.add(parts.slice(0, i + 1).join("/")));
  }
  return named;
}

/**
 * What a map block misses (folders of the tree it does not name, to `depth` levels when given) and
 * names that are gone.
 */
export function mapProblems(block, tree, depth = Infinity) {
  const named = namedFolders(block);
  const exists = (folder) => [...tree].some((t) => t === folder) || OPAQUE.some((o) => folder.startsWith(`${o}/`));
  return {
    missing: [...tree].filter((folder) => folder.split("/").length <= depth && !named.has(folder)).sort(),
    gone: [...named].filter((folder) => !exists(folder)).sort(),
  };
}

/** Each map: its file, its heading, and how deep it must name the tree (the README: the top level). */
export const MAPS = [
  ["README.md", "## The code", 1],
  ["docs/architecture.md", "## The code, folder by folder", Infinity],
];

/** Every problem of every map in the repository at `root`, as lines to print. */
export function codeMapProblems(root) {
  const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
  const tree = treeFolders(files);
  const problems = [];
  for (const [file, heading, depth] of MAPS) {
    const markdown = readFileSync(path.join(root, file), "utf8");
    const { missing, gone } = mapProblems(blockUnder(markdown, heading), tree, depth);
    for (const folder of missing) problems.push(`${file} (${heading}): ${folder}/ is in the tree but not named`);
    for (const folder of gone) problems.push(`${file} (${heading}): ${folder}/ is named but not in the tree`);
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = codeMapProblems(path.resolve(import.meta.dirname, "../.."));
  for (const problem of problems) console.error(problem);
  if (problems.length) {
    console.error(`\nThe code's map differs from the tree: name the folder (or remove it) in the block above.`);
    process.exit(1);
  }
  console.log("The code's map in README.md and docs/architecture.md names every folder.");
}
