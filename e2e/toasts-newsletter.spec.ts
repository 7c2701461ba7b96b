import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import { hydrated, skipSplash, toasts, uniqueTag } from "./helpers";

/**
 * Notifications (one at a time, 5000 ms, 50 px swipe to the right, F8) and the
 * footer newsletter signup (valid email, the same message; subscribing twice is fine).
 */

const LOCALES = { en, nl, fa } as const;
type Lang = keyof typeof LOCALES;

const region = (page: Page) => page.locator("section[data-toast-region]");
const newsletterEmail = (page: Page) => page.locator("#newsletter-email");
const newsletterSubmit = (page: Page) => page.locator("form[aria-labelledby=newsletter-title] button[type=submit]");

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

/** Opens `/{lang}/` and scrolls to the footer, where the newsletter form hydrates (client:visible). */
async function openNewsletter(page: Page, lang: Lang) {
  await page.goto(`/${lang}/`);
  await page.locator("footer").scrollIntoViewIfNeeded();
  await newsletterEmail(page).scrollIntoViewIfNeeded();
  await hydrated(page, "NewsletterForm");
}

/** Subscribes `email` through the form and returns what was posted and the answer's status. */
async function subscribe(page: Page, email: string) {
  await newsletterEmail(page).fill(email);
  const [request, response] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith("/api/newsletter") && r.method() === "POST"),
    page.waitForResponse((r) => r.url().endsWith("/api/newsletter")),
    newsletterSubmit(page).click(),
  ]);
  return { body: request.postDataJSON() as { email: string; language: string }, status: response.status() };
}

/** Counts, from inside the page, the most toasts ever on screen at once. */
async function watchToastCount(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __maxToasts: number };
    w.__maxToasts = 0;
    new MutationObserver(() => {
      w.__maxToasts = Math.max(
        w.__maxToasts,
        document.querySelectorAll("section[data-toast-region] [data-variant]").length,
      );
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { __maxToasts: number }).__maxToasts);
}

test.describe("toasts", () => {
  // These tests answer the newsletter post themselves, some on a clock they drive: its form token
  // is answered too, usable at once (the real one is tested in form-guard.spec.ts).
  test.beforeEach(async ({ page }) => {
    await page.route("**/api/form-token", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({ success: true, token: "test", validInMs: 0, expiresInMs: 7_200_000 }),
      }),
    );
  });

  test("F8 moves focus to the notifications region, even before any toast", async ({ page }) => {
    await page.goto("/en/");
    await expect(toasts(page)).toHaveCount(0);
    await expect(region(page)).toHaveAttribute("aria-label", en.general.notifications);
    await page.locator("main h1").click();
    await page.keyboard.press("F8");
    await expect(region(page)).toBeFocused();
  });

  test("only one toast at a time: a second replaces the first", async ({ page }) => {
    let calls = 0;
    await page.route("**/api/newsletter", (route) => {
      calls++;
      return calls === 1
        ? route.fulfill({
            status: 201,
            contentType: "application/json",
            body: JSON.stringify({ success: true, message: "Subscribed" }),
          })
        : route.fulfill({
            status: 500,
            contentType: "application/json",
            body: JSON.stringify({ success: false, message: "Internal error" }),
          });
    });
    await openNewsletter(page, "en");
    const maxToasts = await watchToastCount(page);
    await newsletterEmail(page).fill(`one.${uniqueTag()}@example.com`);
    await newsletterSubmit(page).click();
    await expect(toasts(page)).toContainText(en.newsletter.successTitle);
    await newsletterEmail(page).fill(`two.${uniqueTag()}@example.com`);
    await newsletterSubmit(page).click();
    await expect(toasts(page)).toContainText(en.newsletter.errorTitle);
    await expect(toasts(page)).toHaveCount(1);
    await expect(toasts(page)).toHaveAttribute("role", "alert");
    await expect(page.getByText(en.newsletter.successTitle)).toHaveCount(0);
    expect(await maxToasts(), "never more than one toast on screen").toBe(1);
  });

  test("a toast disappears by itself after 5 seconds", async ({ page }) => {
    // The page's clock is driven by the test: after 4.8 s the toast is still there, after 5.1 s it is gone.
    await page.clock.install();
    await page.route("**/api/newsletter", (route) =>
      route.fulfill({ status: 201, contentType: "application/json", body: JSON.stringify({ success: true }) }),
    );
    await openNewsletter(page, "en");
    await newsletterEmail(page).fill(`timer.${uniqueTag()}@example.com`);
    // Stop the page's clock a moment from now, then raise the toast: its 5 s start on the paused clock.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await newsletterSubmit(page).click();
    const toast = toasts(page);
    await expect(toast).toBeVisible();
    await page.clock.runFor(4800);
    await expect(toast).toBeVisible();
    await page.clock.runFor(300);
    await expect(toast).toHaveCount(0);
  });

  /**
   * Raises a success toast through the newsletter form (answered by a stub) and returns it. The
   * page's clock is paused first, so the 5-second timer cannot be what removes it.
   */
  async function raiseToast(page: Page) {
    await page.clock.install();
    await page.route("**/api/newsletter", (route) =>
      route.fulfill({ status: 201, contentType: "application/json", body: JSON.stringify({ success: true }) }),
    );
    await openNewsletter(page, "en");
    await newsletterEmail(page).fill(`swipe.${uniqueTag()}@example.com`);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await newsletterSubmit(page).click();
    await expect(toasts(page)).toBeVisible();
    return toasts(page);
  }

  /** Drags with the mouse from the toast's title `dx` px to the right. */
  async function swipe(page: Page, dx: number) {
    const box = (await toasts(page).locator("p").first().boundingBox())!;
    const [x, y] = [box.x + 10, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx, y, { steps: 6 });
    await page.mouse.up();
  }

  test("swiping a toast more than 50 px to the right with the mouse dismisses it", async ({ page }) => {
    const toast = await raiseToast(page);
    await swipe(page, 90);
    await expect(toast).toHaveCount(0);
  });

  test("a short swipe (under 50 px) leaves the toast; swiping again, further, dismisses it", async ({ page }) => {
    const toast = await raiseToast(page);
    await swipe(page, 30);
    await expect(toast).toBeVisible();
    await expect(toast).not.toHaveCSS("transform", /matrix\(1, 0, 0, 1, [1-9]/);
    await swipe(page, 90);
    await expect(toast).toHaveCount(0);
  });
});

test.describe("newsletter", () => {
  for (const lang of ["en", "nl", "fa"] as const) {
    test(`${lang}: an invalid email shows the message under the field; a valid one subscribes, twice without error`, async ({
      page,
    }) => {
      const t = LOCALES[lang];
      await openNewsletter(page, lang);
      let posts = 0;
      page.on("request", (r) => r.url().endsWith("/api/newsletter") && posts++);

      await newsletterEmail(page).fill("not-an-email");
      await newsletterSubmit(page).click();
      const error = page.locator("#newsletter-error");
      await expect(error).toHaveText(t.contact.validation.email);
      await expect(newsletterEmail(page)).toHaveAttribute("aria-invalid", "true");
      await expect(newsletterEmail(page)).toHaveAttribute("aria-describedby", "newsletter-error");
      const [fieldBox, errorBox] = [await newsletterEmail(page).boundingBox(), await error.boundingBox()];
      expect(errorBox!.y).toBeGreaterThanOrEqual(fieldBox!.y + fieldBox!.height - 1);
      expect(posts, "nothing is sent").toBe(0);
      // Editing clears the message.
      await newsletterEmail(page).pressSequentially("x");
      await expect(error).toHaveCount(0);

      const email = `news.${lang}.${uniqueTag()}@example.com`;
      const first = await subscribe(page, email);
      expect(first).toMatchObject({ body: { email, language: lang }, status: 202 });
      await expect(toasts(page)).toHaveAttribute("role", "status");
      await expect(toasts(page)).toContainText(t.newsletter.successTitle);
      await expect(toasts(page)).toContainText(t.newsletter.successText);
      await expect(newsletterEmail(page)).toHaveValue("");

      // The same address again (after closing the first toast): the same answer, so it tells nothing.
      await toasts(page).getByRole("button", { name: t.general.close }).click();
      await expect(toasts(page)).toHaveCount(0);
      const again = await subscribe(page, email);
      expect(again).toMatchObject({ body: { email, language: lang }, status: 202 });
      await expect(toasts(page)).toHaveCount(1);
      await expect(toasts(page)).toHaveAttribute("role", "status");
      await expect(toasts(page)).toContainText(t.newsletter.successTitle);
    });
  }
});
