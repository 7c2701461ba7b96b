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
  return new JsonReader(text).read();
}

/** The 1-based line and column of an offset, found by binary search over where each line starts. */
class LineIndex {
  private readonly starts = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") this.starts.push(i + 1);
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  columnOf(offset: number): number {
    return offset - this.starts[this.lineOf(offset) - 1] + 1;
  }
}

/** The escapes a JSON text may hold after a backslash, other than \uXXXX. */
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** One reading of a text: a recursive descent from `i`, one method per kind of value. */
class JsonReader {
  private readonly text: string;
  private readonly lines: LineIndex;
  private readonly duplicates: DuplicateKey[] = [];
  private i: number;

  constructor(text: string) {
    this.text = text;
    this.lines = new LineIndex(text);
    this.i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  read(): ParsedJson {
    const { text } = this;
    this.skipSpace();
    if (this.i >= text.length) this.fail("The file is empty: it needs at least {}.", 0);
    const root = this.parseValue();
    this.skipSpace();
    if (this.i < text.length) {
      if (text[this.i] === ",") this.fail("Remove the comma after the last entry.", this.i);
      this.fail(
        "There is something after the end of the file's outermost group: remove it (or move it inside).",
        this.i,
      );
    }
    return { root, duplicates: this.duplicates };
  }

  private lineOf(offset: number): number {
    return this.lines.lineOf(offset);
  }

  private fail(message: string, offset: number): never {
    const at = Math.min(offset, this.text.length);
    throw new JsonSyntaxError(message, this.lines.lineOf(at), this.lines.columnOf(at));
  }

  private skipSpace() {
    const { text } = this;
    for (;;) {
      const ch = text[this.i];
      if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") this.i++;
      else if (ch === "/" && (text[this.i + 1] === "/" || text[this.i + 1] === "*"))
        this.fail("JSON files cannot hold comments. Remove the comment (everything from // or /*).", this.i);
      else return;
    }
  }

  private parseString(): JsonString {
    const { text } = this;
    const start = this.i;
    this.i++; // opening quote
    let value = "";
    for (;;) {
      const ch = text[this.i];
      if (ch === undefined)
        this.fail(`The text that starts on line ${this.lineOf(start)} is never closed: add a " at its end.`, start);
      if (ch === "\n" || ch === "\r")
        this.fail(
          'This text is not closed on its line: add a " at its end. (A text cannot run over several lines; write \\n for a line break.)',
          start,
        );
      if (ch === '"') {
        this.i++;
        return { kind: "string", value, start, end: this.i, line: this.lineOf(start) };
      }
      if (ch === "\\") {
        value += this.escape();
        continue;
      }
      if (ch.charCodeAt(0) < 0x20)
        this.fail("This text contains a tab or another invisible control character: replace it with a space.", this.i);
      value += ch;
      this.i++;
    }
  }

  /** The character a backslash code at `i` stands for; moves past the code. */
  private escape(): string {
    const { text, i } = this;
    const next = text[i + 1];
    if (next !== undefined && next in SIMPLE_ESCAPES) {
      this.i += 2;
      return SIMPLE_ESCAPES[next];
    }
    if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      this.i += 6;
      return String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
    }
    return this.fail(
      `“\\${next ?? ""}” is not allowed in a text. A backslash starts a code such as \\" or \\n; for a backslash itself write \\\\.`,
      i,
    );
  }

  private parseNumber(): JsonScalar {
    const start = this.i;
    const match = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = this.i;
    const m = match.exec(this.text);
    if (!m) return this.fail("This is not a valid number.", this.i);
    this.i += m[0].length;
    return { kind: "number", value: Number(m[0]), start, end: this.i, line: this.lineOf(start) };
  }

  /** After an entry of a group ends: what is wrong when neither a comma nor the closing bracket follows. */
  private afterEntry(close: "}" | "]", previous: JsonNode, label: string) {
    const ch = this.text[this.i];
    if (ch === undefined) return;
    const sameLine = this.lineOf(this.i) === this.lineOf(previous.end - 1);
    if (previous.kind === "string" && sameLine && ch !== "," && ch !== close)
      this.fail(
        `The text of ${label} ends too early: it contains a double quote ("). Write \\" for a quote inside a text, or use typographic quotes “ ”.`,
        previous.start,
      );
    if (ch === '"' || ch === "{" || ch === "[" || /[-0-9tfn]/.test(ch))
      this.fail(`A comma is missing at the end of this line, after ${label}.`, previous.end - 1);
    this.fail(`Unexpected ${describe(ch)} after ${label}: expected a comma, or ${close} to close the group.`, this.i);
  }

  /** After an entry: steps over a comma and answers where it stood, or -1 when there is none. */
  private comma(): number {
    this.skipSpace();
    if (this.text[this.i] !== ",") return -1;
    return this.i++;
  }

  private parseObject(): JsonObject {
    const { text } = this;
    const start = this.i;
    this.i++; // {
    const properties: JsonProperty[] = [];
    const seen = new Map<string, number>();
    let lastComma = -1;
    for (;;) {
      this.skipSpace();
      const ch = text[this.i];
      if (ch === undefined)
        this.fail(
          `The group opened on line ${this.lineOf(start)} with { is never closed: a } is missing.`,
          text.length - 1,
        );
      if (ch === "}") {
        if (lastComma >= 0) this.fail("Remove the comma after the last entry.", lastComma);
        this.i++;
        return { kind: "object", properties, start, end: this.i, line: this.lineOf(start) };
      }
      if (properties.length > 0 && lastComma < 0)
        this.afterEntry("}", properties[properties.length - 1].value, `“${properties[properties.length - 1].key}”`);
      const property = this.parseProperty(ch);
      const firstLine = seen.get(property.key);
      if (firstLine !== undefined) this.duplicates.push({ key: property.key, line: property.line, firstLine });
      else seen.set(property.key, property.line);
      properties.push(property);
      lastComma = this.comma();
    }
  }

  /** One `"key": value` of a group, `ch` its first character. */
  private parseProperty(ch: string): JsonProperty {
    const { text } = this;
    if (ch !== '"') this.notAKey(ch);
    const keyNode = this.parseString();
    this.skipSpace();
    if (text[this.i] !== ":") this.fail(`A colon (:) is missing after the key “${keyNode.value}”.`, keyNode.end - 1);
    this.i++;
    this.skipSpace();
    if (text[this.i] === "," || text[this.i] === "}")
      this.fail(`The key “${keyNode.value}” has no value after its colon.`, keyNode.end);
    return { key: keyNode.value, line: keyNode.line, value: this.parseValue() };
  }

  /** Where a key should start but `ch` stands: a key in other quotes, a bare word, or anything else. */
  private notAKey(ch: string): never {
    if (ch === "'" || ch === "“" || ch === "”")
      this.fail(`Keys must be written in straight double quotes ("key"), not ${describe(ch)}.`, this.i);
    const word = /[A-Za-z_$][\w$-]*/y;
    word.lastIndex = this.i;
    const m = word.exec(this.text);
    if (m) this.fail(`The key ${m[0]} needs double quotes around it: "${m[0]}".`, this.i);
    return this.fail(`Unexpected ${describe(ch)}: expected a key in double quotes, or } to close the group.`, this.i);
  }

  private parseArray(): JsonArray {
    const { text } = this;
    const start = this.i;
    this.i++; // [
    const items: JsonNode[] = [];
    let lastComma = -1;
    for (;;) {
      this.skipSpace();
      const ch = text[this.i];
      if (ch === undefined)
        this.fail(
          `The list opened on line ${this.lineOf(start)} with [ is never closed: a ] is missing.`,
          text.length - 1,
        );
      if (ch === "]") {
        if (lastComma >= 0) this.fail("Remove the comma after the last entry.", lastComma);
        this.i++;
        return { kind: "array", items, start, end: this.i, line: this.lineOf(start) };
      }
      if (items.length > 0 && lastComma < 0)
        this.afterEntry("]", items[items.length - 1], `entry ${items.length} of the list`);
      items.push(this.parseValue());
      lastComma = this.comma();
    }
  }

  private parseValue(): JsonNode {
    const { text } = this;
    this.skipSpace();
    const ch = text[this.i];
    const start = this.i;
    if (ch === undefined) return this.fail("The file ends too early: a value, } or ] is missing.", text.length - 1);
    if (ch === "{") return this.parseObject();
    if (ch === "[") return this.parseArray();
    if (ch === '"') return this.parseString();
    if (ch === "-" || (ch >= "0" && ch <= "9")) return this.parseNumber();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, this.i)) {
        this.i += word.length;
        return {
          kind: value === null ? "null" : "boolean",
          value,
          start,
          end: this.i,
          line: this.lineOf(start),
        };
      }
    }
    if (ch === "'" || ch === "“" || ch === "”" || ch === "„")
      return this.fail(`Texts must start and end with a straight double quote ("), not ${describe(ch)}.`, this.i);
    return this.fail(`Unexpected ${describe(ch)}: a text must be in double quotes ("…").`, this.i);
  }
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
