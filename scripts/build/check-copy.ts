// `npm run check:copy`: checks the locale and content files (tools/copy-check/). `npm run build` runs
// it first, and `npm test` runs it as a unit test. Options:
//   --fix                      replace Arabic letters in Persian texts by their Persian forms, in the files
//   --review                   list the Dutch and Persian texts whose English changed since they were reviewed
//   --reviewed nl KEY [KEY…]   mark texts reviewed (also: --reviewed nl --all, --reviewed --all)
//   --before-build             exit 1 only on errors (what `npm run build` uses)
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { checkCopy, PATHS, SOURCE_LANG, type CopyReport } from "../../tools/copy-check/copy-check.ts";
import { formatReport } from "../../tools/copy-check/format.ts";
import { parseJsonSource, toPlain } from "#functions/_lib/texts/json-source.ts";
import {
  emptyRecord,
  fingerprint,
  markReviewed,
  serializeRecord,
  TRANSLATED,
  type ReviewRecord,
  type Translated,
} from "#functions/_lib/texts/review.ts";

const root = process.cwd();
const argv = process.argv.slice(2);
const color = process.stdout.isTTY;
const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[0m` : s);
const LANG_NAMES: Record<string, string> = { nl: "Dutch", fa: "Persian" };

function usage(message: string): never {
  console.error(`${message}

  npm run check:copy                              check every locale and content file
  npm run check:copy -- --fix                     also replace Arabic letters in Persian texts
  npm run check:copy -- --review                  list translations to review since the English changed
  npm run check:copy -- --reviewed nl KEY …       mark Dutch texts reviewed (fa for Persian)
  npm run check:copy -- --reviewed nl --all       mark every Dutch text reviewed
  npm run check:copy -- --reviewed --all          mark every Dutch and Persian text reviewed`);
  process.exit(2);
}

const englishTexts = (report: CopyReport) =>
  new Map(report.entries.filter((e) => e.lang === SOURCE_LANG).map((e) => [e.key, e.value]));

function readRecord(): ReviewRecord {
  try {
    return { ...emptyRecord(), ...(toPlain(parseJsonSource(readFileSync(PATHS.reviewed, "utf8")).root) as object) };
  } catch {
    return emptyRecord();
  }
}

/** English texts of earlier versions, by fingerprint, from git history (best effort: none without git). */
function earlierEnglish(wanted: Set<string>): Map<string, string> {
  const found = new Map<string, string>();
  const files = [`${PATHS.locales}/${SOURCE_LANG}.json`, ...Object.values(PATHS.content)];
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  try {
    for (const file of files) {
      const commits = git("log", "--format=%H", "-n", "100", "--", file).split("\n").filter(Boolean);
      for (const commit of commits) {
        if (found.size === wanted.size) return found;
        let plain: unknown;
        try {
          plain = toPlain(parseJsonSource(git("show", `${commit}:${file}`)).root);
        } catch {
          continue;
        }
        const visit = (value: unknown) => {
          if (typeof value === "string") {
            const fp = fingerprint(value);
            if (wanted.has(fp) && !found.has(fp)) found.set(fp, value);
          } else if (value && typeof value === "object") Object.values(value).forEach(visit);
        };
        visit(plain);
      }
    }
  } catch {
    // Not a git checkout: the report shows the English as it is now.
  }
  return found;
}

function listReviews(report: CopyReport) {
  if (!report.reviews.length) {
    console.log("Nothing to review: every Dutch and Persian text was reviewed against the current English.");
    return;
  }
  const english = englishTexts(report);
  const old = earlierEnglish(new Set(report.reviews.flatMap((r) => (r.reviewedAgainst ? [r.reviewedAgainst] : []))));
  for (const lang of TRANSLATED) {
    const flags = report.reviews.filter((r) => r.lang === lang);
    if (!flags.length) continue;
    console.log(bold(`\n${LANG_NAMES[lang]}: ${flags.length} ${flags.length === 1 ? "text" : "texts"} to review\n`));
    for (const flag of flags) {
      const entry = report.entries.find((e) => e.lang === lang && e.key === flag.key)!;
      console.log(`${bold(`${entry.file}, line ${entry.line}`)}  ${entry.label ?? flag.key}`);
      const was = flag.reviewedAgainst ? old.get(flag.reviewedAgainst) : undefined;
      const row = (label: string, text: string) => console.log(`  ${`${label}:`.padEnd(13)} ${text}`);
      if (flag.reason === "new") console.log(dim("  never marked reviewed"));
      else if (was !== undefined) row("English was", was);
      row("English now", english.get(flag.key) ?? "");
      row(LANG_NAMES[lang], `${entry.value}\n`);
    }
  }
  console.log(
    `When a text is right (changed or not), mark it reviewed:\n  npm run check:copy -- --reviewed nl KEY …   (or --reviewed nl --all)`,
  );
}

function markAsReviewed(args: string[], report: CopyReport) {
  const all = args.includes("--all");
  const rest = args.filter((a) => a !== "--all");
  const lang = rest[0] as Translated | undefined;
  const langs: Translated[] = lang && TRANSLATED.includes(lang) ? [lang] : all && !lang ? [...TRANSLATED] : [];
  if (!langs.length) usage(`Say which language: --reviewed nl … or --reviewed fa … (or --reviewed --all for both).`);
  const keys = rest.slice(1);
  if (!all && !keys.length)
    usage("Name the keys to mark reviewed (as `npm run check:copy -- --review` lists them), or --all.");
  const english = englishTexts(report);
  const unknown = keys.filter((k) => !english.has(k));
  if (unknown.length) usage(`Not a key of ${SOURCE_LANG}.json or the content files: ${unknown.join(", ")}`);
  let record = readRecord();
  for (const l of langs) record = markReviewed(record, english, l, all ? "all" : keys);
  writeFileSync(path.join(root, PATHS.reviewed), serializeRecord(record));
  const count = all ? langs.length * english.size : keys.length;
  console.log(
    `Marked ${count} ${langs.map((l) => LANG_NAMES[l]).join(" and ")} ${count === 1 ? "text" : "texts"} reviewed in ${PATHS.reviewed}.`,
  );
}

const known = ["--fix", "--before-build", "--review", "--reviewed"];
const reviewedAt = argv.indexOf("--reviewed");
const options = reviewedAt >= 0 ? argv.slice(0, reviewedAt) : argv;
const unknownOptions = options.filter((a) => !known.includes(a));
if (unknownOptions.length) usage(`Unknown option ${unknownOptions.join(" ")}.`);

const report = checkCopy({ root, fix: options.includes("--fix") });
if (reviewedAt >= 0) markAsReviewed(argv.slice(reviewedAt + 1), report);
else if (options.includes("--review")) listReviews(report);
else {
  const beforeBuild = options.includes("--before-build");
  console.log(formatReport(report, { root, color, errorsOnly: beforeBuild }));
  const errors = report.problems.filter((p) => p.severity === "error").length;
  const warnings = report.problems.length - errors;
  process.exit(errors || (!beforeBuild && warnings) ? 1 : 0);
}
