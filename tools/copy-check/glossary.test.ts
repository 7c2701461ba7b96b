/**
 * The glossaries (src/i18n/glossary.<lang>.json): `npm run check:copy`, run as a process on a
 * throwaway copy of the real files, stops on a formal Dutch *u* and on a Persian term the glossary
 * rules out, naming the file, the line, the key and the preferred term; the words around them that
 * only look alike pass.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { compileGlossary, glossaryHits, parseGlossary, type GlossaryEntry } from "#shared/glossary.ts";
import { glossaryOf } from "#src/i18n/glossary.ts";
import { copyProject, repoRoot, type ProjectCopy } from "./testing";

const NL = "src/i18n/locales/nl.json";
const FA = "src/i18n/locales/fa.json";
const node = path.join(repoRoot, "node_modules", ".bin", "node");

let project: ProjectCopy | undefined;
afterEach(() => project?.remove());

/** `npm run check:copy` (and the build's `--before-build`) in a copy of the project changed by `change`. */
function checkCopyIn(change: (p: ProjectCopy) => void, args: string[] = []) {
  project = copyProject();
  change(project);
  const result = spawnSync(node, [path.join(repoRoot, "scripts/build/check-copy.ts"), ...args], {
    cwd: project.root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: result.status, out: result.stdout + result.stderr };
}

// Each test runs the check as its own process (about a second alone, far more on a busy machine).
describe("npm run check:copy", { timeout: 180_000 }, () => {
  test("passes on the real locale files and glossaries", () => {
    const { status, out } = checkCopyIn(() => {});
    expect(out).toMatch(/Copy check: ✓ copy is in order/);
    expect(status).toBe(0);
  });

  test("fails on a seeded u in Dutch, with the key, the line and the preferred term, and stops the build", () => {
    const seeded = (p: ProjectCopy) =>
      p.replace(NL, '"heard": "Hoe heb je van ons gehoord?"', '"heard": "Hoe heeft u van ons gehoord?"');
    const { status, out } = checkCopyIn(seeded);
    expect(status).toBe(1);
    const line = project!.lineOf(NL, '"heard": "Hoe heeft u');
    expect(out).toContain(
      `${NL}, line ${line}: “contact.form.heard” says “u”; the glossary has “je / jij / jouw” instead.`,
    );
    expect(checkCopyIn(seeded, ["--before-build"]).status).toBe(1);
  });

  test("fails on a Persian term the glossary rules out, naming the term to use", () => {
    const { status, out } = checkCopyIn((p) =>
      p.replace(FA, '"password": "رمز عبور شما"', '"password": "گذرواژهٔ شما"'),
    );
    expect(status).toBe(1);
    const line = project!.lineOf(FA, '"password": "گذرواژهٔ شما"');
    expect(out).toContain(
      `${FA}, line ${line}: “admin.factors.password” says “گذرواژهٔ”; the glossary has “رمز عبور” instead.`,
    );
  });

  test("a glossary file of the wrong shape is reported in plain words", () => {
    const { status, out } = checkCopyIn((p) => p.write("src/i18n/glossary.fa.json", '[{ "use": "رمز عبور" }]\n'));
    expect(status).toBe(1);
    expect(out).toContain('src/i18n/glossary.fa.json, line 1: Entry 1 (رمز عبور) needs "not"');
  });
});

describe("which words a glossary entry matches", () => {
  const hits = (lang: string, key: string, text: string) =>
    glossaryHits(key, text, glossaryOf(lang)).map((h) => `${h.found} → ${h.entry.use}`);

  test.each([
    ["Kunt u ons bellen?", "u"],
    ["Uw wachtwoord", "Uw"],
    ["Dat regelt u zelf.", "u"],
    ["Wij bellen u.", "u"],
  ])("Dutch formal you: %s", (text, found) => {
    expect(hits("nl", "contact.form.heard", text)).toEqual([`${found} → je / jij / jouw`]);
  });

  test.each([
    "Binnen een uur antwoorden we uit Amsterdam.",
    "Maak een U-bocht.",
    "Open van 9 u tot 17 u.",
    "Mail {{u}} op https://example.nl/u/uw of naar u@example.nl.",
    "Je kunt je aanmelden voor de nieuwsbrief.",
  ])("Dutch that only looks alike passes: %s", (text) => {
    expect(hits("nl", "newsletter.description", text)).toEqual([]);
  });

  test("aanmelden is the newsletter's word and the panel's mistake", () => {
    expect(hits("nl", "newsletter.submit", "Aanmelden")).toEqual([]);
    expect(hits("nl", "admin.login.submit", "Aanmelden")).toEqual(["Aanmelden → inloggen / uitloggen"]);
    expect(hits("nl", "admin.layout.goToLogin", "Naar de aanmeldpagina")).toEqual([
      "aanmeldpagina → inloggen / uitloggen",
    ]);
    // The separable verb: "meldt zich … aan".
    expect(hits("nl", "admin.people.intro", "Een redacteur meldt zich hier ook aan.")).toEqual([
      "meldt zich → inloggen / uitloggen",
    ]);
  });

  test("Persian: a variant with a suffix after a ZWNJ or an ezafe is found; the privacy page keeps رونوشت", () => {
    expect(hits("fa", "admin.audit.targets.enquiries", "سرنخ\u200cها")).toEqual(["سرنخ → درخواست"]);
    expect(hits("fa", "admin.factors.intro", "پس از گذرواژهٔ شما")).toEqual(["گذرواژهٔ → رمز عبور"]);
    expect(hits("fa", "admin.factors.recovery.copy", "رونوشت")).toEqual(["رونوشت → کپی"]);
    expect(hits("fa", "privacy.rights.text", "رونوشتی از داده‌ها")).toEqual([]);
  });

  test("one hit per entry, however often the word occurs; except keys are left alone", () => {
    const entry: GlossaryEntry = { use: "je", not: ["u", "uw"], why: "x", except: ["quotes.*"] };
    const glossary = compileGlossary([entry]);
    expect(glossaryHits("a.b", "u en uw en u", glossary)).toHaveLength(1);
    expect(glossaryHits("quotes.one", "u", glossary)).toEqual([]);
  });

  test("the shape of a glossary file is checked entry by entry", () => {
    expect(parseGlossary({}).errors).toEqual(["A glossary file is a list [ … ] of entries."]);
    expect(parseGlossary([{ use: "a", not: ["b"], why: "c", keys: "admin.**" }]).errors).toEqual([
      'Entry 1 (a): "keys" must be a list of key patterns, e.g. ["admin.**"].',
    ]);
    expect(parseGlossary([{ use: "a", not: [], why: "c" }]).entries).toEqual([]);
  });
});
