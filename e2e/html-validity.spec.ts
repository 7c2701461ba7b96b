import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./test";
import { checkHtml, hasJava } from "../scripts/test/nu-checker.mjs";

/**
 * Every built page passes the W3C Nu HTML checker without an error. It lives with the browser
 * tests because they run on the production build: `dist/` is there. Messages of the checker's CSS
 * part about CSS it does not know yet are listed, with the reason, in scripts/test/nu-checker.mjs.
 */
test("every built page has no W3C Nu HTML checker error", async () => {
  const dist = path.resolve("dist");
  expect(existsSync(dist), "dist/ holds the build the browser tests run on").toBe(true);
  test.setTimeout(180_000);
  expect(hasJava(), "Java is needed to run the Nu HTML checker (apt-get install default-jre-headless)").toBe(true);

  const { pages, errors, ignored } = checkHtml(dist);
  expect(pages, "built pages").toBeGreaterThan(20);
  console.log(
    `Nu HTML checker: ${pages} pages, ${errors.length} errors; ignored (CSS checker gaps): ${ignored.map((i) => `${i.count} × ${i.why}`).join("; ")}`,
  );
  const summary = errors.map((m) => `${m.file}:${m.lastLine ?? "?"} ${m.message}\n    ${m.extract ?? ""}`).join("\n");
  expect(errors.length, summary).toBe(0);
});
