import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * Every built page passes the W3C Nu HTML checker (the `vnu-jar` package) without an error.
 * It lives with the browser tests because they run on the production build: `dist/` is there.
 *
 * The checker's CSS part predates some CSS that browsers support and Tailwind 4 emits; those
 * messages are about the checker, not our markup, and are listed here with the reason:
 */
const CSS_CHECKER_GAPS: { pattern: RegExp; why: string }[] = [
  {
    pattern: /^CSS: Unrecognized at-rule “@property”/,
    why: "@property (CSS Properties and Values API), in every browser since 2024",
  },
  { pattern: /^CSS: “margin-trim”: Property “margin-trim” doesn't exist/, why: "Tailwind's @supports feature probe" },
  {
    pattern: /^CSS: “transition-property”: “--tw-[\w-]+” is not a “transition-property” value/,
    why: "custom properties are valid transition-property values (registered with @property)",
  },
];

const dist = path.resolve("dist");
const vnu = path.resolve("node_modules/vnu-jar/build/dist/vnu.jar");

interface NuMessage {
  type: "error" | "info" | "non-document-error";
  subType?: string;
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

test("every built page has no W3C Nu HTML checker error", async () => {
  test.skip(!existsSync(dist), "dist/ is absent: build the site first (npm test does)");
  test.setTimeout(180_000);
  const java = spawnSync("java", ["-version"]);
  expect(java.status, "Java is needed to run the Nu HTML checker (apt-get install default-jre-headless)").toBe(0);

  const pages = (readdirSync(dist, { recursive: true }) as string[]).filter((f) => f.endsWith(".html"));
  expect(pages.length, "built pages").toBeGreaterThan(20);

  // vnu exits 1 when it reports errors; its JSON report is on stderr either way.
  let report = "";
  try {
    execFileSync("java", ["-jar", vnu, "--format", "json", "--skip-non-html", dist], {
      stdio: ["ignore", "ignore", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    report = String((error as { stderr?: Buffer }).stderr ?? "");
  }
  const messages: NuMessage[] = report ? JSON.parse(report).messages : [];
  const errors = messages.filter(
    (m) => m.type !== "info" && !CSS_CHECKER_GAPS.some((gap) => gap.pattern.test(m.message)),
  );
  const ignored = messages.length - errors.length - messages.filter((m) => m.type === "info").length;
  console.log(
    `Nu HTML checker: ${pages.length} pages, ${errors.length} errors, ${ignored} CSS-checker messages ignored (${CSS_CHECKER_GAPS.map((g) => g.why).join("; ")})`,
  );
  const summary = errors
    .map(
      (m) =>
        `${path.relative(dist, new URL(m.url).pathname)}:${m.lastLine ?? "?"} ${m.message}\n    ${m.extract ?? ""}`,
    )
    .join("\n");
  expect(errors.length, summary).toBe(0);
});
