/**
 * `npm run build` with an editor's mistake, in a throwaway copy of the project: the build stops with
 * the copy check's message (file, line, plain words), and the previous dist/ stays as it was. A
 * build that succeeds replaces dist/ whole. `astro build` run directly (as `npm start` does) refuses
 * copy errors the same way.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { repoRoot } from "../../tools/copy-check/testing";

const SKIP = new Set([
  "node_modules",
  ".git",
  "dist",
  ".dist-next",
  ".dist-previous",
  ".astro",
  ".data",
  ".netlify",
  "test-results",
  "bench-results",
  "playwright-report",
]);
const OLD_BUILD = "<!doctype html><title>previous build</title>";

let root = "";
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = "";
});

/** A copy of the project with a previous build in dist/, after `change`. */
function project(change: (edit: (file: string, from: string | RegExp, to: string) => void) => void) {
  root = mkdtempSync(path.join(tmpdir(), "build-test-"));
  for (const entry of readdirSync(repoRoot)) {
    if (SKIP.has(entry) || entry.startsWith(".dist")) continue;
    cpSync(path.join(repoRoot, entry), path.join(root, entry), { recursive: true });
  }
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"));
  mkdirSync(path.join(root, "dist"));
  writeFileSync(path.join(root, "dist", "index.html"), OLD_BUILD);
  change((file, from, to) => {
    const full = path.join(root, file);
    const text = readFileSync(full, "utf8");
    if (typeof from === "string" ? !text.includes(from) : !from.test(text))
      throw new Error(`${file}: ${from} not found`);
    writeFileSync(full, text.replace(from, to));
  });
  return root;
}

/** Runs the command `npm run build` runs (from package.json), with Node 24 first on the PATH. */
function npmRunBuild(cwd: string) {
  const command = JSON.parse(readFileSync(path.join(cwd, "package.json"), "utf8")).scripts.build as string;
  const bin = path.join(repoRoot, "node_modules", ".bin");
  const result = spawnSync("sh", ["-c", command], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, FORCE_COLOR: "0" },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

const lineOf = (file: string, text: string) =>
  readFileSync(path.join(root, file), "utf8")
    .split("\n")
    .findIndex((l) => l.includes(text)) + 1;
const previousBuildKept = () => {
  expect(readFileSync(path.join(root, "dist", "index.html"), "utf8")).toBe(OLD_BUILD);
  expect(existsSync(path.join(root, ".dist-next"))).toBe(false);
};

describe("npm run build stops on an editor's mistake and keeps the previous dist/", () => {
  test("a trailing comma in fa.json: named with file and line, no parser backtrace", () => {
    project((edit) => edit("src/i18n/locales/fa.json", '"close": "بستن"\n', '"close": "بستن",\n'));
    const { status, output } = npmRunBuild(root);
    expect(status).not.toBe(0);
    const line = lineOf("src/i18n/locales/fa.json", '"close": "بستن"');
    expect(output).toContain(`src/i18n/locales/fa.json, line ${line}: Remove the comma after the last entry.`);
    expect(output).not.toMatch(/backtrace|\[object Object\]/i);
    previousBuildKept();
  });

  test("a key deleted from nl.json", () => {
    project((edit) => edit("src/i18n/locales/nl.json", /\n\s*"allServices": "Alle diensten",/, ""));
    const { status, output } = npmRunBuild(root);
    expect(status).not.toBe(0);
    expect(output).toMatch(/src\/i18n\/locales\/nl\.json, line \d+: “common\.allServices” is missing/);
    previousBuildKept();
  });

  test("a broken placeholder", () => {
    project((edit) => edit("src/i18n/locales/nl.json", "© {{year}} {{brand}}.", "© {{year}} {{merk}}."));
    const { status, output } = npmRunBuild(root);
    expect(status).not.toBe(0);
    expect(output).toMatch(
      /nl\.json, line \d+: “footer\.copyright” has \{\{merk\}\} where the English has \{\{brand\}\}/,
    );
    previousBuildKept();
  });

  test("Arabic letters in Persian", () => {
    project((edit) => edit("src/i18n/locales/fa.json", '"close": "بستن"', '"close": "بستن كامل"'));
    const { status, output } = npmRunBuild(root);
    expect(status).not.toBe(0);
    expect(output).toContain("Arabic kaf ك (Persian writes ک)");
    previousBuildKept();
  });

  test("a testimonial added without its translations", () => {
    project((edit) =>
      edit(
        "src/data/testimonials.json",
        /\n\]\s*$/,
        `,\n  { "id": "new-client", "author": { "en": "New Client" }, "company": { "en": "CEO, New Co" }, "content": { "en": "Great help." }, "rating": 5, "linkedinUrl": "https://www.linkedin.com/in/new-client" }\n]\n`,
      ),
    );
    const { status, output } = npmRunBuild(root);
    expect(status).not.toBe(0);
    expect(output).toMatch(/testimonials\.json, line \d+: New Client → company: the Dutch text is missing\./);
    previousBuildKept();
  });

  test("a mistake in a component: Astro's own error, and dist/ is kept", () => {
    project((edit) =>
      edit(
        "src/components/sections/Hero.astro",
        'import Icon from "../ui/Icon.astro";',
        'import Icon from "../ui/NoSuchIcon.astro";',
      ),
    );
    const { status, output } = npmRunBuild(root);
    expect(status).not.toBe(0);
    expect(output).toContain("The build failed (see above). dist/ still holds the previous build.");
    previousBuildKept();
  }, 120_000);
});

test("a build with only warnings goes ahead and replaces dist/ whole", () => {
  project((edit) => {
    for (const lang of ["en", "nl", "fa"])
      edit(`src/i18n/locales/${lang}.json`, /"close": "([^"]+)"/, '"close": "$1",\n    "unusedExample": "x"');
  });
  const { status, output } = npmRunBuild(root);
  expect(output).toContain("1 warning (run npm run check:copy to see them)");
  expect(status).toBe(0);
  expect(readFileSync(path.join(root, "dist", "index.html"), "utf8")).not.toBe(OLD_BUILD);
  expect(existsSync(path.join(root, "dist", "fa", "index.html"))).toBe(true);
  expect(existsSync(path.join(root, ".dist-next"))).toBe(false);
  expect(existsSync(path.join(root, ".dist-previous"))).toBe(false);
}, 180_000);

test("astro build run directly (as npm start does) refuses copy errors before touching dist/", () => {
  project((edit) => edit("src/i18n/locales/nl.json", /\n\s*"allServices": "Alle diensten",/, ""));
  const result = spawnSync(
    path.join(repoRoot, "node_modules", ".bin", "node"),
    [path.join(root, "node_modules", "astro", "bin", "astro.mjs"), "build"],
    { cwd: root, encoding: "utf8", env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" } },
  );
  expect(result.status).not.toBe(0);
  expect(`${result.stdout}${result.stderr}`).toMatch(/nl\.json, line \d+: “common\.allServices” is missing/);
  expect(readFileSync(path.join(root, "dist", "index.html"), "utf8")).toBe(OLD_BUILD);
}, 120_000);
