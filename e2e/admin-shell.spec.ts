import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import { expectNoViolations } from "./axe";
import { ADMIN, holdRequests, keepScreenshot, skipSplash, uniqueTag } from "./helpers";
import { inviteAccount } from "./invite";

/**
 * The admin panel's shell (AdminLayout + AdminNav): every page of the panel has the navigation, in
 * one order, with its own page marked; a side bar on a desktop (on the right in Persian), a menu
 * under the header on a phone that opens without a script and is walked by keyboard; an editor is
 * never shown a page that is not theirs, not even for a frame; the old dashboard's addresses open
 * the right list with their filters. Screenshots at 390 and 1280 px in each language go to the
 * test's folder in test-results/ (shell-*.png).
 */

const COPY = { en, nl, fa } as const;
type Lang = keyof typeof COPY;
const PAGES = [
  "leads",
  "meetings",
  "sources",
  "texts",
  "availability",
  "consultants",
  "privacy",
  "security",
  "audit",
] as const;
const PATH = (key: string) => `/admin/${key}`;

/** The navigation as shown at this width (the side bar, or the phone's menu once open). */
const nav = (page: Page, lang: Lang = "en") =>
  page.getByRole("navigation", { name: COPY[lang].admin.layout.nav.label });

/** Every link of the navigation, in order, for an admin. */
const adminLinks = (lang: Lang) => {
  const n = COPY[lang].admin.layout.nav;
  return [...PAGES.map((key) => n[key]), n.factors, n.backToWebsite];
};

async function signedIn(browser: Browser, baseURL: string, who: { username: string; password: string }, lang: Lang) {
  const context = await browser.newContext({ baseURL });
  await skipSplash(context);
  await context.addInitScript((language) => localStorage.setItem("admin-language", language), lang);
  expect((await context.request.post("/api/login", { data: who })).status()).toBe(200);
  return context;
}

/** Counts, in every frame from the first, whether a link only an admin may open was shown. */
async function watchAdminLinks(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { adminLinkShown?: boolean };
    w.adminLinkShown = false;
    const look = () => {
      for (const el of document.querySelectorAll("[data-admin-only]"))
        if ((el as HTMLElement).checkVisibility()) w.adminLinkShown = true;
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
}

for (const lang of ["en", "nl", "fa"] as const) {
  test(`every page of the panel has the navigation, in order, its own page marked (${lang})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    const context = await signedIn(browser, baseURL!, ADMIN, lang);
    const page = await context.newPage();
    for (const key of [...PAGES, "factors"] as const) {
      await page.goto(PATH(key));
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      const links = nav(page, lang).getByRole("link");
      await expect(links).toHaveText(adminLinks(lang));
      const current = nav(page, lang).locator('[aria-current="page"]');
      await expect(current).toHaveCount(1);
      await expect(current).toHaveAttribute("href", PATH(key));
      // Seen, not only announced: the current page's link has a background of its own.
      const [marked, other] = await Promise.all(
        [current, links.and(page.locator(":not([aria-current])")).first()].map((l) =>
          l.evaluate((el) => getComputedStyle(el).backgroundColor),
        ),
      );
      expect(marked).not.toBe(other);
      await expect(nav(page, lang).getByRole("button", { name: COPY[lang].admin.layout.nav.logOut })).toBeVisible();
      await expect(nav(page, lang)).toContainText(COPY[lang].admin.common.signedInAs.replace(" {{name}}", ""));
    }
    await context.close();
  });
}

test("the login and invitation pages have no navigation", async ({ page }) => {
  for (const path of ["/admin/login", "/admin/invitation"]) {
    await page.goto(path);
    await expect(page.getByRole("heading").first()).toBeVisible();
    await expect(page.getByRole("navigation")).toHaveCount(0);
    await expect(page.locator("[data-admin-menu]")).toHaveCount(0);
  }
});

for (const lang of ["en", "nl", "fa"] as const) {
  test(`desktop (${lang}): a side bar at the start, on the right in Persian; axe finds nothing`, async ({
    browser,
    baseURL,
  }) => {
    // The Leads page holds every lead the run's other specs made by then, and axe reads all of it.
    test.setTimeout(180_000);
    const context = await signedIn(browser, baseURL!, ADMIN, lang);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/admin/leads");
    await expect(nav(page, lang).getByRole("link", { name: COPY[lang].admin.layout.nav.audit })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
    const bar = (await nav(page, lang).boundingBox())!;
    const main = (await page.locator("main").boundingBox())!;
    if (lang === "fa") expect(bar.x).toBeGreaterThanOrEqual(main.x + main.width - 1);
    else expect(bar.x + bar.width).toBeLessThanOrEqual(main.x + 1);
    await expect(page.locator("[data-admin-menu]")).toBeHidden();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await expectNoViolations(page);
    await keepScreenshot(page, { path: test.info().outputPath(`shell-${lang}-1280.png`) });
    await context.close();
  });
}

for (const lang of ["en", "nl", "fa"] as const) {
  test(`phone (${lang}): the menu opens by keyboard, every link is reached with Tab, nothing overflows`, async ({
    browser,
    baseURL,
  }) => {
    const n = COPY[lang].admin.layout.nav;
    const context = await signedIn(browser, baseURL!, ADMIN, lang);
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/admin/meetings");
    await expect(page.getByRole("heading", { level: 1, name: COPY[lang].admin.layout.titles.meetings })).toBeVisible();
    // Closed: one line under the header, naming the page.
    await expect(nav(page, lang)).toBeHidden();
    const summary = page.locator("[data-admin-menu] > summary");
    await expect(summary).toContainText(n.menu);
    await expect(summary).toContainText(n.meetings);
    expect((await summary.boundingBox())!.height).toBeLessThanOrEqual(60);
    await keepScreenshot(page, { path: test.info().outputPath(`shell-${lang}-390-closed.png`) });

    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(nav(page, lang)).toBeVisible();
    for (const name of adminLinks(lang)) {
      await page.keyboard.press("Tab");
      // The log-out button sits between the sign-in methods and the website.
      if (name === n.backToWebsite) {
        await expect(page.getByRole("button", { name: n.logOut })).toBeFocused();
        await page.keyboard.press("Tab");
      }
      const link = nav(page, lang).getByRole("link", { name, exact: true });
      await expect(link).toBeFocused();
      await expect(link).toBeInViewport();
    }
    await expect(nav(page, lang).locator('[aria-current="page"]')).toHaveAttribute("href", "/admin/meetings");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // No word of the menu is wider than its link (long Dutch words wrap inside, never past the edge).
    const overflowing = await nav(page, lang)
      .locator("a, button")
      .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
    expect(overflowing).toEqual([]);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await expectNoViolations(page);
    await keepScreenshot(page, { path: test.info().outputPath(`shell-${lang}-390-open.png`), fullPage: true });
    // Escape is the browser's own; a second Enter on the summary closes it again.
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(nav(page, lang)).toBeHidden();
    await context.close();
  });
}

test("an editor is shown their pages only, never an admin's, not even for a frame", async ({ browser, baseURL }) => {
  const admin = await browser.newContext({ baseURL });
  expect((await admin.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  const username = `shell${uniqueTag()}`;
  const password = await inviteAccount(admin.request, ADMIN.password, { username, role: "editor" }, baseURL!);
  await admin.close();

  const context = await browser.newContext({ baseURL });
  await watchAdminLinks(context);
  const page = await context.newPage();
  // Signed in through the form, in the tab an admin may have used before: nothing of theirs is remembered.
  await page.goto("/admin/login");
  await page.evaluate(() => sessionStorage.setItem("admin-nav-role", "admin"));
  await page.reload();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/admin\/texts/);
  const n = en.admin.layout.nav;
  await expect(nav(page).getByRole("link")).toHaveText([n.texts, n.security, n.factors, n.backToWebsite]);
  await expect(nav(page)).toContainText(`Signed in as ${username}`);
  for (const path of ["/admin/security", "/admin/factors", "/admin/leads"]) {
    await page.goto(path);
    await expect(nav(page).getByRole("link")).toHaveText([n.texts, n.security, n.factors, n.backToWebsite]);
  }
  expect(await page.evaluate(() => (window as unknown as { adminLinkShown: boolean }).adminLinkShown)).toBe(false);
  await context.close();
});

test("an admin's links are there from the first paint of the next page", async ({ browser, baseURL }) => {
  const context = await signedIn(browser, baseURL!, ADMIN, "en");
  const page = await context.newPage();
  await page.goto("/admin/texts");
  await expect(nav(page).getByRole("link", { name: "Leads" })).toBeVisible();
  // The next page, its session answer held back until the links have shown: they show without it.
  const release = await holdRequests(page, "**/api/user");
  await page.goto("/admin/audit", { waitUntil: "domcontentloaded" });
  await expect(nav(page).getByRole("link", { name: "Leads" })).toBeVisible();
  release();
  await context.close();
});

test("the old dashboard's addresses open the right list with their filters", async ({ browser, baseURL }) => {
  const context = await signedIn(browser, baseURL!, ADMIN, "en");
  const page = await context.newPage();
  await page.goto("/admin/submissions?tab=meetings&q=ada%40example.com&status=pending");
  await expect(page).toHaveURL(/\/admin\/meetings\?q=ada%40example\.com&status=pending$/);
  await expect(page.getByRole("heading", { level: 1, name: "Meetings" })).toBeVisible();
  await expect(page.locator("main input[type=search]")).toHaveValue("ada@example.com");
  await expect(nav(page).locator('[aria-current="page"]')).toHaveAttribute("href", "/admin/meetings");

  await page.goto("/admin/submissions?q=leila%40example.com");
  await expect(page).toHaveURL(/\/admin\/leads\?q=leila%40example\.com$/);
  await expect(page.locator("main input[type=search]")).toHaveValue("leila@example.com");

  await page.goto("/admin/?tab=meetings&when=upcoming");
  await expect(page).toHaveURL(/\/admin\/meetings\?when=upcoming$/);
  await context.close();
});
