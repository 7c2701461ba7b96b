import { describe, expect, test } from "vitest";
import { JsonSyntaxError, lineNear, nodeAt, parseJsonSource, toPlain } from "./json-source";

/** The error an editor would read for `text`, as "line N: message". */
function mistake(text: string): string {
  try {
    parseJsonSource(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return `line ${error.line}: ${error.message}`;
    throw error;
  }
  throw new Error("expected a syntax error");
}

describe("reading a locale file", () => {
  test("gives the same values as JSON.parse, and the line of every key", () => {
    const text = '{\n  "a": "x",\n  "b": {\n    "c": "y \\"q\\" \\u00e9",\n    "n": [1, true, null]\n  }\n}\n';
    const { root } = parseJsonSource(text);
    expect(toPlain(root)).toEqual(JSON.parse(text));
    expect(nodeAt(root, ["b", "c"])?.line).toBe(4);
    expect(nodeAt(root, ["b", "missing"])).toBeNull();
    expect(lineNear(root, ["b", "missing"])).toBe(3);
  });

  test("a key written twice is reported with both lines", () => {
    const { duplicates } = parseJsonSource('{\n  "a": "x",\n  "a": "y"\n}');
    expect(duplicates).toEqual([{ key: "a", line: 3, firstLine: 2 }]);
  });
});

describe("syntax mistakes are explained in plain words, with the line to look at", () => {
  test("a comma after the last entry", () => {
    expect(mistake('{\n  "a": "x",\n  "b": "y",\n}')).toBe("line 3: Remove the comma after the last entry.");
    expect(mistake('{\n  "list": ["x", "y",]\n}')).toBe("line 2: Remove the comma after the last entry.");
  });

  test("a missing comma between two entries", () => {
    expect(mistake('{\n  "a": "x"\n  "b": "y"\n}')).toBe(
      "line 2: A comma is missing at the end of this line, after “a”.",
    );
  });

  test("a double quote inside a text", () => {
    expect(mistake('{\n  "a": "He said "hi" to us"\n}')).toMatch(
      /^line 2: The text of “a” ends too early: it contains a double quote \("\)\. Write \\" /,
    );
  });

  test("a text that is not closed", () => {
    expect(mistake('{\n  "a": "open text,\n  "b": "y"\n}')).toMatch(/^line 2: This text is not closed on its line/);
  });

  test("a group that is never closed", () => {
    expect(mistake('{\n  "a": {\n    "b": "y"\n  \n}')).toMatch(
      /^line 5: The group opened on line 1 with \{ is never closed/,
    );
  });

  test("keys without quotes, single quotes and curly quotes", () => {
    expect(mistake('{\n  title: "x"\n}')).toBe('line 2: The key title needs double quotes around it: "title".');
    expect(mistake("{\n  \"a\": 'x'\n}")).toMatch(/^line 2: Texts must start and end with a straight double quote/);
    expect(mistake('{\n  "a": “x”\n}')).toMatch(
      /^line 2: Texts must start and end with a straight double quote \("\), not a curly quote “/,
    );
  });

  test("comments, a missing colon, a bad escape, an empty file", () => {
    expect(mistake('{\n  // note\n  "a": "x"\n}')).toMatch(/^line 2: JSON files cannot hold comments/);
    expect(mistake('{\n  "a" "x"\n}')).toBe("line 2: A colon (:) is missing after the key “a”.");
    expect(mistake('{\n  "a": "C:\\path\\file"\n}')).toMatch(/^line 2: “\\p” is not allowed in a text/);
    expect(mistake("  \n")).toBe("line 1: The file is empty: it needs at least {}.");
  });

  test("something after the end of the file", () => {
    expect(mistake('{\n  "a": "x"\n}\n"b": "y"')).toMatch(/^line 4: There is something after the end/);
  });
});
