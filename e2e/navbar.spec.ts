import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { LANGUAGE_COOKIE, scrollSettled, skipSplash, topOf } from "./helpers";

/**
 * The navigation bar: its dropdowns and the language change. The navbar is static HTML
 * (native <details> dropdowns and the page's inline controls script), so nothing waits for an island.
 */

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

const nav = (page: Page) => page.locator("header nav");
/** The desktop link list (hidden below 1280 px). */
const desktopList = (page: Page) => nav(page).locator(":scope > ul");
const servicesDropdown = (page: Page) => desktopList(page).locator("details");
const languageDropdown = (page: Page) => nav(page).locator("details:has(a[hreflang])");
/** The menu toggle's <details> (shown below 1280 px), the last one in the bar. */
const mobileMenu = (page: Page) => nav(page).locator(":scope > details").last();
/** The highlight colour of the current entry (brand-700). */
const HIGHLIGHT = "rgb(26, 69, 148)";

/** Whether a <details> dropdown is open as the visitor sees it: its panel is shown. */
async function expectOpen(dropdown: Locator, open: boolean) {
  if (open) {
    await expect(dropdown).toHaveAttribute("open", "");
    await expect(dropdown.locator("a").first()).toBeVisible();
  } else {
    await expect(dropdown).not.toHaveAttribute("open");
    await expect(dropdown.locator("a").first()).toBeHidden();
  }
}

/** Makes navigation to `pattern` answer 204 No Content: the browser stays on the page, so what the click did to the page stays observable. */
async function stayOnPage(page: Page, pattern: string | RegExp) {
  const hits: string[] = [];
  await page.route(pattern, (route) => {
    hits.push(route.request().url());
    return route.fulfill({ status: 204 });
  });
  return hits;
}

/** Records window.scrollY on every frame, to tell a smooth scroll (many intermediate positions) from a jump. */
async function recordScroll(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __ys: number[] };
    w.__ys = [];
    const tick = () => {
      w.__ys.push(window.scrollY);
      if (w.__ys.length < 600) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return async () => page.evaluate(() => (window as unknown as { __ys: number[] }).__ys);
}

test.describe("desktop (1280 px)", () => {
  test("Home is highlighted on /en/, Services is not", async ({ page }) => {
    await page.goto("/en/");
    const home = desktopList(page).getByRole("link", { name: "Home", exact: true });
    await expect(home).toHaveAttribute("aria-current", "page");
    await expect(home).toHaveCSS("color", HIGHLIGHT);
    const about = desktopList(page).getByRole("link", { name: "About" });
    await expect(about).not.toHaveAttribute("aria-current");
    await expect(about).not.toHaveCSS("color", HIGHLIGHT);
    await expect(servicesDropdown(page).locator("summary > span")).not.toHaveCSS("color", HIGHLIGHT);
  });

  for (const [path, name] of [
    ["/en/startup-visa", "Startup Visa"],
    ["/en/business-launchpad", "Business Launchpad"],
    ["/en/startup-studio", "Startup Studio"],
  ] as const) {
    test(`Services is highlighted on ${path}, Home is not`, async ({ page }) => {
      await page.goto(path);
      await expect(servicesDropdown(page).locator("summary > span")).toHaveCSS("color", HIGHLIGHT);
      await expect(servicesDropdown(page)).toHaveCSS("background-color", "rgb(239, 246, 255)");
      await expect(desktopList(page).getByRole("link", { name: "Home", exact: true })).not.toHaveAttribute(
        "aria-current",
      );
      await servicesDropdown(page).locator("summary").click();
      await expect(servicesDropdown(page).getByRole("link", { name })).toHaveAttribute("aria-current", "page");
    });
  }

  test("services dropdown: opens on click, closes on an outside click", async ({ page }) => {
    await page.goto("/en/");
    const dropdown = servicesDropdown(page);
    await expectOpen(dropdown, false);
    await dropdown.locator("summary").click();
    await expectOpen(dropdown, true);
    await expect(dropdown.getByRole("link")).toHaveText(["Startup Visa", "Business Launchpad", "Startup Studio"]);
    await page.locator("main h1").click();
    await expectOpen(dropdown, false);
  });

  test("services dropdown: Escape closes it and returns focus to its summary", async ({ page }) => {
    await page.goto("/en/");
    const dropdown = servicesDropdown(page);
    await dropdown.locator("summary").click();
    await page.keyboard.press("Tab");
    await expect(dropdown.getByRole("link", { name: "Startup Visa" })).toBeFocused();
    await expectOpen(dropdown, true);
    await page.keyboard.press("Escape");
    await expectOpen(dropdown, false);
    await expect(dropdown.locator("summary")).toBeFocused();
  });

  test("services dropdown: choosing an entry closes it and goes to that page", async ({ page }) => {
    await page.goto("/en/");
    const hits = await stayOnPage(page, "**/en/business-launchpad");
    const dropdown = servicesDropdown(page);
    await dropdown.locator("summary").click();
    await dropdown.getByRole("link", { name: "Business Launchpad" }).click();
    await expect.poll(() => hits.length).toBe(1);
    await expectOpen(dropdown, false);
    // Without the stub the entry really navigates.
    await page.unrouteAll();
    await dropdown.locator("summary").click();
    await dropdown.getByRole("link", { name: "Business Launchpad" }).click();
    await expect(page).toHaveURL(/\/en\/business-launchpad$/);
  });

  test("language dropdown: opens on click, closes on an outside click and on Escape", async ({ page }) => {
    await page.goto("/en/");
    const dropdown = languageDropdown(page);
    const summary = dropdown.locator("summary");
    await expect(summary).toContainText("EN");
    await summary.click();
    await expectOpen(dropdown, true);
    await expect(dropdown.getByRole("link")).toHaveCount(3);
    await expect(dropdown.locator("a[aria-current=true]")).toHaveAttribute("hreflang", "en");
    await page.locator("main h1").click();
    await expectOpen(dropdown, false);

    await summary.click();
    await expectOpen(dropdown, true);
    await page.keyboard.press("Escape");
    await expectOpen(dropdown, false);
    await expect(summary).toBeFocused();
  });

  test("opening one dropdown closes the other", async ({ page }) => {
    await page.goto("/en/");
    await servicesDropdown(page).locator("summary").click();
    await expectOpen(servicesDropdown(page), true);
    await languageDropdown(page).locator("summary").click();
    await expectOpen(languageDropdown(page), true);
    await expectOpen(servicesDropdown(page), false);
  });

  test("language dropdown: choosing an entry closes it", async ({ page }) => {
    await page.goto("/en/");
    const hits = await stayOnPage(page, "**/nl/");
    const dropdown = languageDropdown(page);
    await dropdown.locator("summary").click();
    await dropdown.locator("a[hreflang=nl]").click();
    await expect.poll(() => hits.length).toBe(1);
    await expectOpen(dropdown, false);
  });

  test("About on the home page scrolls smoothly to #about without leaving the page", async ({ page }) => {
    await page.goto("/en/");
    const before = await page.evaluate(() => window.scrollY);
    const positions = await recordScroll(page);
    await desktopList(page).getByRole("link", { name: "About" }).click();
    await scrollSettled(page);
    expect(new URL(page.url()).pathname).toBe("/en/");
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(before + 200);
    expect(Math.abs((await topOf(page, "about")) - 80)).toBeLessThanOrEqual(4);
    const ys = await positions();
    const end = ys[ys.length - 1];
    // A jump goes straight from the start to the end; a smooth scroll passes through positions in between.
    const intermediate = new Set(ys.filter((y) => y > before + 1 && y < end - 1));
    expect(intermediate.size, `scroll positions per frame: ${ys.join(",")}`).toBeGreaterThanOrEqual(1);
  });

  test("About on /en/startup-visa navigates to /en/#about", async ({ page }) => {
    await page.goto("/en/startup-visa");
    await desktopList(page).getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/en\/#about$/);
    await scrollSettled(page);
    await expect.poll(() => topOf(page, "about")).toBeGreaterThanOrEqual(76);
    expect(await topOf(page, "about")).toBeLessThanOrEqual(84);
  });

  test("'Get started' leads to the contact form", async ({ page }) => {
    await page.goto("/en/");
    await nav(page).getByRole("link", { name: "Get started" }).and(page.locator(":visible")).click();
    await expect(page).toHaveURL(/\/en\/#contact-form$/);
    await scrollSettled(page);
    await expect(page.locator("#contact-form")).toBeInViewport();
  });

  test("language switch keeps the page and hash: /en/startup-visa#process → /fa/startup-visa#process", async ({
    page,
    context,
  }) => {
    await page.goto("/en/startup-visa#process");
    const dropdown = languageDropdown(page);
    await dropdown.locator("summary").click();
    await dropdown.locator("a[hreflang=fa]").click();
    await expect(page).toHaveURL(/\/fa\/startup-visa#process$/);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("html")).toHaveAttribute("lang", "fa");
    expect((await context.cookies()).find((c) => c.name === LANGUAGE_COOKIE)?.value).toBe("fa");
    await expect(languageDropdown(page).locator("summary")).toContainText("FA");
  });
});

test.describe("mobile (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the menu toggle opens a panel with the same entries; choosing one closes it", async ({ page }) => {
    await page.goto("/en/");
    await expect(desktopList(page)).toBeHidden();
    const menu = mobileMenu(page);
    const toggle = menu.locator("summary");
    await expect(toggle).toBeVisible();
    await expectOpen(menu, false);

    await toggle.tap();
    await expectOpen(menu, true);
    const hrefs = (list: Locator) => list.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    const expected = await hrefs(desktopList(page));
    expect(expected).toEqual([
      "/en/",
      "/en/startup-visa",
      "/en/business-launchpad",
      "/en/startup-studio",
      "/en/#about",
      "/en/#testimonials",
      "/en/#team",
      "/en/#contact",
    ]);
    expect(await hrefs(menu)).toEqual(expected);
    const texts = (list: Locator) => list.locator("a").evaluateAll((as) => as.map((a) => a.textContent?.trim()));
    expect(await texts(menu)).toEqual(await texts(desktopList(page)));
    for (const link of await menu.locator("a").all()) await expect(link).toBeVisible();
    await expect(menu.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");

    await menu.getByRole("link", { name: "Testimonials" }).tap();
    await expectOpen(menu, false);
    await expect(page).toHaveURL(/\/en\/#testimonials$/);
    await scrollSettled(page);
    expect(Math.abs((await topOf(page, "testimonials")) - 80)).toBeLessThanOrEqual(4);
  });

  test("the menu closes on a tap outside it", async ({ page }) => {
    await page.goto("/en/startup-visa");
    const menu = mobileMenu(page);
    await menu.locator("summary").tap();
    await expectOpen(menu, true);
    // Below the panel: a spot in the page content that is not a link.
    await page.touchscreen.tap(195, 830);
    await expectOpen(menu, false);
    await expect(page).toHaveURL(/\/en\/startup-visa$/);
  });

  test("'Get started' (icon) leads to the contact form", async ({ page }) => {
    await page.goto("/en/startup-visa");
    const button = nav(page).getByRole("link", { name: "Get started" }).and(page.locator(":visible"));
    await expect(button).toHaveText("");
    await button.tap();
    await expect(page).toHaveURL(/\/en\/startup-visa#contact-form$/);
    await scrollSettled(page);
    await expect(page.locator("#contact-form")).toBeInViewport();
  });
});
