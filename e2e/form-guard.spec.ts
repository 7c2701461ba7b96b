import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import { adminEnquiries, openContactForm, skipSplash, toasts, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * The bot traps of the enquiry form as a person meets them: without JavaScript the
 * server asks to confirm once (the static page cannot carry the signed token), a second post of the
 * same confirmation stores nothing twice, a filled honeypot is refused; with JavaScript the island
 * sends its token unseen and shows a refusal for too many requests in the page's language.
 * The limits themselves are tested through the API (functions/_tests/abuse.test.ts).
 */

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("fa: the confirm page keeps the enquiry, and a repeated confirmation stores it once", async ({
    page,
    request,
    baseURL,
  }) => {
    const email = `guard.${uniqueTag()}@example.com`;
    await page.goto("/fa/#contact-form");
    await page.locator("#cf-firstName").fill("سارا");
    await page.locator("#cf-lastName").fill("رحیمی");
    await page.locator("#cf-email").fill(email);
    await page.locator("#cf-service").selectOption("startup-visa");
    await page.locator("#cf-message").fill("می‌خواهیم در آمستردام دفتر باز کنیم.");
    await page.locator("#contact-form form button[type=submit]").click();

    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator("h1")).toHaveText(fa.formGuard.confirmTitle);
    await expect(page.locator("dl")).toContainText("می‌خواهیم در آمستردام دفتر باز کنیم.");

    // What the confirm page sends, kept to send it once more below.
    const hidden = page.locator("form input[type=hidden]");
    const fields: Record<string, string> = {};
    for (let i = 0; i < (await hidden.count()); i++) {
      fields[(await hidden.nth(i).getAttribute("name"))!] = (await hidden.nth(i).getAttribute("value")) ?? "";
    }
    await page.waitForTimeout(2100); // a person reads the page before confirming
    await page.getByRole("button", { name: fa.formGuard.confirmEnquiry }).click();
    await expect(page).toHaveURL(/\/fa\/enquiry\/sent\/$/);
    // The same confirmation again (a reload that re-posts, a replay): the thank-you page, no second lead.
    const again = await request.post("/api/contact", { form: fields, headers: { origin: baseURL! }, maxRedirects: 0 });
    expect(again.status()).toBe(303);
    expect(again.headers().location).toBe("/fa/enquiry/sent/");
    expect((await adminEnquiries(request, baseURL!)).filter((s) => s.email === email)).toHaveLength(1);
  });

  test("en: a filled honeypot lands on the error page and stores nothing", async ({ page, request, baseURL }) => {
    const email = `honeypot.${uniqueTag()}@example.com`;
    await page.goto("/en/#contact-form");
    await page.locator("#cf-firstName").fill("Robo");
    await page.locator("#cf-lastName").fill("Spammer");
    await page.locator("#cf-email").fill(email);
    await page.locator("#cf-service").selectOption("other");
    await page.locator("#cf-message").fill("Cheap pills, best prices, click now.");
    // What a bot does: fill every field it finds, the hidden one too.
    await page.locator("#cf-website").fill("https://spam.example", { force: true });
    await page.locator("#contact-form form button[type=submit]").click();
    await expect(page).toHaveURL(/\/en\/enquiry\/error\/$/);
    expect((await adminEnquiries(request, baseURL!)).filter((s) => s.email === email)).toHaveLength(0);
  });
});

test.describe("the confirm page", () => {
  // axe runs as a script; the confirm page allows none (its CSP), so this test lets the tool in.
  test.use({ bypassCSP: true });

  for (const lang of ["en", "fa"] as const) {
    test(`${lang}: axe finds nothing`, async ({ page }) => {
      await page.goto(`/${lang}/`);
      // The plain form post a browser without JavaScript makes.
      await page.evaluate((lang) => {
        const form = Object.assign(document.createElement("form"), { method: "post", action: "/api/contact" });
        const fields = {
          firstName: "Ada",
          lastName: "Lovelace",
          email: "ada@example.com",
          service: "other",
          message: "A question about the studio.",
          lang,
        };
        for (const [name, value] of Object.entries(fields)) {
          form.append(Object.assign(document.createElement("input"), { type: "hidden", name, value }));
        }
        document.body.append(form);
        form.submit();
      }, lang);
      await expect(page.locator("h1")).toHaveText((lang === "fa" ? fa : en).formGuard.confirmTitle);
      await expectNoViolations(page);
    });
  }
});

test("the honeypot is out of everyone's way: hidden, aria-hidden, skipped by Tab, never autofilled", async ({
  page,
}) => {
  await openContactForm(page, "en");
  const trap = page.locator("#cf-website");
  await expect(trap).toHaveAttribute("tabindex", "-1");
  await expect(trap).toHaveAttribute("autocomplete", "off");
  const wrapper = page.locator("div[aria-hidden=true]:has(#cf-website)");
  await expect(wrapper).toHaveCount(1);
  const box = await wrapper.boundingBox(); // clips the field to one pixel
  expect((box?.width ?? 0) * (box?.height ?? 0)).toBeLessThanOrEqual(1);
  await page.locator("#cf-company").focus();
  await page.keyboard.press("Tab");
  await expect(page.locator("#cf-service")).toBeFocused();
});

test("fa: 429 from the server shows the translated message in a toast; the data stays", async ({ page }) => {
  await openContactForm(page, "fa");
  await page.route("**/api/contact", (route) =>
    route.fulfill({
      status: 429,
      headers: { "content-type": "application/json", "retry-after": "1800" },
      body: JSON.stringify({ success: false, code: "tooManyRequests", message: "Too many submissions" }),
    }),
  );
  await page.locator("#cf-firstName").fill("سارا");
  await page.locator("#cf-lastName").fill("رحیمی");
  await page.locator("#cf-email").fill("sara@example.com");
  await page.locator("#cf-service").selectOption("startup-visa");
  await page.locator("#cf-message").fill("می‌خواهیم در آمستردام دفتر باز کنیم.");
  await page.locator("#contact-form form button[type=submit]").click();
  const toast = toasts(page);
  await expect(toast).toHaveAttribute("data-variant", "destructive");
  // The text in the page's language, Latin runs isolated: compare without the isolates.
  const text = (await toast.locator("p").nth(1).textContent())!.replace(/[\u2066-\u2069]/g, "");
  expect(text).toBe(fa.formGuard.tooManyText.replace("{{email}}", "hello@bridgewise.eu"));
  await expect(page.locator("#cf-message")).toHaveValue("می‌خواهیم در آمستردام دفتر باز کنیم.");
  expect(en.formGuard.tooManyText).toContain("{{email}}");
});
