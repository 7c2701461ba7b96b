import { describe, expect, test } from "vitest";
import { repoRoot } from "./copy-check/testing.ts";
import { FUNCTION_LINES_MAX, functionLengths, longFunctions } from "./function-length.ts";

describe("function length (issue 30: clear units)", () => {
  test(`no function or component in the code folders is longer than ${FUNCTION_LINES_MAX} lines`, () => {
    const offenders = longFunctions(repoRoot).map((fn) => `${fn.file}:${fn.line} ${fn.name}: ${fn.lines} lines`);
    expect(offenders).toEqual([]);
  });

  test("measures a function from its first token to its closing brace, doc comment left out", () => {
    const text = ["/** Doc. */", "export function f() {", "  return 1;", "}"].join("\n");
    expect(functionLengths("a.ts", text)).toEqual([{ file: "a.ts", name: "f", line: 2, lines: 3 }]);
  });

  test("measures arrow components, methods and nested callbacks, each named by where it stands", () => {
    const text = [
      "export const Card = () => (",
      "  <div onClick={() => {",
      "    go();",
      "  }} />",
      ");",
      "class A { m() { return 1; } }",
      'describe("x", () => {});',
    ].join("\n");
    expect(functionLengths("a.tsx", text).map(({ name, line, lines }) => [name, line, lines])).toEqual([
      ["Card", 1, 5],
      ["<anonymous>", 2, 3],
      ["m", 6, 1],
      ["describe callback", 7, 1],
    ]);
  });
});
