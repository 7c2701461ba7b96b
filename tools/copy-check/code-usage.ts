/**
 * Which translation keys the code asks for, read from the source text (no build needed): every
 * `tr("key", { vars })` (or `plain(…)`, the same without soft hyphens) and `listOf(tr, "group")`. A key built from a template literal
 * (`tr(\`services.${s.key}.title\`)`) becomes a pattern that matches any text in place of `${…}`.
 */

export interface KeyUse {
  /** Repo-relative file and 1-based line of the call. */
  file: string;
  line: number;
  /** The key as written, `${…}` kept. */
  written: string;
  /** Matches the keys this call can ask for. */
  pattern: RegExp;
  /** True when the key has no `${…}` part. */
  exact: boolean;
  /** The call reads a whole group (listOf, returnObjects): every key under it is used. */
  group: boolean;
  /** Names the call fills in for {{placeholders}}; null when it spreads an object we cannot read. */
  variables: string[] | null;
  /**
   * A key-shaped string outside a tr() call (`serviceNameKey = (id) => \`services.names.${id}\``):
   * it marks keys as used, but is not reported when nothing matches (it may not be a key at all).
   */
  mention?: boolean;
}

/** i18next options that are not interpolation variables. */
const OPTIONS = new Set([
  "returnObjects",
  "defaultValue",
  "lng",
  "lngs",
  "ns",
  "keyPrefix",
  "interpolation",
  "joinArrays",
  "postProcess",
  "fallbackLng",
]);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Index just past the `${ … }` that starts at `from` (the `$`), respecting nested braces and strings. */
function skipInterpolation(text: string, from: number): number {
  let depth = 0;
  for (let i = from + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === "{") depth++;
    else if (ch === "}") {
      depth--;
      if (depth === 0) return i + 1;
    } else if (ch === '"' || ch === "'" || ch === "`") i = skipString(text, i) - 1;
  }
  return text.length;
}

/** Index just past the string literal starting at `from`. */
function skipString(text: string, from: number): number {
  const quote = text[from];
  for (let i = from + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (quote === "`" && ch === "$" && text[i + 1] === "{") i = skipInterpolation(text, i) - 1;
    else if (ch === quote) return i + 1;
  }
  return text.length;
}

/** Reads the string literal at `from`: its text, the parts between `${…}`, and where it ends. */
function readLiteral(text: string, from: number): { parts: string[]; end: number } | null {
  const quote = text[from];
  if (quote !== '"' && quote !== "'" && quote !== "`") return null;
  const parts = [""];
  for (let i = from + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") {
      parts[parts.length - 1] += text[i + 1];
      i++;
    } else if (quote === "`" && ch === "$" && text[i + 1] === "{") {
      i = skipInterpolation(text, i) - 1;
      parts.push("");
    } else if (ch === quote) return { parts, end: i + 1 };
    else parts[parts.length - 1] += ch;
  }
  return null;
}

/** The top-level property names of the object literal at `from` (`{`), and where it ends. */
function readObjectKeys(text: string, from: number): { keys: string[]; spread: boolean; end: number } {
  const keys: string[] = [];
  let spread = false;
  let depth = 0;
  let segment = "";
  const flush = () => {
    const s = segment.trim();
    segment = "";
    if (!s) return;
    if (s.startsWith("...")) spread = true;
    const m = /^(?:["']?)([A-Za-z_$][\w$]*)(?:["']?)\s*(?::|$|\()/.exec(s);
    if (m) keys.push(m[1]);
  };
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'" || ch === "`") {
      const end = skipString(text, i);
      if (depth === 1) segment += text.slice(i, end);
      i = end - 1;
    } else if (ch === "{" || ch === "(" || ch === "[") {
      depth++;
      if (depth > 1) segment += ch;
    } else if (ch === "}" || ch === ")" || ch === "]") {
      depth--;
      if (depth === 0) {
        flush();
        return { keys, spread, end: i + 1 };
      }
      segment += ch;
    } else if (ch === "," && depth === 1) flush();
    else if (depth >= 1) segment += ch;
  }
  return { keys, spread, end: text.length };
}

const lineAt = (text: string, offset: number) => {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};

/** Every translation key a source file asks for. */
export function findKeyUses(file: string, text: string): KeyUse[] {
  const uses: KeyUse[] = [];
  const call = /\b(tr|plain|listOf(?:<[^>()]*>)?)\(\s*/g;
  for (let m = call.exec(text); m; m = call.exec(text)) {
    let at = m.index + m[0].length;
    const isList = m[1].startsWith("listOf");
    if (isList) {
      const arg = /^tr\s*,\s*/.exec(text.slice(at));
      if (!arg) continue;
      at += arg[0].length;
    }
    const literal = readLiteral(text, at);
    if (!literal) continue;
    const written = literal.parts.join("${…}");
    // Only things that look like keys: letters, digits, dots, dashes.
    if (!/^[\w.${}…-]+$/.test(written) || !/[A-Za-z]/.test(written)) continue;
    let variables: string[] | null = [];
    let group = isList;
    const rest = /^\s*,\s*/.exec(text.slice(literal.end));
    if (!isList && rest && text[literal.end + rest[0].length] === "{") {
      const object = readObjectKeys(text, literal.end + rest[0].length);
      if (object.keys.includes("returnObjects")) group = true;
      variables = object.spread ? null : object.keys.filter((k) => !OPTIONS.has(k));
    }
    const exact = literal.parts.length === 1;
    const pattern = new RegExp(`^${literal.parts.map(escapeRegExp).join(".+?")}$`);
    uses.push({ file, line: lineAt(text, m.index), written, pattern, exact, group, variables });
  }
  return uses;
}

/**
 * Key-shaped strings anywhere in a file ("group.key", `group.${x}.title`) whose first part is one of
 * `groups` (the top-level groups of en.json): keys handed around before they reach tr().
 */
export function findKeyMentions(file: string, text: string, groups: ReadonlySet<string>): KeyUse[] {
  const uses: KeyUse[] = [];
  const quote = /["'`]/g;
  for (let m = quote.exec(text); m; m = quote.exec(text)) {
    const literal = readLiteral(text, m.index);
    if (!literal) continue;
    quote.lastIndex = literal.end;
    const written = literal.parts.join("${…}");
    const first = written.split(".")[0];
    if (!written.includes(".") || !groups.has(first) || !/^[\w.${}…-]+$/.test(written)) continue;
    const pattern = new RegExp(`^${literal.parts.map(escapeRegExp).join(".+?")}$`);
    uses.push({
      file,
      line: lineAt(text, m.index),
      written,
      pattern,
      exact: literal.parts.length === 1,
      group: true,
      variables: null,
      mention: true,
    });
  }
  return uses;
}

/** Whether `key` is asked for by `use` (directly, or as part of a group the call reads whole). */
export function usesKey(use: KeyUse, key: string): boolean {
  if (use.pattern.test(key)) return true;
  if (!use.group) return false;
  const parts = key.split(".");
  for (let n = parts.length - 1; n > 0; n--) if (use.pattern.test(parts.slice(0, n).join("."))) return true;
  return false;
}
