/**
 * A fourth language is a change to src/shared/languages.ts and the locale files only. This test
 * makes that change to copies (German, "de", whose locale file is the English one with every text
 * marked ⟦…⟧ so a text that comes from it can be told apart), points the modules at the copies, and
 * checks that every consumer derives from LANGUAGES: routes, sitemap, hreflang, the language
 * switcher, dates and digits, the schemas, the emails and the astro config's i18n.
 *
 * The change it makes: src/shared/languages.ts gets "de" in LANGUAGES and a LANGUAGE_INFO entry;
 * src/i18n/locales/ gets de.json and one line in its index.ts (its Record<Language, …> type fails
 * the type check until the file is listed). Nothing else of the code names a language, which the
 * last test checks by reading the sources.
 */
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test, vi } from "vitest";
import { repoRoot } from "../../tools/copy-check/testing.ts";

const dir = mkdtempSync(path.join(tmpdir(), "fourth-language-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The change to src/shared/languages.ts: the code in the list and its facts. */
function withGerman(source: string): string {
  const list = 'export const LANGUAGES = ["en", "nl", "fa"] as const;';
  const info = "export const LANGUAGE_INFO: Record<Language, LanguageInfo> = {\n";
  if (!source.includes(list) || !source.includes(info)) throw new Error("languages.ts changed shape: update this test");
  return source
    .replace(list, 'export const LANGUAGES = ["en", "nl", "fa", "de"] as const;')
    .replace(
      info,
      `${info}  de: { name: "Deutsch", short: "DE", dir: "ltr", intl: "de-DE", calendar: "gregory", weekStart: 1, digits: "latin", script: "latin", ogLocale: "de_DE", countries: ["DE", "AT"] },\n`,
    );
}

/** A pseudo-translation: every text of the English file, marked, placeholders kept. */
const mark = (node: unknown): unknown =>
  typeof node === "string"
    ? `⟦${node}⟧`
    : Object.fromEntries(Object.entries(node as object).map(([key, value]) => [key, mark(value)]));

const LANGUAGES_COPY = path.join(dir, "languages.ts");
const LOCALES_COPY = path.join(dir, "locales-index.ts");
{
  writeFileSync(LANGUAGES_COPY, withGerman(readFileSync(path.join(repoRoot, "src/shared/languages.ts"), "utf8")));
  const locales = path.join(repoRoot, "src/i18n/locales");
  for (const file of readdirSync(locales).filter((f) => f.endsWith(".json"))) {
    copyFileSync(path.join(locales, file), path.join(dir, file));
  }
  writeFileSync(
    path.join(dir, "de.json"),
    JSON.stringify(mark(JSON.parse(readFileSync(path.join(dir, "en.json"), "utf8")))),
  );
  const index = readFileSync(path.join(locales, "index.ts"), "utf8");
  const entries = "export const resources: Record<Language, LocaleResource> = { en, nl, fa };";
  if (!index.includes(entries)) throw new Error("locales/index.ts changed shape: update this test");
  writeFileSync(
    LOCALES_COPY,
    index
      .replace(
        'import fa from "./fa.json" with { type: "json" };',
        '$&\nimport de from "./de.json" with { type: "json" };',
      )
      .replace(entries, "export const resources: Record<Language, LocaleResource> = { en, nl, fa, de };"),
  );
}

vi.mock("#shared/languages.ts", () => import(/* @vite-ignore */ LANGUAGES_COPY));
vi.mock("#src/i18n/locales/index.ts", () => import(/* @vite-ignore */ LOCALES_COPY));

describe("a fourth language from src/shared/languages.ts and the locale files alone", () => {
  test("the list has it", async () => {
    const { LANGUAGES, isLanguage } = await import("#shared/languages.ts");
    expect(LANGUAGES).toContain("de");
    expect(isLanguage("de")).toBe(true);
  });

  test("hreflang alternates and the sitemap name its pages", async () => {
    const { alternates } = await import("#src/lib/seo.ts");
    expect(alternates("/startup-visa").map((a) => a.hreflang)).toEqual(["en", "nl", "fa", "de", "x-default"]);
    const { GET } = await import("#src/pages/sitemap.xml.ts");
    const sitemap = await (await (GET as () => Response | Promise<Response>)()).text();
    expect(sitemap).toContain("/de/startup-visa</loc>");
    expect(sitemap).toContain('hreflang="de"');
  });

  test("dates and digits follow its Intl tag", async () => {
    const { formatDate, formatNumber } = await import("#shared/format.ts");
    expect(formatDate("de" as never, "2026-12-24")).toMatch(/Dezember/);
    expect(formatNumber("de" as never, 1234.5)).toBe("1.234,5");
  });

  test("the forms' schemas accept it", async () => {
    const { newsletterSchema } = await import("#shared/schemas/newsletter.ts");
    expect(newsletterSchema.safeParse({ email: "a@example.com", language: "de" }).success).toBe(true);
  });

  test("the visitor's emails speak it, from its locale file", async () => {
    const { visitorEnquiryEmail } = await import("#functions/_lib/mail/templates.ts");
    const email = visitorEnquiryEmail({
      id: 42,
      firstName: "Lena",
      lastName: "Vogel",
      email: "lena@example.com",
      company: null,
      service: "startup-visa",
      message: "We would like to open an office in Amsterdam.",
      language: "de" as never,
      createdAt: "2026-11-23T09:10:00.000Z",
    });
    expect(email.subject).toContain("⟦");
    expect(email.html).toContain('lang="de"');
  });

  test("the astro config's i18n routes it", async () => {
    const config = (await import("../../astro.config.mjs")).default;
    expect(config.i18n?.locales).toEqual(["en", "nl", "fa", "de"]);
    // Loading the config loads Astro, Vite's plugins and the copy check: seconds on a busy machine.
  }, 120_000);
});

describe("nothing else of the code lists the languages", () => {
  const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");

  test("the language switchers, the layout and every [lang] route derive from LANGUAGES", () => {
    for (const file of ["src/components/Header.astro", "src/components/Footer.astro", "src/layouts/BaseLayout.astro"]) {
      expect(read(file), file).toMatch(/LANGUAGES\.(map|filter)\(/);
    }
    const routes = path.join(repoRoot, "src/pages/[lang]");
    const pages = readdirSync(routes, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".astro"));
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) {
      expect(read(`src/pages/[lang]/${page}`), page).toMatch(/getStaticPaths = \(\) => LANGUAGES\.map\(/);
    }
  });

  test("no source names the three codes as a list ", () => {
    // A list or union of two or more of the codes: ["en", "nl"], "nl" | "fa", { en: …, nl: … }.
    const list = /["'](en|nl|fa)["']\s*(,|\|)\s*["'](en|nl|fa)["']|\{\s*en\s*[:,][^}]*\bnl\s*[:,]/;
    // The admin branch moves the content editor's own dictionary into the locale files.
    const pending = ["src/components/admin/editor/ui-texts.ts", "src/components/admin/editor/ContentEditor.tsx"];
    const offenders = ["src", "functions", "db", "server"]
      .flatMap((top) =>
        readdirSync(path.join(repoRoot, top), { recursive: true, encoding: "utf8" }).map((f) => `${top}/${f}`),
      )
      .filter((f) => /\.(ts|tsx|astro|mjs)$/.test(f))
      .filter((f) => !f.endsWith(".test.ts") && !f.includes("_tests/"))
      .filter((f) => f !== "src/shared/languages.ts" && f !== "src/i18n/locales/index.ts")
      .filter((f) => !pending.some((p) => f.startsWith(p)))
      .filter((f) => list.test(read(f)));
    expect(offenders).toEqual([]);
  });

  test("netlify.toml's 404 pages are the one place outside the two folders (one block per language)", () => {
    const toml = read("netlify.toml");
    for (const code of ["en", "nl", "fa"]) expect(toml).toContain(`from = "/${code}/*"`);
  });
});
