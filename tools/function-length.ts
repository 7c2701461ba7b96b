/**
 * `node tools/function-length.ts`: every function and component in the code folders longer than
 * FUNCTION_LINES_MAX lines, longest first, measured with the TypeScript compiler from a function's
 * first token (its name, `function` or parameters, not the doc comment above it) to its last.
 * Exits 1 when one is found; tools/function-length.test.ts holds the same rule in the unit tests.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The longest a function may be, in lines, its own nested functions included. */
export const FUNCTION_LINES_MAX = 200;

/** The folders whose functions are measured. */
export const CODE_FOLDERS = ["src", "functions", "db", "server", "scripts"];

const CODE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export interface FunctionLength {
  file: string;
  /** The function's name, or where it stands (`<arrow>` in `name`, `describe callback`…). */
  name: string;
  line: number;
  lines: number;
}

function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(source).slice(0, 40)} callback`;
  if (ts.isExportAssignment(parent)) return "default export";
  return "<anonymous>";
}

/** The length of every function in one file's text (any nesting depth). */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const kind = /\.(tsx|jsx)$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const start = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      found.push({ file, name: nameOf(fn, source), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The tracked code files of the code folders, relative to `root`. */
export function codeFiles(root: string): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--", ...CODE_FOLDERS], { cwd: root, encoding: "utf8" });
  return out.split("\0").filter((file) => CODE_FILE.test(file));
}

/** The functions of the code folders longer than `max` lines, longest first. */
export function longFunctions(root: string, max = FUNCTION_LINES_MAX): FunctionLength[] {
  return codeFiles(root)
    .flatMap((file) => functionLengths(file, readFileSync(path.join(root, file), "utf8")))
    .filter((fn) => fn.lines > max)
    .sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const long = longFunctions(root);
  for (const fn of long) console.log(`${fn.file}:${fn.line} ${fn.name}: ${fn.lines} lines`);
  console.log(`${long.length} functions over ${FUNCTION_LINES_MAX} lines in ${CODE_FOLDERS.join(", ")}.`);
  process.exitCode = long.length ? 1 : 0;
}
