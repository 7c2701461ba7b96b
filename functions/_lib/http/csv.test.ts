import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { csvLine } from "./csv.ts";

/**
 * How a spreadsheet whose list separator is `separator` reads a file: a quote opens a quoted field
 * only where a field starts (Excel and LibreOffice treat a quote inside a field as a character), and
 * outside one a line break ends the row. Written with "," as separator, a cell "Acme;=2+3" is
 * quoted, but a reader splitting on ";" sees that quote inside its first field and splits the cell.
 */
function readAs(text: string, separator: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= text.length) {
    let field = "";
    if (text[i] === '"') {
      i++;
      while (i < text.length && !(text[i] === '"' && text[i + 1] !== '"')) {
        field += text[i];
        i += text[i] === '"' ? 2 : 1;
      }
      i++;
    }
    while (i < text.length && text[i] !== separator && text[i] !== "\r" && text[i] !== "\n") field += text[i++];
    fields.push(field);
    i++;
  }
  return fields;
}

const separators = [",", ";", "\t", "|"];

// The finding (issue 29): an enquiry's company and message and a newsletter page, exported and read
// by Dutch Excel with ";" as separator, still had cells starting with "=".
const hostile = [
  "=2+3",
  "=cmd|' /C calc'!A0",
  "Acme;=2+3",
  "Hello;=cmd|' /C calc'!A0",
  "/en/;=2+3",
  "Acme,=2+3",
  "Acme\t=2+3",
  "Acme|=cmd|' /C calc'!A0",
  "Acme; =2+3",
  'Acme;"=2+3',
  'Acme;""=2+3',
  "line\n=2+3",
  "line\r\n+1",
  "x;@SUM(A1)",
  "x;-1+2",
  ';"";=2+3',
];

describe("CSV cells", () => {
  test.each(separators)("no field starts a formula when a spreadsheet splits on %j", (separator) => {
    const row = ["2026-11-27", ...hostile, "ok"];
    for (const field of readAs(csvLine(row), separator)) {
      expect(field.replace(/^[\s"]+/, ""), JSON.stringify(field)).not.toMatch(/^[=+\-@]/);
    }
  });

  test.each(separators)("every hostile cell alone, first or last in the row, is safe split on %j", (separator) => {
    for (const cell of hostile) {
      for (const row of [[cell], [cell, "x"], ["x", cell]]) {
        for (const field of readAs(csvLine(row), separator)) {
          expect(field.replace(/^[\s"]+/, ""), JSON.stringify({ cell, field })).not.toMatch(/^[=+\-@]/);
        }
      }
    }
  });

  test("an RFC 4180 reader gets every cell back whole, only made inert", () => {
    const [cells] = parse(csvLine(["Acme;=2+3", "x,@SUM(A1)", "ok"])) as string[][];
    expect(cells).toEqual(["Acme;'=2+3", "x,'@SUM(A1)", "ok"]);
  });

  test("a cell that starts like a formula is shown as text", () => {
    const [cells] = parse(csvLine(["=2+3", "+1", "-1", "@SUM(A1)"])) as string[][];
    expect(cells).toEqual(["'=2+3", "'+1", "'-1", "'@SUM(A1)"]);
  });
});
