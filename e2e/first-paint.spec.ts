import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Page, Route } from "@playwright/test";
import { expect, test } from "./test";
import { simpleParser } from "mailparser";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import { formatDate } from "../src/shared/format";
import { bookableDays, hydrated, skipSplash, toasts, uniqueTag } from "./helpers";

/**
 * A visitor who acts before an island has hydrated (a slow phone): every control does what it
 * says from the first paint. Island scripts are held back on purpose with request interception,
 * the visitor acts, then the script is let through.
 */

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

/** Holds back every request for an island's script until `release()` is called. */
async function holdIsland(page: Page, component: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(new RegExp(`/_astro/${component}\\.[\\w-]+\\.js$`), async (route: Route) => {
    held++;
    await gate;
    await route.continue();
  });
  return { release, held: () => held };
}

const dialog = (page: Page) => page.locator("dialog#booking-dialog");
const scheduleButton = (page: Page, label = en.contact.scheduleButton) =>
  page.locator("#contact-form").getByRole("button", { name: label });

test("Book a meeting: the dialog opens at the first tap, before its script, and becomes usable when it arrives", async ({
  page,
}) => {
  const island = await holdIsland(page, "BookingDialog");
  await page.goto("/en/");
  await scheduleButton(page).scrollIntoViewIfNeeded();
  await scheduleButton(page).click();

  // Open at once, as a modal, with a visible loading state instead of the calendar.
  await expect(dialog(page)).toBeVisible({ timeout: 1000 });
  expect(await dialog(page).evaluate((el) => el.matches(":modal"))).toBe(true);
  await expect(dialog(page).getByRole("heading", { name: en.contact.booking.title })).toBeVisible();
  await expect(dialog(page).getByRole("status")).toHaveText(en.contact.booking.loadingCalendar);
  await expect(dialog(page).locator("button[type=submit]")).toBeDisabled();
  await expect(page.locator('astro-island[component-url*="BookingDialog"]')).toHaveAttribute("ssr", "");

  // The visitor starts typing while the calendar loads; Escape and Cancel work meanwhile too.
  await dialog(page).locator("#bk-name").fill("Early Bird");
  await page.keyboard.press("Escape");
  await expect(dialog(page)).toBeHidden();
  await scheduleButton(page).click();
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).locator("#bk-name")).toHaveValue("Early Bird");

  island.release();
  await hydrated(page, "BookingDialog");
  await expect(dialog(page).locator("[role=grid]")).toBeVisible();
  await expect(dialog(page).locator("td[aria-selected=true] button[data-date]")).toBeVisible();
  await expect(dialog(page).locator("#bk-name"), "text typed before hydration is kept").toHaveValue("Early Bird");
  await dialog(page).getByRole("button", { name: en.contact.booking.cancel }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(scheduleButton(page)).toBeFocused();
});

test("the dialog's code is fetched before the visitor taps, once the contact section comes near", async ({ page }) => {
  const requests: string[] = [];
  page.on("request", (r) => r.url().includes("/_astro/BookingDialog") && requests.push(r.url()));
  await page.goto("/en/");
  await page.waitForLoadState("networkidle");
  expect(requests, "nothing is fetched for a visitor who only reads the top").toEqual([]);
  await page.locator("#team").scrollIntoViewIfNeeded();
  await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
  await hydrated(page, "BookingDialog");
});

test("the dialog starts on the first day that has a free slot, not on a day without any", async ({ page, request }) => {
  // The first bookable day (and any day before the chosen one) answers with no slots; the next
  // bookable day, the chosen one, has some. On a weekend both "today + 0" and "today + 1" lead to
  // Monday, so the chosen day is the second bookable day, whatever the day of the week.
  const [firstBookable, chosen] = await bookableDays(request, 0);
  await page.route("**/api/meetings/available-slots?*", (route) => {
    const date = new URL(route.request().url()).searchParams.get("date")!;
    const data = date >= chosen ? ["10:00", "10:30"] : [];
    return route.fulfill({ contentType: "application/json", body: JSON.stringify({ success: true, data }) });
  });
  await page.goto("/en/");
  await scheduleButton(page).scrollIntoViewIfNeeded();
  await scheduleButton(page).click();
  await expect(dialog(page).locator("td[aria-selected=true] button[data-date]")).toHaveAttribute("data-date", chosen);
  expect(chosen > firstBookable).toBe(true);
  await expect(dialog(page).getByText(en.contact.booking.noSlots)).toHaveCount(0);
  await expect(dialog(page).locator("#bk-time")).toHaveValue("10:00");
});

test("newsletter: an address typed before the island hydrates is kept and sent", async ({ page }) => {
  const island = await holdIsland(page, "NewsletterForm");
  await page.goto("/en/");
  const field = page.locator("#newsletter-email");
  await field.scrollIntoViewIfNeeded();
  await expect.poll(island.held, "the island's script was requested and is held").toBeGreaterThan(0);
  const email = `early.${uniqueTag()}@example.com`;
  await field.fill(email);

  island.release();
  await hydrated(page, "NewsletterForm");
  await expect(field).toHaveValue(email);
  const [posted] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith("/api/newsletter") && r.method() === "POST"),
    page.locator("#newsletter button[type=submit]").click(),
  ]);
  // With the signed "form shown at" token, the empty honeypot (functions/_lib/forms/form-guard.ts) and the page for the consent record.
  expect(posted.postDataJSON()).toEqual({
    email,
    language: "en",
    page: "/en/",
    formToken: expect.any(String),
    website: "",
  });
  await expect(toasts(page)).toContainText(en.newsletter.successTitle);
});

test("enquiry: what is typed before the form hydrates is kept", async ({ page }) => {
  const island = await holdIsland(page, "ContactForm");
  await page.goto("/en/");
  await page.locator("#cf-firstName").scrollIntoViewIfNeeded();
  await expect.poll(island.held).toBeGreaterThan(0);
  await page.locator("#cf-firstName").fill("Nasrin");
  await page.locator("#cf-email").fill("nasrin@example.com");
  await page.locator("#cf-service").selectOption("startup-studio");

  island.release();
  await hydrated(page, "ContactForm");
  await expect(page.locator("#cf-firstName")).toHaveValue("Nasrin");
  await expect(page.locator("#cf-email")).toHaveValue("nasrin@example.com");
  await expect(page.locator("#cf-service")).toHaveValue("startup-studio");
  // Submitting now reports only what is still missing.
  await page.locator("#contact-form button[type=submit]").click();
  await expect(page.locator("#cf-lastName-error")).toBeVisible();
  await expect(page.locator("#cf-firstName-error")).toHaveCount(0);
  await expect(page.locator("#cf-email-error")).toHaveCount(0);
});

test("the carousel's dots and pause button are in the first paint, one dot per group at each width, and work once it hydrates", async ({
  page,
}) => {
  const carousel = page.locator("#testimonials [aria-roledescription=carousel]");
  const dots = carousel.locator("ul[role=list] > li > button");
  const pause = carousel.getByRole("button", { name: en.testimonials.pause });
  const island = await holdIsland(page, "TestimonialCarousel");
  const cards = (await import("../src/data/testimonials.json", { with: { type: "json" } })).default.length;
  for (const [width, perView] of [
    [360, 1],
    [800, 2],
    [1280, 3],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/en/");
    await carousel.scrollIntoViewIfNeeded();
    await expect.poll(island.held, "the island's script was requested and is held").toBeGreaterThan(0);
    await expect(dots.filter({ visible: true }), `${width} px`).toHaveCount(Math.ceil(cards / perView));
    await expect(dots.first()).toHaveAttribute("aria-current", "true");
    await expect(pause).toBeVisible();
  }

  island.release();
  await hydrated(page, "TestimonialCarousel");
  await expect(dots).toHaveCount(Math.ceil(cards / 3));
  await pause.click();
  await expect(carousel.getByRole("button", { name: en.testimonials.play })).toBeVisible();
  await dots.last().click();
  await expect(dots.last()).toHaveAttribute("aria-current", "true");
});

test("enquiry: Send pressed on the empty form before it hydrates is kept, and the island shows each field's message in the page's language", async ({
  page,
}) => {
  const island = await holdIsland(page, "ContactForm");
  const posts: string[] = [];
  page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
  await page.goto("/fa/");
  const send = page.locator("#contact-form button[type=submit]");
  await send.scrollIntoViewIfNeeded();
  await expect.poll(island.held, "the island's script was requested and is held").toBeGreaterThan(0);
  await send.click();
  await expect(page.locator("#contact-form form")).toHaveAttribute("data-submit-pending", "");
  expect(page.url(), "the page stays while the script is on its way").toMatch(/\/fa\/$/);

  island.release();
  await hydrated(page, "ContactForm");
  await expect(page.locator("#cf-firstName-error")).toContainText(fa.contact.validation.firstName);
  await expect(page.locator("#cf-email-error")).toContainText(fa.contact.validation.email);
  expect(page.url()).toMatch(/\/fa\/$/);
  expect(
    posts.filter((url) => url.includes("/api/contact")),
    "nothing was sent",
  ).toEqual([]);
});

test("enquiry: Send pressed on a valid form before it hydrates is sent once, by the island", async ({ page }) => {
  const island = await holdIsland(page, "ContactForm");
  const posts: string[] = [];
  page.on("request", (r) => r.method() === "POST" && r.url().includes("/api/contact") && posts.push(r.url()));
  await page.goto("/en/");
  await page.locator("#cf-firstName").scrollIntoViewIfNeeded();
  await expect.poll(island.held).toBeGreaterThan(0);
  await page.locator("#cf-firstName").fill("Nasrin");
  await page.locator("#cf-lastName").fill("Karimi");
  await page.locator("#cf-email").fill(`early.${uniqueTag()}@example.com`);
  await page.locator("#cf-service").selectOption("startup-studio");
  await page.locator("#cf-message").fill("We would like to open an office in Amsterdam next spring.");
  await page.locator("#contact-form button[type=submit]").click();
  await page.locator("#contact-form button[type=submit]").click();

  island.release();
  await hydrated(page, "ContactForm");
  await expect(toasts(page)).toContainText(en.contact.toast.successTitle);
  expect(page.url()).toMatch(/\/en\/$/);
  expect(posts, "one request").toHaveLength(1);
});

test("newsletter: an invalid address sent before the island hydrates gets the island's message in the page's language", async ({
  page,
}) => {
  const island = await holdIsland(page, "NewsletterForm");
  await page.goto("/fa/");
  const field = page.locator("#newsletter-email");
  await field.scrollIntoViewIfNeeded();
  await expect.poll(island.held).toBeGreaterThan(0);
  await field.fill("not-an-address");
  await page.locator("#newsletter button[type=submit]").click();

  island.release();
  await hydrated(page, "NewsletterForm");
  await expect(page.locator("#newsletter-error")).toContainText(fa.contact.validation.email);
  expect(page.url()).toMatch(/\/fa\/$/);
});

test("dropdowns close on Escape and on an outside click with no script loaded at all", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.route("**/_astro/*.js", (route) => route.abort());
  await page.goto("/en/");
  const services = page.locator("header nav > ul details");
  await services.locator("summary").click();
  await expect(services).toHaveAttribute("open", "");
  await page.keyboard.press("Escape");
  await expect(services).not.toHaveAttribute("open");
  await expect(services.locator("summary")).toBeFocused();

  const language = page.locator("header nav details:has(a[hreflang])");
  await language.locator("summary").click();
  await expect(language).toHaveAttribute("open", "");
  await page.locator("main h1").click();
  await expect(language).not.toHaveAttribute("open");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the newsletter form posts and lands on a result page in the visitor's language", async ({ page }) => {
    await page.goto("/fa/");
    await page.locator("#newsletter-email").fill(`nojs.${uniqueTag()}@example.com`);
    await page.locator("#newsletter button[type=submit]").click();
    // The static page cannot carry the signed token: one confirmation, a moment later.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(fa.formGuard.confirmTitle);
    await page.waitForTimeout(2100);
    await page.getByRole("button", { name: fa.formGuard.confirmNewsletter }).click();
    await expect(page).toHaveURL(/\/fa\/newsletter\/subscribed\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(fa.newsletter.successTitle);
  });
});

test("a Persian booking shows the Jalali date beside the Gregorian one, in the dialog and in the acknowledgement email", async ({
  page,
  request,
}) => {
  const date = (await bookableDays(request))[8];
  const tag = uniqueTag();
  const email = `jalali.${tag}@example.com`;
  await page.goto("/fa/");
  const button = scheduleButton(page, fa.contact.scheduleButton);
  await button.scrollIntoViewIfNeeded();
  await button.click();
  await expect(dialog(page).locator("td[aria-selected=true]")).toBeVisible();
  const cell = dialog(page).locator(`button[data-date="${date}"]`);
  for (let i = 0; i < 3 && (await cell.count()) === 0; i++)
    await dialog(page).locator("button[data-month=next]").click();
  await cell.click();
  const jalali = formatDate("fa", date);
  await expect(dialog(page).getByText(fa.contact.booking.selectedDate.replace("{{date}}", jalali))).toBeVisible();
  await expect(dialog(page).locator("#bk-time")).toBeEnabled();
  await dialog(page).locator("#bk-name").fill(`مهسا ${tag}`);
  await dialog(page).locator("#bk-email").fill(email);
  await dialog(page).locator("#bk-phone").fill("+98 912 000 0000");
  await dialog(page).locator("button[type=submit]").click();
  await expect(toasts(page)).toContainText(jalali);

  // Without SMTP_URL the local server writes each email to DATA_DIR/outbox as an .eml file.
  // playwright.config.ts gives every run its own data folder and names it in E2E_DATA_DIR.
  expect(process.env.E2E_DATA_DIR, "the server's data folder").toBeTruthy();
  const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
  const acknowledgement = async () => {
    for (const file of await readdir(outbox).catch(() => [] as string[])) {
      if (!file.endsWith(".eml")) continue;
      const message = await simpleParser(await readFile(path.join(outbox, file)));
      if (message.to && !Array.isArray(message.to) && message.to.text === email) return message;
    }
    return null;
  };
  await expect
    .poll(async () => (await acknowledgement())?.subject ?? "", { timeout: 20_000 })
    .toContain(formatDate("fa", date, "short"));
  const message = (await acknowledgement())!;
  expect(message.html).toContain(jalali);
  expect(message.text).toContain(jalali);
});
