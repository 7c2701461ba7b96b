import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import { ADMIN, skipSplash, toasts, uniqueTag } from "./helpers";

/**
 * No console error while the islands hydrate (React reports a server/client mismatch, #418, as an
 * uncaught error, so page errors count too). Every public page with an island, in each language: it
 * loads, is scrolled to the end (the client:visible islands hydrate), and a newsletter sign-up raises
 * the first toast, which is what wakes the Toaster island (client:toast) with a toast already in its store.
 */

const LOCALES = { en, nl, fa } as const;
/** Pages with islands: the home page (enquiry form, booking dialog, testimonials), the service pages, the privacy page and the manage page; every one has the footer's newsletter form and the Toaster. */
const PAGES = ["/", "/startup-visa/", "/startup-studio/", "/business-launchpad/", "/privacy/", "/meeting/"];

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  return errors;
}

async function scrollToEnd(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
    }
  });
}

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

for (const lang of ["en", "nl", "fa"] as const)
  for (const path of PAGES)
    test(`${lang}${path}: hydrates without a console error, the first toast included`, async ({ page }) => {
      const errors = watchErrors(page);
      await page.goto(`/${lang}${path}`);
      await scrollToEnd(page);
      const form = page.locator("#newsletter");
      await page.locator("form#newsletter[data-ready]").waitFor({ state: "attached" });
      await page.locator("#newsletter-email").fill(`hydration.${uniqueTag()}@example.com`);
      await form.locator("button[type=submit]").click();
      await expect(toasts(page)).toContainText(LOCALES[lang].newsletter.successTitle);
      expect(errors).toEqual([]);
    });

test("the admin sign-in page and the dashboard hydrate without a console error", async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto("/admin/login");
  await page.locator("input[autocomplete=username]").fill(ADMIN.username);
  await page.locator("input[type=password]").fill(ADMIN.password);
  await page.locator("button[type=submit]").click();
  await page.waitForURL(/\/admin\/submissions/);
  await page.waitForLoadState("networkidle");
  // The sign-in page asks who is signed in first: its 401 is the expected answer, not an error.
  expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
});
