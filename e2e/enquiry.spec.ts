import type { Page, Route } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import { adminEnquiries, hydrated, isRed, openContactForm, skipSplash, toasts, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * The enquiry form of the contact section: sending in English and
 * Persian, validation on submit and revalidation on change, server rejections, the messaging-app
 * button, the no-JavaScript form post, and axe with the validation errors showing.
 */

const LOCALES = { en, nl, fa } as const;
/** The English greeting the chat link carries in every language. */
const GREETING = "Hello! I would like to learn more about your services.";

const field = (page: Page, name: string) => page.locator(`#cf-${name}`);
const submitButton = (page: Page) => page.locator("#contact-form form button[type=submit]");

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

interface Enquiry {
  firstName: string;
  lastName: string;
  email: string;
  company?: string;
  service: string;
  message: string;
}

async function fillEnquiry(page: Page, e: Enquiry) {
  await field(page, "firstName").fill(e.firstName);
  await field(page, "lastName").fill(e.lastName);
  await field(page, "email").fill(e.email);
  if (e.company !== undefined) await field(page, "company").fill(e.company);
  await field(page, "service").selectOption(e.service);
  await field(page, "message").fill(e.message);
}

/** Holds POST /api/contact until `release()` is called, so the sending state can be observed. */
async function holdContactPost(page: Page) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route("**/api/contact", async (route: Route) => {
    if (route.request().method() !== "POST") return route.continue();
    held++;
    await gate;
    await route.continue();
  });
  return { release, held: () => held };
}

/** Answers POST /api/contact with this status and JSON body. */
async function answerContact(page: Page, status: number, body: unknown) {
  let calls = 0;
  await page.route("**/api/contact", (route) => {
    calls++;
    return route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
  });
  return () => calls;
}

async function expectEmptyForm(page: Page) {
  for (const name of ["firstName", "lastName", "email", "company", "service", "message"]) {
    await expect(field(page, name), `${name} is reset`).toHaveValue("");
  }
}

for (const lang of ["en", "fa"] as const) {
  test(`${lang}: a valid enquiry is sent (sending state, success toast, its reference, every field reset) and stored`, async ({
    page,
    request,
    baseURL,
  }) => {
    const t = LOCALES[lang];
    const tag = uniqueTag();
    const enquiry: Enquiry =
      lang === "en"
        ? {
            firstName: "Ada",
            lastName: "Lovelace",
            email: `ada.${tag}@example.com`,
            company: "Analytical Engines",
            service: "startup-visa",
            message: `We want to open an office in Rotterdam (${tag}).`,
          }
        : {
            firstName: "مریم",
            lastName: "میرزاخانی",
            email: `maryam.${tag}@example.com`,
            service: "business-launchpad",
            message: `سلام، می‌خواهیم در هلند شرکت ثبت کنیم.\nلطفاً با ما تماس بگیرید (${tag}).`,
          };
    await openContactForm(page, lang);
    await fillEnquiry(page, enquiry);
    await page.locator("#cf-heard").selectOption("telegram");
    const hold = await holdContactPost(page);
    await submitButton(page).click();

    // Submitting: the button says so and cannot be pressed again.
    await expect.poll(hold.held).toBe(1);
    await expect(submitButton(page)).toHaveText(t.contact.form.submitting);
    await expect(submitButton(page)).toBeDisabled();
    hold.release();

    const toast = toasts(page);
    await expect(toast).toHaveCount(1);
    await expect(toast).toHaveAttribute("role", "status");
    await expect(toast).toContainText(t.contact.toast.successTitle);
    await expect(toast).toContainText(t.contact.toast.successMessage);
    await expectEmptyForm(page);
    await expect(page.locator("#cf-heard"), "heard is reset").toHaveValue("");
    await expect(submitButton(page)).toHaveText(t.contact.form.submit);
    await expect(submitButton(page)).toBeEnabled();

    // The admin sees it, exactly as typed (the Persian line break included).
    const stored = (await adminEnquiries(request, baseURL!)).filter((s) => s.email === enquiry.email);
    expect(stored).toHaveLength(1);

    // The form names the reference the acknowledgement email quotes, written as the email writes it
    // (Latin digits in every language, like the meeting's M- reference on its manage page), and takes focus.
    const reference = `E-${String(stored[0]!.id).padStart(5, "0")}`;
    const sent = page.getByTestId("enquiry-sent");
    const [before, after] = t.contact.toast.sent.split("{{reference}}");
    await expect(sent).toHaveText(`${before}${reference}${after}`);
    await expect(sent).toHaveAttribute("role", "status");
    await expect(sent).toBeFocused();
    await expect(sent).toBeInViewport();
    expect(stored[0]).toMatchObject({
      firstName: enquiry.firstName,
      lastName: enquiry.lastName,
      company: enquiry.company ?? null,
      service: enquiry.service,
      message: enquiry.message,
      stage: "new",
    });
  });
}

for (const lang of ["en", "nl"] as const) {
  test(`${lang}: submitting the empty form shows every validation message under its field; fixing a field clears it`, async ({
    page,
  }) => {
    const v = LOCALES[lang].contact.validation;
    await openContactForm(page, lang);
    let posts = 0;
    page.on("request", (r) => r.url().endsWith("/api/contact") && r.method() === "POST" && posts++);
    await submitButton(page).click();

    const expected = {
      firstName: v.firstName,
      lastName: v.lastName,
      email: v.email,
      service: v.service,
      message: v.message,
    };
    for (const [name, text] of Object.entries(expected)) {
      const input = field(page, name);
      const error = page.locator(`#cf-${name}-error`);
      await expect(error, `${name} message`).toHaveText(text);
      await expect(error).toBeVisible();
      await expect(input).toHaveAttribute("aria-invalid", "true");
      await expect(input).toHaveAttribute("aria-describedby", `cf-${name}-error`);
      // Under the field, in red.
      const [inputBox, errorBox] = [await input.boundingBox(), await error.boundingBox()];
      expect(errorBox!.y).toBeGreaterThanOrEqual(inputBox!.y + inputBox!.height - 1);
      expect(Math.abs(errorBox!.x - inputBox!.x)).toBeLessThan(inputBox!.width);
      const color = await error.evaluate((el) => getComputedStyle(el).color);
      expect(isRed(color), `${name} message colour ${color}`).toBe(true);
    }
    // Company is optional: no message, not invalid.
    await expect(page.locator("#cf-company-error")).toHaveCount(0);
    await expect(field(page, "company")).toHaveAttribute("aria-invalid", "false");
    await expect(page.locator("#contact-form form p[id$='-error']")).toHaveCount(5);
    // Focus goes to the first invalid field.
    await expect(field(page, "firstName")).toBeFocused();

    // Revalidation on change: each fix clears its own message, without submitting again.
    await field(page, "firstName").fill("Jo");
    await expect(page.locator("#cf-firstName-error")).toHaveCount(0);
    await expect(field(page, "firstName")).toHaveAttribute("aria-invalid", "false");
    await expect(field(page, "firstName")).not.toHaveAttribute("aria-describedby");
    await expect(page.locator("#cf-lastName-error")).toHaveText(v.lastName);

    await field(page, "email").fill("not-an-email");
    await expect(page.locator("#cf-email-error")).toHaveText(v.email);
    await field(page, "email").fill("jo@example.com");
    await expect(page.locator("#cf-email-error")).toHaveCount(0);

    await field(page, "service").selectOption("other");
    await expect(page.locator("#cf-service-error")).toHaveCount(0);

    await field(page, "message").fill("too short");
    await expect(page.locator("#cf-message-error")).toHaveText(v.message);
    await field(page, "message").fill("Long enough now.");
    await expect(page.locator("#cf-message-error")).toHaveCount(0);

    await field(page, "lastName").fill("X");
    await expect(page.locator("#cf-lastName-error")).toHaveText(v.lastName);
    await field(page, "lastName").fill("Xu");
    await expect(page.locator("#contact-form form p[id$='-error']")).toHaveCount(0);
    expect(posts, "nothing is sent while the form is invalid").toBe(0);
  });
}

test.describe("server-side rejection", () => {
  const valid = (): Enquiry => ({
    firstName: "Grace",
    lastName: "Hopper",
    email: `grace.${uniqueTag()}@example.com`,
    company: "Navy",
    service: "startup-studio",
    message: "Please tell me more about the studio.",
  });

  async function expectDataKept(page: Page, e: Enquiry) {
    await expect(field(page, "firstName")).toHaveValue(e.firstName);
    await expect(field(page, "lastName")).toHaveValue(e.lastName);
    await expect(field(page, "email")).toHaveValue(e.email);
    await expect(field(page, "company")).toHaveValue(e.company!);
    await expect(field(page, "service")).toHaveValue(e.service);
    await expect(field(page, "message")).toHaveValue(e.message);
  }

  test("400 about the email: destructive toast with the email validation message; the data stays", async ({ page }) => {
    await openContactForm(page, "en");
    const calls = await answerContact(page, 400, { success: false, message: "Please enter a valid email address" });
    const e = valid();
    await fillEnquiry(page, e);
    await submitButton(page).click();
    const toast = toasts(page);
    await expect(toast).toHaveCount(1);
    await expect(toast).toHaveAttribute("role", "alert");
    await expect(toast).toHaveAttribute("data-variant", "destructive");
    await expect(toast.locator("p").first()).toHaveText(en.contact.toast.errorTitle);
    await expect(toast.locator("p").nth(1)).toHaveText(en.contact.validation.email);
    expect(calls()).toBe(1);
    await expectDataKept(page, e);
    await expect(submitButton(page)).toBeEnabled();
  });

  for (const [status, body] of [
    [500, { success: false, message: "boom" }],
    [503, { success: false, message: "Service unavailable" }],
  ] as const) {
    test(`${status}: destructive toast with the generic message; the data stays`, async ({ page }) => {
      await openContactForm(page, "en");
      await answerContact(page, status, body);
      const e = valid();
      await fillEnquiry(page, e);
      await submitButton(page).click();
      const toast = toasts(page);
      await expect(toast).toHaveAttribute("role", "alert");
      await expect(toast.locator("p").first()).toHaveText(en.contact.toast.errorTitle);
      await expect(toast.locator("p").nth(1)).toHaveText("Failed to send your message. Please try again later.");
      await expect(toast).not.toContainText("boom");
      await expectDataKept(page, e);
    });
  }
});

for (const lang of ["nl", "fa"] as const) {
  test(`${lang}: a server message the form does not know is shown in the page's language, not in English`, async ({
    page,
  }) => {
    const copy = LOCALES[lang];
    await openContactForm(page, lang);
    await answerContact(page, 400, {
      success: false,
      message: "Company must be at most 200 characters",
      errors: { company: ["Company must be at most 200 characters"] },
    });
    await fillEnquiry(page, {
      firstName: "Grace",
      lastName: "Hopper",
      email: `grace.${uniqueTag()}@example.com`,
      company: "Navy",
      service: "startup-studio",
      message: "Please tell me more about the studio.",
    });
    await submitButton(page).click();
    const toast = toasts(page);
    await expect(toast.locator("p").nth(1)).toHaveText(copy.contact.toast.errorMessage);
    await expect(page.locator("#cf-company-error")).toHaveText(copy.contact.validation.unknown);
    await expect(page.locator("#contact-form")).not.toContainText("Company must be at most");
  });
}

test("the messaging-app button opens a chat with the English greeting in a new tab, in every language", async ({
  page,
}) => {
  for (const lang of ["en", "nl", "fa"] as const) {
    await page.goto(`/${lang}/`);
    const chat = page.locator("#contact-form a", { hasText: LOCALES[lang].contact.chatButton });
    await expect(chat).toHaveCount(1);
    const href = (await chat.getAttribute("href"))!;
    expect(href.startsWith("https://wa.me/"), href).toBe(true);
    expect(href, "the number is in international format").toMatch(/^https:\/\/wa\.me\/\d{8,15}\?/);
    expect(href).toContain(`text=${encodeURIComponent(GREETING)}`);
    expect(new URL(href).searchParams.get("text")).toBe(GREETING);
    await expect(chat).toHaveAttribute("target", "_blank");
    expect((await chat.getAttribute("rel"))!.split(/\s+/)).toContain("noopener");
  }
});

test.describe("without JavaScript", () => {
  test("nl: the form posts to the server, is confirmed once on a Dutch page and lands on the thank-you page; a bad email lands on the error page", async ({
    browser,
    request,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = `nojs.${uniqueTag()}@example.com`;
    const send = async (e: Enquiry) => {
      await page.goto("/nl/#contact-form");
      await fillEnquiry(page, e);
      await submitButton(page).click();
    };
    await send({
      firstName: "Joost",
      lastName: "de Vries",
      email,
      service: "startup-visa",
      message: "Wij willen graag meer weten over het visum.",
    });
    // A static page cannot carry the signed "form shown at" token: the server asks to confirm, with
    // the fields kept and a fresh token, and a person confirms after reading it.
    await expect(page.locator("h1")).toHaveText(nl.formGuard.confirmTitle);
    await expect(page.locator("dl")).toContainText("Wij willen graag meer weten over het visum.");
    await page.waitForTimeout(2100);
    await page.getByRole("button", { name: nl.formGuard.confirmEnquiry }).click();
    await expect(page).toHaveURL(/\/nl\/enquiry\/sent\/$/);
    await expect(page.locator("h1")).toHaveText(nl.enquiry.sentTitle);
    await expect(page.locator("main")).toContainText(nl.enquiry.sentText);

    await send({
      firstName: "Joost",
      lastName: "de Vries",
      email: "joost@invalid",
      service: "startup-visa",
      message: "Wij willen graag meer weten over het visum.",
    });
    await expect(page).toHaveURL(/\/nl\/enquiry\/error\/$/);
    await expect(page.locator("h1")).toHaveText(nl.enquiry.errorTitle);
    await context.close();

    const enquiries = await adminEnquiries(request, baseURL!);
    const stored = enquiries.filter((s) => s.email === email);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      firstName: "Joost",
      lastName: "de Vries",
      service: "startup-visa",
      company: null,
      stage: "new",
    });
    expect(
      enquiries.filter((s) => s.email === "joost@invalid"),
      "the invalid one is not stored",
    ).toHaveLength(0);
  });
});

test("axe: no WCAG A/AA violations with the form showing its validation errors", async ({ page }) => {
  await openContactForm(page, "en");
  await submitButton(page).click();
  await expect(page.locator("#contact-form form p[id$='-error']")).toHaveCount(5);
  await hydrated(page, "ContactForm");
  await expectNoViolations(page, "#contact");
});
