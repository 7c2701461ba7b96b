/** parseTexts answers the same files from its last parses, and parses changed files again. */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { ALL_PATHS, parseTexts } from "./texts.ts";

const committed = () => new Map(ALL_PATHS.map((p) => [p, readFileSync(p, "utf8")]));

test("the same texts, read again into new strings, give the same parse; a changed file gives a new one", () => {
  const first = parseTexts(committed());
  expect(parseTexts(committed())).toBe(first);

  const files = committed();
  const nl = "src/i18n/locales/nl.json";
  const badge = first.texts.nl["hero.badge"];
  files.set(nl, files.get(nl)!.replace(JSON.stringify(badge), JSON.stringify(`${badge} (nieuw)`)));
  const changed = parseTexts(files);
  expect(changed).not.toBe(first);
  expect(changed.texts.nl["hero.badge"]).toBe(`${badge} (nieuw)`);
  expect(first.texts.nl["hero.badge"]).toBe(badge);
  // Both stay known: a load of the old files meanwhile is answered from its parse too.
  expect(parseTexts(committed())).toBe(first);
  expect(parseTexts(new Map(files))).toBe(changed);
});

test("a file that does not parse is refused every time, and never remembered", () => {
  const files = committed();
  files.set("src/i18n/reviewed.json", "{");
  expect(() => parseTexts(files)).toThrow();
  expect(() => parseTexts(files)).toThrow();
});

test("only the last four sets of files are kept", () => {
  const base = committed();
  const variants = Array.from({ length: 5 }, (_, i) => {
    const files = new Map(base);
    files.set("src/i18n/copy-rules.json", `${base.get("src/i18n/copy-rules.json")!.trimEnd()}${" ".repeat(i + 1)}\n`);
    return files;
  });
  const parsed = variants.map((files) => parseTexts(files));
  for (const [i, files] of variants.entries().drop(1)) expect(parseTexts(files)).toBe(parsed[i]);
  expect(parseTexts(variants[0])).not.toBe(parsed[0]);
});
