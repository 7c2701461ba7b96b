import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { csvLine } from "./csv.ts";

/** How a spreadsheet whose list separator is `separator` splits a line: on it, outside quotes only. */
function splitAs(line: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of line.replace(/\r\n$/, "")) {
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  return [...parts, current];
}

describe("CSV cells", () => {
  // Dutch Excel splits on ";": a cell like "Acme;=2+3;" must not leave "=2+3" as a cell of its own.
  test.each([",", ";", "\t"])("no part starts a formula when a reader splits on %j", (separator) => {
    const line = csvLine(["Acme;=2+3;", "Acme\t+1", "x,@SUM(A1)", "ok"]);
    for (const part of splitAs(line, separator)) expect(part).not.toMatch(/^[=+\-@]/);
    expect(parse(line)).toEqual([["Acme;=2+3;", "Acme\t+1", "x,@SUM(A1)", "ok"]]);
  });

  test("a cell that starts like a formula is shown as text", () => {
    const [cells] = parse(csvLine(["=2+3", "+1", "-1", "@SUM(A1)"])) as string[][];
    expect(cells).toEqual(["'=2+3", "'+1", "'-1", "'@SUM(A1)"]);
  });
});
