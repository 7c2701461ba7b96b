import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { hydrated, scrollSettled, skipSplash, topOf } from "./helpers";

/** The splash screen (2.5 s) and arrival with a hash (the anchor 80 px below the top, after 100 ms). */

/** Whether the element at the centre of the viewport belongs to the splash, i.e. the splash covers the page. */
const splashCovers = (page: Page) =>
  page.evaluate(() => !!document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.closest("#splash"));

test.describe("splash", () => {
  /** Stops time before the page loads, so the splash timers (set by the head script) only run on runFor. */
  async function freezeClock(page: Page) {
    const t0 = new Date("2026-01-05T09:00:00Z").getTime();
    await page.clock.install({ time: t0 });
    await page.clock.pauseAt(t0 + 1000);
  }
  const opacity = (page: Page) => page.locator("#splash").evaluate((el) => Number(getComputedStyle(el).opacity));

  test("shows on the first page view, covering the page, and is gone after 2.5 s", async ({ page }) => {
    await freezeClock(page);
    await page.goto("/en/");
    const splash = page.locator("#splash");
    await expect(splash).toBeVisible();
    await expect(splash).toContainText("Global Business Solutions");
    expect(await splashCovers(page)).toBe(true);

    await page.clock.runFor(2450);
    await expect(splash).toBeVisible();
    expect(await splashCovers(page)).toBe(true);
    await expect(page.locator("html")).not.toHaveClass(/splash-done/);

    // Dismissed at 2.5 s: it lets clicks through at once and is removed after its fade-out.
    await page.clock.runFor(50);
    await expect(page.locator("html")).toHaveClass(/splash-done/);
    expect(await splashCovers(page)).toBe(false);
    await page.clock.runFor(450);
    await expect(splash).toBeHidden();
    await expect(page.locator("h1")).toBeVisible();
  });

  test("fades out when dismissed at 2.5 s (no opaque overlay left over the page)", async ({ page }) => {
    await freezeClock(page);
    await page.goto("/en/");
    // Let the 0.4 s fade-in finish (CSS animations run on real time).
    await expect.poll(() => opacity(page)).toBe(1);
    await page.clock.runFor(2500);
    await expect(page.locator("html")).toHaveClass(/splash-done/);
    // The page beneath is clickable from now on, so the overlay must be seen to go: its 0.35 s fade
    // brings the opacity to 0 before the element is removed at 2.9 s.
    await expect
      .poll(() => opacity(page), { message: "splash opacity after dismissal", timeout: 2000 })
      .toBeLessThan(0.05);
  });

  test("is not shown again on the next page view in the same session", async ({ page }) => {
    // The clock stands still, so the splash is still up when a slow machine has loaded the page.
    await freezeClock(page);
    await page.goto("/en/");
    await expect(page.locator("#splash")).toBeVisible();
    await page.goto("/en/startup-visa");
    await expect(page.locator("html")).not.toHaveClass(/(^|\s)splash(\s|$)/);
    await expect(page.locator("#splash")).toBeHidden();
    expect(await splashCovers(page)).toBe(false);
    // …and a reload of the first page does not bring it back either.
    await page.goto("/en/");
    await expect(page.locator("#splash")).toBeHidden();
  });

  test("is not shown with JavaScript disabled, and the page is readable", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    for (const path of ["/en/", "/fa/startup-visa"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.locator("#splash")).toBeHidden();
      await expect(page.locator("h1")).toBeVisible();
      await expect(page.locator("main")).toBeVisible();
      expect(await splashCovers(page)).toBe(false);
    }
    // The unprefixed page cannot redirect without JavaScript: it shows its English content.
    await page.goto("/");
    await expect(page.locator("h1")).toBeVisible();
    await context.close();
  });
});

test.describe("arrival with a hash", () => {
  test.beforeEach(async ({ context }) => {
    await skipSplash(context);
  });

  test("/en/#testimonials ends with the section 80 px below the viewport top", async ({ page }) => {
    await page.goto("/en/#testimonials");
    await scrollSettled(page);
    await expect.poll(async () => Math.abs((await topOf(page, "testimonials")) - 80)).toBeLessThanOrEqual(4);
    await scrollSettled(page);
    expect(Math.abs((await topOf(page, "testimonials")) - 80)).toBeLessThanOrEqual(4);
  });

  test("/en/startup-visa#contact-form ends with the form 80 px below the viewport top", async ({ page }) => {
    await page.goto("/en/startup-visa#contact-form");
    await scrollSettled(page);
    await expect.poll(async () => Math.abs((await topOf(page, "contact-form")) - 80)).toBeLessThanOrEqual(4);
  });
  // The sections after the first are laid out only near the viewport (content-visibility), each
  // guessed at 900 px until then: a jump across several of them must still land on its target.
  for (const [path, id, width] of [
    ["/en/", "contact", 390],
    ["/fa/", "team", 390],
    ["/nl/", "contact", 1280],
  ] as const) {
    test(`${path}#${id} at ${width} px lands 80 px below the top, across the sections laid out later`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${path}#${id}`);
      await scrollSettled(page);
      await expect.poll(async () => Math.abs((await topOf(page, id)) - 80)).toBeLessThanOrEqual(4);
    });
  }

  test("a click on the menu's Contact link lands on the form's section, 80 px below the top", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/en/");
    await page.locator('header a[href="/en/#contact"]').first().click();
    await scrollSettled(page);
    await expect.poll(async () => Math.abs((await topOf(page, "contact")) - 80)).toBeLessThanOrEqual(4);
  });

  test("a hash that is not a valid escape (#%E0) is ignored without a script error", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto("/en/#%E0");
    await scrollSettled(page);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    expect(errors).toEqual([]);
  });
});

test.describe("reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  test.beforeEach(async ({ context }) => {
    await skipSplash(context);
  });

  test("the carousel does not autoplay", async ({ page }) => {
    await page.clock.install();
    await page.goto("/en/");
    const carousel = page.locator("#testimonials [aria-roledescription=carousel]");
    await carousel.scrollIntoViewIfNeeded();
    await hydrated(page, "TestimonialCarousel");
    const dots = carousel.locator("ul[role=list] > li > button");
    await expect(dots.first()).toHaveAttribute("aria-current", "true");
    // The control offers to start it, so it is stopped.
    await expect(carousel.getByRole("button", { name: "Resume automatic scrolling" })).toBeVisible();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    const firstSlide = carousel.locator(".swiper-slide").first();
    const before = await firstSlide.boundingBox();
    await page.clock.runFor(13_000);
    await expect(dots.first()).toHaveAttribute("aria-current", "true");
    expect(await firstSlide.boundingBox()).toEqual(before);
  });
});
