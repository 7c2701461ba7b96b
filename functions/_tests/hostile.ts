/**
 * Hostile requests, generated from a seed: bodies and query strings built from the shapes that have
 * broken parsers and validators before (deep nesting, prototype keys, every JSON type in every field,
 * huge strings, arrays and numbers, lone surrogates, invalid UTF-8, duplicate keys, empty bodies).
 * The same seed gives the same requests, so a failure in CI is replayed by its seed and case number.
 */

/** A small, fast, seedable PRNG (mulberry32): the generator must be reproducible, not secure. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

/** Keys that reach an object's prototype or constructor when code builds objects from input. */
export const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype"] as const;

/** Nesting far past any sane body: 10,000 levels of arrays or objects, as raw JSON text. */
export const deepArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
export const deepObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** Raw JSON texts for one value, each a shape that has broken code before. */
const RAW_VALUES: readonly string[] = [
  "null",
  "true",
  "false",
  "0",
  "-0",
  "1e308",
  "-1e308",
  "1e309",
  "123456789012345678901234567890",
  "0.1",
  "-1",
  "2147483648",
  '"NaN"',
  '"Infinity"',
  '""',
  '" "',
  '"\\ud800"',
  '"\\udfff"',
  '"a\\ud800b"',
  '"\\u0000"',
  '"<script>alert(1)</script>"',
  '"\' OR 1=1 --"',
  '"../../../etc/passwd"',
  "\"=cmd|' /C calc'!A0\"",
  '"2026-02-30"',
  '"25:99"',
  '"\\u202e\\u200f"',
  "[]",
  "{}",
  '[""]',
  "[null]",
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"prototype":{"polluted":true}}',
  '{"toString":"x","hasOwnProperty":"y","valueOf":1}',
  // Strings that name a prototype when code walks a dotted path or indexes an object with them.
  '"__proto__"',
  '"__proto__.polluted"',
  '"constructor.prototype.polluted"',
  '"toString"',
  '"hasOwnProperty"',
  '"hero.__proto__"',
];

/** A raw JSON value: one of the shapes above, a huge one, or a deep one. */
export function rawValue(rng: Rng): string {
  const roll = rng();
  if (roll < 0.06) return JSON.stringify("x".repeat(pick(rng, [1_000, 33_000, 200_000])));
  if (roll < 0.1) return `[${Array.from({ length: pick(rng, [1_000, 20_000]) }, () => "0").join(",")}]`;
  if (roll < 0.14) return pick(rng, [deepArrays, deepObjects])(pick(rng, [100, 3_000, 10_000]));
  if (roll < 0.18) return JSON.stringify("\u{1F600}".repeat(5_000));
  return pick(rng, RAW_VALUES);
}

/** A valid body's keys, each with its value as raw JSON, in order (duplicates allowed). */
type Fields = [string, string][];

const fieldsOf = (body: Record<string, unknown> | null): Fields =>
  body ? Object.entries(body).map(([key, value]) => [key, JSON.stringify(value)]) : [];

const objectText = (fields: Fields) => `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;

/** Every path to a value nested inside `value` (objects and arrays), the root excluded. */
function nestedPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const inner = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : value && typeof value === "object"
      ? Object.entries(value)
      : [];
  return inner.flatMap(([k, v]) => [[...at, k], ...nestedPaths(v, [...at, k])]);
}

const PLACEHOLDER = "\u0000hostile\u0000";

/** `body` as JSON text with the value at `at` replaced by the raw JSON `raw`. */
function replacedAt(body: Record<string, unknown>, at: (string | number)[], raw: string): string {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[at[at.length - 1]] = PLACEHOLDER;
  return JSON.stringify(copy).replace(JSON.stringify(PLACEHOLDER), () => raw);
}

/** One hostile request body: the text (or bytes) sent and the content type it is sent as. */
export interface HostileBody {
  shape: string;
  body: string | Uint8Array<ArrayBuffer> | undefined;
  contentType: string | undefined;
}

/**
 * A hostile body derived from a valid one: one to three mutations of its fields (a value of another
 * type, a prototype key at some level, a missing field, a duplicate key), or a body that is no
 * object at all (empty, a primitive, deep nesting, invalid UTF-8, another content type).
 */
export function hostileBody(rng: Rng, valid: Record<string, unknown> | null): HostileBody {
  const roll = rng();
  const json = (shape: string, body: string | Uint8Array<ArrayBuffer> | undefined): HostileBody => ({
    shape,
    body,
    contentType: "application/json",
  });
  if (roll < 0.04) return json("empty body", "");
  if (roll < 0.06) return json("no body", undefined);
  if (roll < 0.1) return json("whole body a value", rawValue(rng));
  if (roll < 0.13) return json("10,000 nested arrays", deepArrays(10_000));
  if (roll < 0.16) return json("10,000 nested objects", deepObjects(10_000));
  if (roll < 0.19) return json("3,000 nested arrays", deepArrays(3_000));
  if (roll < 0.22) {
    const text = objectText(fieldsOf(valid)).replace(/"([^"]*)"/, '"$1\u0000');
    const bytes = Buffer.from(text, "utf8");
    // Invalid UTF-8: a lone continuation byte, an overlong encoding, a truncated sequence.
    const bad = pick(rng, [[0xff], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80]]);
    const at = Math.max(2, Math.floor(rng() * (bytes.length - 1)));
    return json("invalid UTF-8", Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]));
  }
  if (roll < 0.25) {
    return {
      shape: "another content type",
      body: objectText(fieldsOf(valid)),
      contentType: pick(rng, [
        undefined,
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=utf-16",
        "APPLICATION/JSON",
      ]),
    };
  }
  if (roll < 0.27) return json("a body past the size limit", JSON.stringify({ pad: "x".repeat(40 * 1024) }));
  const nested = valid ? nestedPaths(valid).filter((at) => at.length > 1) : [];
  if (roll < 0.55 && nested.length) {
    // A value deep inside the body (a change's key, an hour's weekday) of another type or a prototype's name.
    const at = pick(rng, nested);
    const raw = rng() < 0.5 ? rawValue(rng) : pick(rng, RAW_VALUES.slice(-6));
    return json(`${at.join(".")} = ${raw.slice(0, 40)}`, replacedAt(valid!, at, raw));
  }

  let fields = fieldsOf(valid);
  const shapes: string[] = [];
  const mutations = 1 + Math.floor(rng() * 3);
  for (let i = 0; i < mutations; i++) {
    const kind = rng();
    const at = fields.length ? Math.floor(rng() * fields.length) : -1;
    if (kind < 0.45 && at >= 0) {
      fields[at] = [fields[at][0], rawValue(rng)];
      shapes.push(`${fields[at][0]} = ${fields[at][1].slice(0, 40)}`);
    } else if (kind < 0.65) {
      const key = pick(rng, PROTOTYPE_KEYS);
      if (at >= 0 && rng() < 0.5) {
        // A prototype key one level down, inside a field's value.
        fields[at] = [fields[at][0], `{${JSON.stringify(key)}:${rawValue(rng)}}`];
        shapes.push(`${fields[at][0]}.${key}`);
      } else {
        fields.push([key, pick(rng, ['{"polluted":true}', '{"prototype":{"polluted":true}}', rawValue(rng)])]);
        shapes.push(key);
      }
    } else if (kind < 0.8 && at >= 0) {
      shapes.push(`without ${fields[at][0]}`);
      fields = fields.filter((_, i) => i !== at);
    } else if (kind < 0.92 && at >= 0) {
      fields.push([fields[at][0], rawValue(rng)]);
      shapes.push(`duplicate ${fields[at][0]}`);
    } else {
      fields.push([pick(rng, ["unknown", "isAdmin", "role", "id", "\ud800", ""]), rawValue(rng)]);
      shapes.push("an unknown key");
    }
  }
  const text = objectText(fields);
  return json(shapes.join(", ") || "as valid", rng() < 0.1 ? `[${text}]` : text);
}

/** Query parameters that any list, filter, link or lookup reads, and a few none read. */
export const PARAMS = [
  "q",
  "cursor",
  "limit",
  "sort",
  "status",
  "service",
  "language",
  "from",
  "to",
  "when",
  "date",
  "token",
  "lang",
  "id",
  "__proto__",
  "constructor",
  "anything",
];

/** Raw (already encoded) query values: broken escapes, lone surrogates, huge, arrays, numbers. */
const QUERY_VALUES = [
  "",
  "%",
  "%zz",
  "%ED%A0%80",
  "%FF",
  "%C0%AF",
  "-1",
  "0",
  "1e308",
  "99999999999999999999",
  "NaN",
  "2026-02-30",
  "2028-02-29",
  "9999-12-31",
  "0000-00-00",
  "%3Cscript%3E",
  "'%20OR%201%3D1",
  "__proto__",
  "a".repeat(10_000),
  "%E2%80%AE",
];

/** A hostile query string of one to four parameters (repeated names allowed). */
export function hostileQuery(rng: Rng): string {
  const count = 1 + Math.floor(rng() * 4);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = pick(rng, PARAMS);
    parts.push(`${rng() < 0.1 ? `${name}[]` : name}=${pick(rng, QUERY_VALUES)}`);
  }
  return parts.join("&");
}
