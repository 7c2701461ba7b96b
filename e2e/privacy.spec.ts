import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "./test";
import { simpleParser, type ParsedMail } from "mailparser";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import { formData, hydrated, toasts, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * Privacy by default, as a visitor and an admin meet it: the privacy page in each language (linked
 * from the footer and the forms, the retention figures in it), the newsletter's double opt-in
 * through the email's link, and the admin's delete of an enquiry and erasure of an address.
 */

const copy = { en, nl, fa } as const;

/** Text without the bidi isolates Persian copy puts around Latin runs. */
const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, "");

/** The email the local server wrote to DATA_DIR/outbox for `address` with this subject, once it is there. */
async function mailTo(address: string, subject: string): Promise<ParsedMail> {
  expect(process.env.E2E_DATA_DIR, "the server's data folder").toBeTruthy();
  const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
  const find = async () => {
    for (const file of await readdir(outbox).catch(() => [] as string[])) {
      if (!file.endsWith(".eml")) continue;
      const message = await simpleParser(await readFile(path.join(outbox, file)));
      if (
        plain(message.subject ?? "") === plain(subject) &&
        message.to &&
        !Array.isArray(message.to) &&
        message.to.text === address
      )
        return message;
    }
    return null;
  };
  await expect.poll(async () => Boolean(await find()), { timeout: 20_000 }).toBe(true);
  return (await find())!;
}

for (const lang of ["en", "nl", "fa"] as const) {
  test(`/${lang}/privacy: reached from the footer, says how long data is kept, no axe violation`, async ({ page }) => {
    await page.goto(`/${lang}/`);
    // The legal links at the foot (the newsletter form's note links there too).
    await page
      .locator("footer")
      .getByRole("link", { name: copy[lang].footer.legal.privacy, exact: true })
      .last()
      .click();
    await expect(page).toHaveURL(new RegExp(`/${lang}/privacy/?$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(copy[lang].privacy.title);
    await expect(page.locator("main").getByRole("heading", { level: 2 })).toHaveCount(4);
    // The default policy's figures, in the page's digits.
    const months = lang === "fa" ? "۲۴" : "24";
    const days = lang === "fa" ? "۳۰" : "30";
    await expect(page.locator("#privacy-retention + ul")).toContainText(months);
    await expect(page.locator("#privacy-retention + ul")).toContainText(days);
    await expect(page.getByRole("link", { name: "hello@bridgewise.eu" }).first()).toHaveAttribute(
      "href",
      "mailto:hello@bridgewise.eu",
    );
    await expectNoViolations(page);
  });
}

test("the enquiry form and the newsletter form link to the privacy page", async ({ page }) => {
  await page.goto("/nl/");
  const link = page.locator("#contact-form").getByRole("link", { name: nl.footer.legal.privacy });
  await expect(link).toHaveAttribute("href", "/nl/privacy");
  await expect(page.locator("#newsletter").getByRole("link", { name: nl.footer.legal.privacy })).toHaveAttribute(
    "href",
    "/nl/privacy",
  );
});

test("newsletter double opt-in: sign up, open the emailed link, confirm, then unsubscribe", async ({
  page,
  baseURL,
}) => {
  const email = `optin.${uniqueTag()}@example.com`;
  await page.goto("/fa/");
  await page.locator("#newsletter-email").scrollIntoViewIfNeeded();
  await hydrated(page, "NewsletterForm");
  await page.locator("#newsletter-email").fill(email);
  await page.locator("#newsletter button[type=submit]").click();
  await expect(toasts(page)).toContainText(fa.newsletter.successTitle);

  const mail = await mailTo(email, fa.mail.newsletter.confirm.subject.replace("{{brand}}", "Bridgewise"));
  // Links name the public site; here they are followed on the local server.
  const local = (url: string) => new URL(new URL(url).pathname + new URL(url).search, baseURL).href;
  const confirm = /https:\/\/\S+\/newsletter\/confirm\/\?token=\S+/.exec(mail.text ?? "")![0];
  await page.goto(local(confirm));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(fa.newsletter.confirmTitle);
  await expectNoViolations(page);
  await page.getByRole("button", { name: fa.newsletter.confirmButton }).click();
  await expect(page).toHaveURL(/\/fa\/newsletter\/confirmed\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(fa.newsletter.confirmedTitle);

  const unsubscribe = /https:\/\/\S+\/newsletter\/unsubscribe\/\?token=\S+/.exec(mail.text ?? "")![0];
  await page.goto(local(unsubscribe));
  await page.getByRole("button", { name: fa.newsletter.unsubscribeButton }).click();
  await expect(page).toHaveURL(/\/fa\/newsletter\/unsubscribed\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(fa.newsletter.unsubscribedTitle);
});

test.describe("admin", () => {
  test.beforeEach(async ({ page }) => {
    const response = await page.request.post("/api/login", {
      data: { username: "admin", password: "e2e-admin-password" },
    });
    expect(response.status()).toBe(200);
  });

  test("deletes a spam enquiry after a confirm step, and erases an address from the Privacy panel", async ({
    page,
  }) => {
    // axe looks at what this test changes (the card's confirm step, the Privacy panel); the whole
    // leads page has its own axe test in admin.spec.ts.
    const tag = uniqueTag();
    const firstName = `Spammer${tag.replace(/\W/g, "").slice(0, 8)}`;
    const email = `spam.${tag}@example.com`;
    const created = await page.request.post("/api/contact", {
      data: await formData(page.request, {
        firstName,
        lastName: "Bot",
        email,
        service: "other",
        message: "Cheap followers, click now!",
      }),
    });
    expect(created.status()).toBe(201);
    const { id } = await created.json();

    await page.goto("/admin/leads");
    const card = page.getByRole("article", { name: `${firstName} Bot` });
    await expect(card).toBeVisible();
    await card.getByRole("button", { name: "Delete" }).click();
    await expectNoViolations(page, `#enquiry-${id}`);
    await page.keyboard.press("Escape");
    await card.getByRole("button", { name: "Delete" }).click();
    const keep = card.getByRole("button", { name: "Keep" });
    await expect(keep).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(card.getByRole("button", { name: "Delete" })).toBeFocused();
    await card.getByRole("button", { name: "Delete" }).click();
    await card.getByRole("button", { name: "Delete for good" }).click();
    await expect(card).toHaveCount(0);
    await expect(toasts(page)).toContainText("Enquiry deleted");

    // Erase: the address's other data goes too.
    const signedUp = await page.request.post("/api/newsletter", {
      data: await formData(page.request, { email, language: "en" }),
    });
    expect(signedUp.status()).toBe(202);
    await page.goto("/admin/privacy");
    const panel = page.getByRole("region", { name: "Privacy" });
    await panel.getByLabel("Email address").fill(email);
    const download = page.waitForEvent("download");
    await panel.getByRole("button", { name: "Export JSON" }).click();
    const file = await download;
    const exported = JSON.parse(await readFile((await file.path())!, "utf8"));
    expect(exported.newsletter).toHaveLength(1);
    await panel.getByRole("button", { name: "Erase…" }).click();
    await panel.getByRole("button", { name: "Erase for good" }).click();
    await expect(panel.getByRole("status")).toContainText(`Erased ${email}: 0 enquiries anonymised`);
    await expect(panel.getByRole("status")).toContainText("1 newsletter subscription deleted");
    // The panel is ready for the next address.
    await expect(panel.getByRole("button", { name: "Erase…" })).toBeEnabled();
    await expectNoViolations(page, "#privacy");
  });
});
