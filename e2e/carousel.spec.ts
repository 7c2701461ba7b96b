import type { Page } from "@playwright/test";
import { devices } from "@playwright/test";
import { expect, test } from "./test";
import testimonials from "../src/data/testimonials.json" with { type: "json" };
import { CAROUSEL } from "../src/data/carousel";
import { frames, hydrated, skipSplash } from "./helpers";

/**
 * The testimonial carousel: 6000 ms autoplay, 50 px swipe, breakpoints 768/1024.
 * The number of testimonials and what each card shows come from src/data/testimonials.json, so an
 * editor who adds one does not break these tests.
 */
const count = testimonials.length;
/** Slides visible in group `g` when `perView` are shown: the last group ends with the last slide. */
const groupSlides = (g: number, perView: number) => {
  const start = Math.min(g * perView, count - perView);
  return Array.from({ length: perView }, (_, i) => start + i);
};
const groupsOf = (perView: number) => Math.ceil(count / perView);

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

const carousel = (page: Page) => page.locator("#testimonials [aria-roledescription=carousel]");
const slides = (page: Page) => carousel(page).locator(".swiper-slide");
const dots = (page: Page) => carousel(page).locator("ul[role=list] > li > button");

/**
 * Opens a page, brings the testimonials into view (the island hydrates when visible) and waits for React.
 * Unless `autoplay` is kept, it then presses the carousel's pause control, so a slow machine cannot see
 * an automatic move in the middle of a test about something else.
 */
async function openCarousel(page: Page, path = "/en/", { autoplay = false } = {}) {
  await page.goto(path);
  await page.locator("#testimonials").scrollIntoViewIfNeeded();
  await carousel(page).scrollIntoViewIfNeeded();
  await hydrated(page, "TestimonialCarousel");
  await expect(dots(page).first()).toBeVisible();
  if (!autoplay) {
    const toggle = carousel(page).locator("ul[role=list] + button");
    const pauseLabel = (await toggle.getAttribute("aria-label"))!;
    await toggle.click();
    await expect(toggle).not.toHaveAttribute("aria-label", pauseLabel);
  }
}

/** Indices (0-based, document order) of the slides whose box lies fully inside the carousel's viewport. */
const visibleSlides = (page: Page) =>
  carousel(page)
    .locator(".swiper")
    .evaluate((viewport) => {
      const box = viewport.getBoundingClientRect();
      return [...viewport.querySelectorAll(".swiper-slide")].flatMap((slide, i) => {
        const r = slide.getBoundingClientRect();
        return r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1 ? [i] : [];
      });
    });

/** Index of the dot marked current. */
const activeDot = (page: Page) =>
  dots(page).evaluateAll((buttons) => buttons.findIndex((b) => b.getAttribute("aria-current") === "true"));

async function expectGroup(page: Page, dot: number, visible: number[]) {
  await expect.poll(() => activeDot(page), { intervals: [50, 100] }).toBe(dot);
  await expect.poll(() => visibleSlides(page), { intervals: [50, 100] }).toEqual(visible);
}

/** Drags with the mouse over the slides by `dx` pixels (negative: to the left). */
async function drag(page: Page, dx: number) {
  const box = (await carousel(page).locator(".swiper").boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 3 });
  await page.mouse.move(x + dx, y, { steps: 3 });
  await page.mouse.up();
}

const layouts = [
  { width: 1440, perView: 3 },
  { width: 900, perView: 2 },
  { width: 390, perView: 1 },
].map((l) => ({ ...l, groups: groupsOf(l.perView) }));

for (const { width, perView, groups } of layouts) {
  test(`at ${width} px: ${perView} card(s) visible, ${groups} dots, height 450 px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await openCarousel(page);
    await expect(slides(page)).toHaveCount(count);
    await expect(dots(page)).toHaveCount(groups);
    await expectGroup(
      page,
      0,
      Array.from({ length: perView }, (_, i) => i),
    );
    const height = await slides(page)
      .first()
      .evaluate((el) => el.getBoundingClientRect().height);
    expect(Math.round(height)).toBe(450);
    // Dots are read out as groups and the current one is marked.
    await expect(dots(page).first()).toHaveAttribute("aria-label", "Show testimonials group 1");
    await expect(dots(page).first()).toHaveAttribute("aria-current", "true");
  });
}

test("arrows are visible at 1440 px and move between groups", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openCarousel(page);
  const next = carousel(page).getByRole("button", { name: "Next testimonials" });
  const previous = carousel(page).getByRole("button", { name: "Previous testimonials" });
  await expect(next).toBeVisible();
  await expect(previous).toBeVisible();
  await next.click();
  await expectGroup(page, 1, groupSlides(1, 3));
});

test("arrows are hidden at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openCarousel(page);
  await expect(carousel(page).getByRole("button", { name: "Next testimonials" })).toBeHidden();
  await expect(carousel(page).getByRole("button", { name: "Previous testimonials" })).toBeHidden();
});

test("clicking a dot shows that group", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openCarousel(page);
  const last = groupsOf(3) - 1;
  await dots(page).nth(last).click();
  await expectGroup(page, last, groupSlides(last, 3));
  await expect(dots(page).nth(last)).toHaveAttribute("aria-current", "true");
  await expect(dots(page).nth(0)).not.toHaveAttribute("aria-current");
  await expect(slides(page).nth(count - 1)).toContainText(testimonials[count - 1].author.en);
});

test("a move locks the carousel for 500 ms; a tap on the dot already shown is no move and locks nothing", async ({
  page,
}) => {
  await page.clock.install();
  await page.setViewportSize({ width: 1440, height: 900 });
  await openCarousel(page);
  // The page's clock stands still from here: only runFor moves it, so every tap below falls where
  // the test says, however long the machine takes between two taps.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  await dots(page).nth(0).click();
  await dots(page).nth(1).click();
  await expectGroup(page, 1, groupSlides(1, 3));
  const next = carousel(page).getByRole("button", { name: "Next testimonials" });
  await dots(page).nth(2).click();
  await page.clock.runFor(CAROUSEL.lockMs - 1);
  await next.click();
  expect(await activeDot(page), "taps within the lock do nothing").toBe(1);
  // Had either tap moved, Next would now wrap to the first group.
  await page.clock.runFor(1);
  await next.click();
  await expectGroup(page, 2, groupSlides(2, 3));
});

test("autoplay advances every 6 s and wraps from the last group to the first", async ({ page }) => {
  await page.clock.install();
  await page.setViewportSize({ width: 1440, height: 900 });
  await openCarousel(page, "/en/", { autoplay: true });
  // Stop the clock shortly after hydration: from then on only runFor moves time.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1500);
  await expectGroup(page, 0, groupSlides(0, 3));

  // The first timer started at hydration, an unknown (on a loaded machine, long) while before the
  // pause: step the clock until the first move, which comes within 6 s. The 6 s between moves is
  // then checked exactly from one move to the next.
  for (let ran = 0; ran < 6000 && (await activeDot(page)) === 0; ran += 250) await page.clock.runFor(250);
  await expectGroup(page, 1, groupSlides(1, 3));

  // The next timer starts once the 500 ms move has finished. CSS transitions run on real time,
  // which the fake clock does not control, so let the move end before running the clock on.
  for (let group = 2; group < groupsOf(3); group++) {
    await page.waitForTimeout(800);
    await page.clock.runFor(5000);
    await expectGroup(page, group - 1, groupSlides(group - 1, 3));
    await page.clock.runFor(1500);
    await expectGroup(page, group, groupSlides(group, 3));
  }

  // From the last group it wraps to the first.
  await page.waitForTimeout(800);
  await page.clock.runFor(6500);
  await expectGroup(page, 0, groupSlides(0, 3));
});

test("swipe in English: a drag of more than 50 px to the left advances, 30 px does nothing", async ({ page }) => {
  await openCarousel(page, "/en/");
  await expectGroup(page, 0, groupSlides(0, 3));
  await drag(page, -30);
  await frames(page, 3);
  await expectGroup(page, 0, groupSlides(0, 3));
  await drag(page, -120);
  await expectGroup(page, 1, groupSlides(1, 3));
});

test("swipe in English: a drag to the right goes back (wrapping to the last group)", async ({ page }) => {
  await openCarousel(page, "/en/");
  await drag(page, 120);
  await expectGroup(page, groupsOf(3) - 1, groupSlides(groupsOf(3) - 1, 3));
});

test("swipe in Persian: a drag to the right advances, 30 px does nothing", async ({ page }) => {
  await openCarousel(page, "/fa/");
  await expect(carousel(page).locator(".swiper")).toHaveAttribute("dir", "rtl");
  await expectGroup(page, 0, groupSlides(0, 3));
  await drag(page, 30);
  await frames(page, 3);
  await expectGroup(page, 0, groupSlides(0, 3));
  await drag(page, 120);
  await expectGroup(page, 1, groupSlides(1, 3));
});

const cards = testimonials.map((t) => ({ author: t.author.en, rating: t.rating }));

test("each card shows author, company, LinkedIn link, rating label and its stars", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openCarousel(page);
  await expect(slides(page)).toHaveCount(cards.length);
  // Visit every group (with seven cards: 1-3, 4-6, 5-7) and check the cards as they are shown.
  for (let group = 0; group < groupsOf(3); group++) {
    const shown = groupSlides(group, 3);
    // The move before locks the carousel for 500 ms: a quick machine checks three cards in less.
    if (group > 1) await page.waitForTimeout(CAROUSEL.lockMs);
    await dots(page).nth(group).click();
    await expectGroup(page, group, shown);
    for (const i of shown) {
      const card = cards[i];
      const slide = slides(page).nth(i);
      const caption = slide.locator("figcaption");
      await expect(caption.getByText(card.author, { exact: true })).toBeVisible();
      const company = caption.locator("span.block").nth(1);
      await expect(company).toBeVisible();
      expect((await company.innerText()).trim().length, `company of ${card.author}`).toBeGreaterThan(1);
      const linkedin = caption.getByRole("link");
      await expect(linkedin).toBeVisible();
      await expect(linkedin).toHaveAttribute("href", /^https:\/\/(www\.)?linkedin\.com\//);
      await expect(linkedin).toHaveAttribute("target", "_blank");
      await expect(linkedin).toHaveAttribute("rel", /\bnoopener\b/);
      await expect(linkedin).toHaveAccessibleName(new RegExp(card.author));
      const rating = slide.getByRole("img", { name: `Rated ${card.rating} out of 5` });
      await expect(rating).toBeVisible();
      await expect(rating.locator("svg")).toHaveCount(5);
      await expect(rating.locator('path[fill="#f59e0b"]'), `filled stars of ${card.author}`).toHaveCount(card.rating);
      await expect(slide.locator("blockquote")).toBeVisible();
      await expect(slide.locator("blockquote")).not.toBeEmpty();
    }
  }
});

/** A finger's swipe over the slides by `dx` pixels, as real touch events (CDP), in ten steps. */
async function touchSwipe(page: Page, dx: number) {
  const box = (await carousel(page).locator(".swiper").boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const cdp = await page.context().newCDPSession(page);
  const point = (px: number) => [{ x: px, y, id: 1, radiusX: 8, radiusY: 8, force: 1 }];
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: point(x) });
  for (let i = 1; i <= 10; i++)
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: point(x + (dx * i) / 10) });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

test.describe("on a phone, after autoplay has moved on", () => {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = devices["Pixel 7"];
  test.use({ viewport, userAgent, deviceScaleFactor, isMobile, hasTouch });
  // The finding (issue 41): a swipe back did not bring the previous card within 2.5 s in 7 of 8 tries
  // in English, 1 of 5 in Persian. Each language tries five times here, each after an automatic move.
  for (const [path, back] of [
    ["/en/", 120],
    ["/fa/", -120],
  ] as const) {
    test(`${path}: a swipe back shows the card before, every time`, async ({ page }) => {
      await page.clock.install();
      await openCarousel(page, path, { autoplay: true });
      // A swipe at several moments after the automatic move: during its 500 ms transition and after.
      for (const delay of [0, 300, 1000]) {
        const before = await activeDot(page);
        for (let ran = 0; ran < 7000 && (await activeDot(page)) === before; ran += 250) await page.clock.runFor(250);
        expect(await activeDot(page), `${delay} ms: autoplay moved on`).not.toBe(before);
        await page.waitForTimeout(delay);
        await touchSwipe(page, back);
        await expect.poll(() => activeDot(page), { timeout: 2500, message: `${delay} ms after the move` }).toBe(before);
        // Let the move back end (its transition runs on real time) before the clock runs on.
        await page.waitForTimeout(600);
      }
    });
  }
});
