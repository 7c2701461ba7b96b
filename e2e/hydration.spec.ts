import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import { ADMIN, skipSplash, toasts, uniqueTag } from "./helpers";
import { inviteAccount } from "./invite";

/**
 * No console error while the islands hydrate (React reports a server/client mismatch, #418, as an
 * uncaught error, so page errors count too). Every public page with an island, in each language: it
 * loads, is scrolled to the end (the client:visible islands hydrate), and a newsletter sign-up raises
 * the first toast, which is what wakes the Toaster island (client:toast) with a toast already in its store.
 * The other public pages load and scroll; every page of the admin panel loads in each of its
 * languages (signed in as the admin, and the editor's pages as an editor).
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

/** The other public pages (each has the footer's newsletter form and the Toaster): loaded, scrolled to the end. */
const OTHER_PAGES = [
  "/404/",
  "/enquiry/sent/",
  "/enquiry/error/",
  "/enquiry/unavailable/",
  ...["confirm", "confirmed", "error", "invalid", "link-invalid", "subscribed", "unavailable", "unsubscribe"].map(
    (p) => `/newsletter/${p}/`,
  ),
  "/newsletter/unsubscribed/",
];

for (const lang of ["en", "nl", "fa"] as const)
  test(`${lang}: the result and error pages hydrate without a console error`, async ({ page }) => {
    test.slow();
    const errors = watchErrors(page);
    for (const path of OTHER_PAGES) {
      await page.goto(`/${lang}${path}`);
      await scrollToEnd(page);
      await page.locator("form#newsletter[data-ready]").waitFor({ state: "attached" });
      await page.waitForLoadState("networkidle");
      // The 404 page answers 404 on purpose: the browser logs its status, which is not the page's error.
      expect(
        errors.filter((e) => !(path === "/404/" && /status of 404/.test(e))),
        `/${lang}${path}`,
      ).toEqual([]);
    }
  });

/**
 * Every page of the admin panel (src/pages/admin/*.astro), in each of the panel's languages: signed
 * in as the admin, the editor's own pages as an editor too, and the pages before a session.
 */
const ADMIN_PAGES = [
  "/admin/",
  "/admin/submissions?tab=meetings",
  "/admin/leads",
  "/admin/meetings",
  "/admin/sources",
  "/admin/texts",
  "/admin/availability",
  "/admin/consultants",
  "/admin/privacy",
  "/admin/security",
  "/admin/audit",
  "/admin/factors",
];

/** Loads `path` and waits until its islands have done their first work (the page's heading, the network quiet). */
async function loadAdmin(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState("networkidle");
}

let editor: { username: string; password: string } | null = null;
async function theEditor(browser: Browser, baseURL: string) {
  if (editor) return editor;
  const context = await browser.newContext({ baseURL });
  expect((await context.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  const username = `hydrate${uniqueTag()}`;
  editor = {
    username,
    password: await inviteAccount(context.request, ADMIN.password, { username, role: "editor" }, baseURL),
  };
  await context.close();
  return editor;
}

for (const lang of ["en", "nl", "fa"] as const) {
  test(`${lang}: every admin page hydrates without a console error, signed in as the admin`, async ({
    context,
    page,
  }) => {
    test.slow();
    await context.addInitScript((language) => localStorage.setItem("admin-language", language), lang);
    expect((await page.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
    const errors = watchErrors(page);
    for (const path of ADMIN_PAGES) {
      await loadAdmin(page, path);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      expect(errors, path).toEqual([]);
    }
  });

  test(`${lang}: the editor's pages hydrate without a console error`, async ({ browser, baseURL, context, page }) => {
    const who = await theEditor(browser, baseURL!);
    await context.addInitScript((language) => localStorage.setItem("admin-language", language), lang);
    expect((await page.request.post("/api/login", { data: who })).status()).toBe(200);
    const errors = watchErrors(page);
    for (const path of ["/admin/", "/admin/texts", "/admin/security", "/admin/factors", "/admin/leads"]) {
      await loadAdmin(page, path);
      expect(errors, path).toEqual([]);
    }
  });

  test(`${lang}: the sign-in and invitation pages hydrate without a console error, and signing in too`, async ({
    context,
    page,
  }) => {
    await context.addInitScript((language) => localStorage.setItem("admin-language", language), lang);
    const errors = watchErrors(page);
    await page.goto("/admin/invitation");
    // Without the link's token the page says so (its heading is the form's).
    await expect(page.getByRole("heading").first()).toBeVisible();
    await page.goto("/admin/login");
    await page.locator("input[autocomplete=username]").fill(ADMIN.username);
    await page.locator("input[type=password]").fill(ADMIN.password);
    await page.locator("button[type=submit]").click();
    await page.waitForURL(/\/admin\/leads/);
    await page.waitForLoadState("networkidle");
    // The sign-in page asks who is signed in first: its 401 is the expected answer, not an error.
    expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
}
