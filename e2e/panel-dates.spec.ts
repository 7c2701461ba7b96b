import { expect, test } from "./test";
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import { expectNoViolations } from "./axe";
import { ADMIN, keepScreenshot } from "./helpers";

/**
 * The panel's date fields follow its language: in Persian a filter takes a Jalali day, picked from
 * a Jalali month or typed in Persian digits, and filters by the ISO day it stands for.
 */
const c = fa.admin;

/** A day as the Persian field shows it: "۱۴۰۵/۰۹/۰۸". */
const jalali = (iso: string) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-US-u-ca-persian-nu-latn", {
      timeZone: "UTC",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    })
      .formatToParts(new Date(`${iso}T12:00:00Z`))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}/${p.month}/${p.day}`.replace(/\d/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[Number(d)]);
};

test("the Persian panel's date filter picks a Jalali day and filters by it", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  expect((await context.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  // The audit record's days are UTC days; today's sign-in is in it.
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await context.addInitScript(() => localStorage.setItem("admin-language", "fa"));
  const page = await context.newPage();
  await page.goto("/admin/audit");
  await expect(page.getByRole("heading", { level: 1, name: c.audit.title })).toBeVisible();
  const from = page.getByLabel(c.audit.from, { exact: true });
  const to = page.getByLabel(c.audit.to, { exact: true });
  await expect(from).toHaveAttribute("type", "text");

  // Typed in Persian digits: yesterday to yesterday holds none of today's entries.
  await from.fill(jalali(yesterday));
  await to.fill(jalali(yesterday));
  await to.press("Enter");
  await page.getByRole("button", { name: c.audit.apply }).click();
  await expect(page).toHaveURL(new RegExp(`from=${yesterday}&to=${yesterday}`));
  await expect(page.getByText(c.audit.empty)).toBeVisible();

  // Picked from the Jalali month: today.
  for (const field of [from, to]) {
    await field.locator("xpath=following-sibling::button").click();
    const month = page.getByRole("group", { name: c.dateField.calendar });
    await expect(month.getByRole("columnheader").first()).toHaveText("ش");
    await month.locator(`[data-day="${today}"]`).click();
    await expect(field).toHaveValue(jalali(today));
    await expect(field).toBeFocused();
  }
  await page.getByRole("button", { name: c.audit.apply }).click();
  await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}`));
  const rows = page.getByTestId("audit-entry");
  await expect(rows.first()).toBeVisible();
  await expectNoViolations(page);

  // Not a day: told beside the field, and the filter keeps its day.
  await from.fill("۱۴۰۵/۰۷/۳۱");
  await from.press("Tab");
  await expect(from).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(c.dateField.invalid)).toBeVisible();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await keepScreenshot(page, { path: test.info().outputPath(`dates-fa-${width}.png`), fullPage: false });
  }
  await context.close();
});
