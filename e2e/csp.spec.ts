import { hydrated, skipSplash } from "./helpers";
import { expect, test } from "./test";

/**
 * The strict Content-Security-Policy (no 'unsafe-inline', no 'unsafe-eval') holds on every page:
 * nothing the site ships is blocked, and nothing even tries (zod's `new Function` probe used to).
 * Every test watches for violations on every page it opens (e2e/test.ts); this file proves that the
 * watch sees one, and opens the pages no other test reaches, with every island loaded.
 */

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

test("the watch on every test sees a violation: an inline script the policy refuses", async ({
  page,
  cspViolations,
}) => {
  await page.goto("/en/privacy");
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__ran = true";
    document.body.append(script);
  });
  await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
  expect(cspViolations.join("\n")).toMatch(/script-src/);
  expect(await page.evaluate(() => "__ran" in window)).toBe(false);
  cspViolations.length = 0; // seen, as it should be: the test itself passes
});

const RESULT_PAGES = [
  "/fa/newsletter/subscribed/",
  "/nl/newsletter/confirm/?token=1.2.3",
  "/en/newsletter/invalid/",
  "/nl/newsletter/unsubscribed/",
  "/fa/newsletter/link-invalid/",
  "/en/newsletter/error/",
];

test("the newsletter's result pages, with the footer's sign-up form loaded: no CSP violation", async ({ page }) => {
  for (const path of RESULT_PAGES) {
    await page.goto(path);
    await page.locator("footer").scrollIntoViewIfNeeded();
    await hydrated(page, "NewsletterForm");
  }
});
