/**
 * A JSON reader for files that people edit by hand: it keeps the line of every key (so every
 * message can say "nl.json, line 42") and explains syntax mistakes in plain words instead of a
 * parser's "Unexpected token". Used by the copy check, the build and the dev server.
 */

interface Located {
  /** Offset of the first character in the file. */
  start: number;
  /** Offset just past the last character. */
  end: number;
  /** 1-based line of the first character. */
  line: number;
}

export interface JsonString extends Located {
  kind: "string";
  value: string;
}
export interface JsonScalar extends Located {
  kind: "number" | "boolean" | "null";
  value: number | boolean | null;
}
export interface JsonProperty {
  key: string;
  /** Line of the key. */
  line: number;
  value: JsonNode;
}
export interface JsonObject extends Located {
  kind: "object";
  properties: JsonProperty[];
}
export interface JsonArray extends Located {
  kind: "array";
  items: JsonNode[];
}
export type JsonNode = JsonString | JsonScalar | JsonObject | JsonArray;

/** A mistake that stops the file from being read at all. `line` is where to look. */
export class JsonSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(message);
    this.name = "JsonSyntaxError";
    this.line = line;
    this.column = column;
  }
}

/** A key written twice in one group: JSON keeps the second silently, so the first edit is lost. */
export interface DuplicateKey {
  key: string;
  line: number;
  firstLine: number;
}

export interface ParsedJson {
  root: JsonNode;
  duplicates: DuplicateKey[];
}

const describe = (ch: string) => {
  if (ch === "“" || ch === "”" || ch === "„") return `a curly quote ${ch}`;
  if (ch === "‘" || ch === "’") return `a curly apostrophe ${ch}`;
  if (/\s/.test(ch)) return "a space";
  return `“${ch}”`;
};

/** Parses `text`; throws JsonSyntaxError with an explanation an editor can act on. */
export function parseJsonSource(text: string): ParsedJson {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const columnOf = (offset: number) => offset - lineStarts[lineOf(offset) - 1] + 1;
  const fail = (message: string, offset: number): never => {
    const at = Math.min(offset, text.length);
    throw new JsonSyntaxError(message, lineOf(at), columnOf(at));
  };
  const duplicates: DuplicateKey[] = [];

  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const skipSpace = () => {
    for (;;) {
      const ch = text[i];
      if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") i++;
      else if (ch === "/" && (text[i + 1] === "/" || text[i + 1] === "*"))
        fail("JSON files cannot hold comments. Remove the comment (everything from // or /*).", i);
      else return;
    }
  };

  const parseString = (): JsonString => {
    const start = i;
    i++; // opening quote
    let value = "";
    for (;;) {
      const ch = text[i];
      if (ch === undefined)
        fail(`The text that starts on line ${lineOf(start)} is never closed: add a " at its end.`, start);
      if (ch === "\n" || ch === "\r")
        fail(
          'This text is not closed on its line: add a " at its end. (A text cannot run over several lines; write \\n for a line break.)',
          start,
        );
      if (ch === '"') {
        i++;
        return { kind: "string", value, start, end: i, line: lineOf(start) };
      }
      if (ch === "\\") {
        const next = text[i + 1];
        const simple: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t",
        };
        if (next !== undefined && next in simple) {
          value += simple[next];
          i += 2;
          continue;
        }
        if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
          continue;
        }
        fail(
          `“\\${next ?? ""}” is not allowed in a text. A backslash starts a code such as \\" or \\n; for a backslash itself write \\\\.`,
          i,
        );
      }
      if (ch.charCodeAt(0) < 0x20)
        fail("This text contains a tab or another invisible control character: replace it with a space.", i);
      value += ch;
      i++;
    }
  };

  const parseNumber = (): JsonScalar => {
    const start = i;
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = i;
    const m = match.exec(text);
    if (!m) return fail("This is not a valid number.", i);
    i += m[0].length;
    return { kind: "number", value: Number(m[0]), start, end: i, line: lineOf(start) };
  };

  /** After an entry of a group ends: what is wrong when neither a comma nor the closing bracket follows. */
  const afterEntry = (close: "}" | "]", previous: JsonNode, label: string) => {
    const ch = text[i];
    if (ch === undefined) return;
    const sameLine = lineOf(i) === lineOf(previous.end - 1);
    if (previous.kind === "string" && sameLine && ch !== "," && ch !== close)
      fail(
        `The text of ${label} ends too early: it contains a double quote ("). Write \\" for a quote inside a text, or use typographic quotes “ ”.`,
        previous.start,
      );
    if (ch === '"' || ch === "{" || ch === "[" || /[-0-9tfn]/.test(ch))
      fail(`A comma is missing at the end of this line, after ${label}.`, previous.end - 1);
    fail(`Unexpected ${describe(ch)} after ${label}: expected a comma, or ${close} to close the group.`, i);
  };

  const parseObject = (): JsonObject => {
    const start = i;
    i++; // {
    const properties: JsonProperty[] = [];
    const seen = new Map<string, number>();
    let lastComma = -1;
    for (;;) {
      skipSpace();
      const ch = text[i];
      if (ch === undefined)
        fail(`The group opened on line ${lineOf(start)} with { is never closed: a } is missing.`, text.length - 1);
      if (ch === "}") {
        if (lastComma >= 0) fail("Remove the comma after the last entry.", lastComma);
        i++;
        return { kind: "object", properties, start, end: i, line: lineOf(start) };
      }
      if (properties.length > 0 && lastComma < 0)
        afterEntry("}", properties[properties.length - 1].value, `“${properties[properties.length - 1].key}”`);
      if (ch !== '"') {
        if (ch === "'" || ch === "“" || ch === "”")
          fail(`Keys must be written in straight double quotes ("key"), not ${describe(ch)}.`, i);
        const word = /[A-Za-z_$][\w$-]*/y;
        word.lastIndex = i;
        const m = word.exec(text);
        if (m) fail(`The key ${m[0]} needs double quotes around it: "${m[0]}".`, i);
        fail(`Unexpected ${describe(ch)}: expected a key in double quotes, or } to close the group.`, i);
      }
      const keyNode = parseString();
      skipSpace();
      if (text[i] !== ":") fail(`A colon (:) is missing after the key “${keyNode.value}”.`, keyNode.end - 1);
      i++;
      skipSpace();
      if (text[i] === "," || text[i] === "}")
        fail(`The key “${keyNode.value}” has no value after its colon.`, keyNode.end);
      const value = parseValue();
      const firstLine = seen.get(keyNode.value);
      if (firstLine !== undefined) duplicates.push({ key: keyNode.value, line: keyNode.line, firstLine });
      else seen.set(keyNode.value, keyNode.line);
      properties.push({ key: keyNode.value, line: keyNode.line, value });
      skipSpace();
      if (text[i] === ",") {
        lastComma = i;
        i++;
      } else lastComma = -1;
    }
  };

  const parseArray = (): JsonArray => {
    const start = i;
    i++; // [
    const items: JsonNode[] = [];
    let lastComma = -1;
    for (;;) {
      skipSpace();
      const ch = text[i];
      if (ch === undefined)
        fail(`The list opened on line ${lineOf(start)} with [ is never closed: a ] is missing.`, text.length - 1);
      if (ch === "]") {
        if (lastComma >= 0) fail("Remove the comma after the last entry.", lastComma);
        i++;
        return { kind: "array", items, start, end: i, line: lineOf(start) };
      }
      if (items.length > 0 && lastComma < 0)
        afterEntry("]", items[items.length - 1], `entry ${items.length} of the list`);
      items.push(parseValue());
      skipSpace();
      if (text[i] === ",") {
        lastComma = i;
        i++;
      } else lastComma = -1;
    }
  };

  const parseValue = (): JsonNode => {
    skipSpace();
    const ch = text[i];
    const start = i;
    if (ch === undefined) return fail("The file ends too early: a value, } or ] is missing.", text.length - 1);
    if (ch === "{") return parseObject();
    if (ch === "[") return parseArray();
    if (ch === '"') return parseString();
    if (ch === "-" || (ch >= "0" && ch <= "9")) return parseNumber();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return {
          kind: value === null ? "null" : "boolean",
          value,
          start,
          end: i,
          line: lineOf(start),
        };
      }
    }
    if (ch === "'" || ch === "“" || ch === "”" || ch === "„")
      return fail(`Texts must start and end with a straight double quote ("), not ${describe(ch)}.`, i);
    return fail(`Unexpected ${describe(ch)}: a text must be in double quotes ("…").`, i);
  };

  skipSpace();
  if (i >= text.length) fail("The file is empty: it needs at least {}.", 0);
  const root = parseValue();
  skipSpace();
  if (i < text.length) {
    if (text[i] === ",") fail("Remove the comma after the last entry.", i);
    fail("There is something after the end of the file's outermost group: remove it (or move it inside).", i);
  }
  return { root, duplicates };
}

/** The plain JavaScript value of a node. */
export function toPlain(node: JsonNode): unknown {
  switch (node.kind) {
    case "object":
      return Object.fromEntries(node.properties.map((p) => [p.key, toPlain(p.value)]));
    case "array":
      return node.items.map(toPlain);
    default:
      return node.value;
  }
}

/** The node at a path of keys and indices, and the line of the key that holds it. */
export function nodeAt(root: JsonNode, path: readonly (string | number)[]): { node: JsonNode; line: number } | null {
  let node: JsonNode = root;
  let line = root.line;
  for (const step of path) {
    if (node.kind === "object") {
      const prop: JsonProperty | undefined = node.properties.findLast((p) => p.key === step);
      if (!prop) return null;
      node = prop.value;
      line = prop.line;
    } else if (node.kind === "array" && typeof step === "number" && node.items[step]) {
      node = node.items[step];
      line = node.line;
    } else return null;
  }
  return { node, line };
}

/** The nearest line for a path: the deepest part of it that exists (where something is missing). */
export function lineNear(root: JsonNode, path: readonly (string | number)[]): number {
  for (let n = path.length; n >= 0; n--) {
    const found = nodeAt(root, path.slice(0, n));
    if (found) return found.line;
  }
  return 1;
}
