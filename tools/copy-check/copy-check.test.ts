/**
 * `npm run check:copy` against the mistakes editors make, each made in a throwaway copy of the real
 * files: what the check says (file, line, key, plain words) and whether it stops the build.
 */
import { afterEach, describe, expect, test } from "vitest";
import { checkCopy, type CopyReport, type Problem } from "./copy-check";
import { formatReport } from "./format";
import { copyProject, type ProjectCopy } from "./testing";

const NL = "src/i18n/locales/nl.json";
const FA = "src/i18n/locales/fa.json";
const EN = "src/i18n/locales/en.json";
const TESTIMONIALS = "src/data/testimonials.json";
const RULES = "src/i18n/copy-rules.json";

let project: ProjectCopy;
afterEach(() => project?.remove());

function check(change: (p: ProjectCopy) => void, fix = false): CopyReport {
  project = copyProject();
  change(project);
  return checkCopy({ root: project.root, fix });
}
const errors = (r: CopyReport) => r.problems.filter((p) => p.severity === "error");
const warnings = (r: CopyReport) => r.problems.filter((p) => p.severity === "warning");
const only = (problems: Problem[]) => {
  expect(problems.map((p) => `${p.file}:${p.line} ${p.message}`)).toHaveLength(1);
  return problems[0];
};

test("the unchanged copy has no errors and no warnings", () => {
  const report = check(() => {});
  expect(report.problems).toEqual([]);
  expect(report.reviews).toEqual([]);
});

describe("a JSON mistake is named with its file and line, in plain words", () => {
  test("a trailing comma in fa.json", () => {
    const report = check((p) => p.replace(FA, '"close": "بستن"\n', '"close": "بستن",\n'));
    const problem = only(errors(report));
    expect(problem).toMatchObject({ rule: "syntax", file: FA, line: project.lineOf(FA, '"close"') });
    expect(problem.message).toBe("Remove the comma after the last entry.");
    expect(formatReport(report, { root: project.root })).toContain(
      `src/i18n/locales/fa.json, line ${problem.line}: Remove the comma after the last entry.`,
    );
  });

  test("a missing comma in testimonials.json", () => {
    const report = check((p) => p.replace(TESTIMONIALS, '"rating": 5,', '"rating": 5'));
    expect(only(errors(report))).toMatchObject({
      rule: "syntax",
      file: TESTIMONIALS,
      message: "A comma is missing at the end of this line, after “rating”.",
    });
  });
});

describe("keys", () => {
  test("a key deleted from nl.json is an error naming the key and where it belongs", () => {
    const report = check((p) => p.replace(NL, /\n\s*"allServices": "Alle diensten",/, ""));
    const problem = only(errors(report));
    expect(problem).toMatchObject({ rule: "missing-key", file: NL, key: "common.allServices" });
    expect(problem.line).toBe(project.lineOf(NL, '"common"'));
    expect(problem.message).toMatch(/without it the Dutch pages would show the English text/);
  });

  test("a key only in en.json: missing in both translations, and shown nowhere", () => {
    const report = check((p) => p.replace(EN, '"close": "Close"', '"close": "Close",\n    "subtitle": "Hello"'));
    expect(errors(report).map((e) => [e.rule, e.file, e.key])).toEqual([
      ["missing-key", NL, "general.subtitle"],
      ["missing-key", FA, "general.subtitle"],
    ]);
    expect(only(warnings(report))).toMatchObject({
      rule: "unused-key",
      file: EN,
      line: project.lineOf(EN, '"subtitle"'),
      key: "general.subtitle",
    });
  });

  test("a key the code asks for but the locale files lack is an error at the line of code", () => {
    const file = "src/components/sections/Hero.astro";
    const report = check((p) => p.replace(file, '{tr("hero.badge")}', '{tr("hero.badgeText")}'));
    const problem = errors(report).find((e) => e.rule === "absent-key")!;
    expect(problem).toMatchObject({ file, key: "hero.badgeText", line: project.lineOf(file, "hero.badgeText") });
    expect(problem.message).toMatch(/visitors would see “hero.badgeText”/);
  });

  test("a key written twice in one group", () => {
    const report = check((p) => p.replace(NL, '"close": "Sluiten"', '"close": "Sluiten",\n    "close": "Dicht"'));
    expect(only(errors(report))).toMatchObject({ rule: "duplicate-key", file: NL, key: "close" });
  });
});

describe("placeholders", () => {
  test("a translated placeholder name ({{merk}}) would show as written", () => {
    const report = check((p) => p.replace(NL, "© {{year}} {{brand}}.", "© {{year}} {{merk}}."));
    const problem = only(errors(report));
    expect(problem).toMatchObject({ rule: "placeholder", file: NL, key: "footer.copyright" });
    expect(problem.line).toBe(project.lineOf(NL, '"copyright"'));
    expect(problem.message).toContain("has {{merk}} where the English has {{brand}}");
  });

  test("single braces ({brand}) in a page title", () => {
    const report = check((p) => p.replace(FA, '"title": "{{brand}} | کسب', '"title": "{brand} | کسب'));
    expect(errors(report).map((e) => e.message)).toContainEqual(
      expect.stringContaining("has “{brand}”: a placeholder needs two braces on each side, {{brand}}"),
    );
  });

  test("an English placeholder the page does not fill in", () => {
    const report = check((p) => p.replace(EN, "© {{year}} {{brand}}.", "© {{year}} {{company}}."));
    expect(errors(report).find((e) => e.file === EN)!.message).toBe(
      "“footer.copyright” uses {{company}}, but the page fills in only {{brand}}, {{year}}: visitors would see “{{company}}”. Placeholder names stay exactly as they are.",
    );
  });
});

test("HTML in a text would show as code", () => {
  const report = check((p) => p.replace(NL, '"allServices": "Alle diensten"', '"allServices": "Alle <b>diensten</b>"'));
  expect(only(errors(report))).toMatchObject({ rule: "html", key: "common.allServices" });
});

describe("Arabic letters in Persian", () => {
  const arabic = (p: ProjectCopy) => {
    p.replace(FA, '"close": "بستن"', '"close": "بستن كامل ي"');
    p.replace(TESTIMONIALS, "سارا رحیمی", "سارا رحيمي");
  };

  test("are refused, naming the letters and the fix", () => {
    const report = check(arabic);
    expect(errors(report).map((e) => [e.rule, e.file])).toEqual([
      ["arabic-letters", FA],
      ["arabic-letters", TESTIMONIALS],
    ]);
    expect(errors(report)[0].message).toContain("Arabic yeh ي (Persian writes ی)");
    expect(errors(report)[0].message).toContain("npm run check:copy -- --fix");
  });

  test("are replaced by --fix, in the files, and nothing else changes", () => {
    const report = check(arabic, true);
    expect(report.fixed).toBe(4);
    expect(report.problems).toEqual([]);
    expect(project.read(FA)).toContain('"close": "بستن کامل ی"');
    expect(project.read(TESTIMONIALS)).toContain("سارا رحیمی");
  });
});

describe("content files", () => {
  test("a testimonial without its Dutch and Persian texts is an error naming the person and the field", () => {
    const report = check((p) =>
      p.editJson<object[]>(TESTIMONIALS, (list) =>
        list.push({
          id: "new-client",
          author: { en: "New Client", nl: "New Client", fa: "مشتری تازه" },
          company: { en: "CEO, New Co" },
          content: { en: "Great help from the first call. We recommend them." },
          rating: 5,
          linkedinUrl: "https://www.linkedin.com/in/new-client",
        }),
      ),
    );
    const messages = errors(report).map((e) => `${e.file}:${e.line} ${e.message}`);
    // The line of the "company": { / "content": { key, just above its English text.
    const company = project.lineOf(TESTIMONIALS, '"en": "CEO, New Co"') - 1;
    const content = project.lineOf(TESTIMONIALS, '"en": "Great help') - 1;
    expect(messages).toEqual([
      `${TESTIMONIALS}:${company} New Client → company: the Dutch text is missing.`,
      `${TESTIMONIALS}:${company} New Client → company: the Persian text is missing.`,
      `${TESTIMONIALS}:${content} New Client → content: the Dutch text is missing.`,
      `${TESTIMONIALS}:${content} New Client → content: the Persian text is missing.`,
    ]);
  });

  test("a wrong rating and an unknown field are explained", () => {
    const report = check((p) =>
      p.editJson<Record<string, unknown>[]>(TESTIMONIALS, (list) => {
        list[0].rating = 6;
        list[0].compnay = list[0].company;
      }),
    );
    expect(errors(report).map((e) => e.message)).toEqual([
      "Sara Rahimi → rating: must be a number from 1 to 5.",
      "Sara Rahimi: “compnay” is not a field here; the fields are id, author, company, content, rating, linkedinUrl, emojis, photo (check the spelling).",
    ]);
  });

  test("a photo that is not in public/ is an error", () => {
    const report = check((p) =>
      p.editJson<Record<string, unknown>[]>(TESTIMONIALS, (list) => {
        list[0].photo = { src: "/images/people/sara.jpg", alt: { en: "Sara", nl: "Sara", fa: "سارا" } };
      }),
    );
    expect(only(errors(report)).message).toBe(
      "Sara Rahimi → photo: the image /images/people/sara.jpg is not in public/. Put the file at public/images/people/sara.jpg, or correct the path.",
    );
  });
});

describe("English left in a translation", () => {
  test("correct Dutch that keeps names in English is not flagged", () => {
    const report = check((p) =>
      p.replace(TESTIMONIALS, '"nl": "Algemeen directeur, Parsian Logistics"', '"nl": "CEO, Parsian Logistics"'),
    );
    expect(report.problems).toEqual([]);
  });

  test("an English sentence in nl.json is flagged, and words on the allow list are not", () => {
    const report = check((p) => p.replace(NL, '"allServices": "Alle diensten"', '"allServices": "All the services"'));
    expect(only(warnings(report))).toMatchObject({ rule: "english", file: NL, key: "common.allServices" });
    const allowed = check((p) => {
      p.replace(NL, '"allServices": "Alle diensten"', '"allServices": "All the services"');
      p.editJson<{ keepInEnglish: Record<string, string[]> }>(RULES, (rules) =>
        rules.keepInEnglish.nl.push("the", "services"),
      );
    });
    expect(allowed.problems).toEqual([]);
  });

  test("a Latin word in Persian is flagged unless allowed", () => {
    const report = check((p) => p.replace(FA, '"allServices": "همهٔ خدمات"', '"allServices": "همهٔ services"'));
    expect(only(warnings(report)).message).toContain("“services”");
  });
});

test("a long Dutch word in a button is over its budget", () => {
  const report = check((p) =>
    p.replace(NL, '"exploreServices": "Bekijk onze diensten"', '"exploreServices": "Dienstverleningsaanbod"'),
  );
  expect(only(warnings(report)).message).toMatch(
    /“Dienstverleningsaanbod” has 22 letters; words in buttons should have at most 16/,
  );
});

describe("review flags", () => {
  test("a changed English text marks its Dutch and Persian versions for review", () => {
    const report = check((p) => p.replace(EN, '"allServices": "All services"', '"allServices": "Every service"'));
    expect(report.problems).toEqual([]);
    expect(report.reviews.map((r) => [r.lang, r.key, r.reason])).toEqual([
      ["nl", "common.allServices", "changed"],
      ["fa", "common.allServices", "changed"],
    ]);
    expect(formatReport(report, { root: project.root })).toContain(
      "1 Dutch and 1 Persian texts wait for review because the English changed: npm run check:copy -- --review",
    );
  });

  test("changed content texts are flagged too", () => {
    const report = check((p) =>
      p.replace(TESTIMONIALS, "We could not have done it alone.", "We could never have done it alone."),
    );
    expect(report.reviews.map((r) => r.key)).toEqual([
      "testimonials:sara-rahimi.content",
      "testimonials:sara-rahimi.content",
    ]);
  });
});
