/**
 * The glossary in the content editor and the content API: a Dutch *u* or a Persian term the glossary
 * rules out is flagged live as the editor types and refused on save, with the same message
 * `npm run check:copy` prints.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import type { ContentAnswer } from "#shared/api/content.ts";
import { ALL_PATHS, checkChanges, CONTENT_PATHS, parseTexts, rulesOf } from "#functions/_lib/texts/texts.ts";
import { liveProblems } from "./model.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../../..");
const files = () => new Map(ALL_PATHS.map((p) => [p, readFileSync(path.join(repoRoot, p), "utf8")]));

const U_MESSAGE =
  "“contact.form.heard” says “u”; the glossary has “je / jij / jouw” instead. The site speaks to founders with je, on every page, in every email and in the panel; a page that mixes je and u reads as two writers.";

test("the editor flags a typed u in Dutch and a ruled-out Persian term at once, and not the texts as they are", () => {
  const parsed = parseTexts(files());
  const data = { texts: parsed.texts, rules: rulesOf(parsed), collections: parsed.collections } as ContentAnswer;
  const at = { lang: "nl", key: "contact.form.heard" } as const;
  expect(liveProblems(data, {}, at)).toEqual([]);
  const typed = { "nl:contact.form.heard": "Hoe heeft u van ons gehoord?" };
  expect(liveProblems(data, typed, at)).toEqual([{ severity: "error", rule: "glossary", message: U_MESSAGE }]);
  const fa = { lang: "fa", key: "admin.factors.recovery.copy" } as const;
  expect(liveProblems(data, { "fa:admin.factors.recovery.copy": "رونوشت" }, fa).map((p) => p.message)).toEqual([
    expect.stringContaining("says “رونوشت”; the glossary has “کپی” instead."),
  ]);
});

test("the content API refuses to save a text the glossary rules out, with the same message", () => {
  const before = files();
  const nl = CONTENT_PATHS.locale("nl");
  const after = new Map(before);
  after.set(nl, before.get(nl)!.replace('"Hoe heb je van ons gehoord?"', '"Hoe heeft u van ons gehoord?"'));
  const errors = checkChanges(parseTexts(before), parseTexts(after), [{ lang: "nl", key: "contact.form.heard" }]);
  expect(errors).toEqual({ "nl:contact.form.heard": [U_MESSAGE] });
});
