import { expect, test, type Page } from "@playwright/test";
import { ADMIN, hydrated, skipSplash } from "./helpers";

/**
 * The strict Content-Security-Policy (no 'unsafe-inline', no 'unsafe-eval') holds on every page:
 * nothing the site ships is blocked, and nothing even tries (zod's `new Function` probe used to).
 * Every island that can load on a page is made to load: the forms, the carousel, the dialog.
 */

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
});

/** Collects CSP reports from the console as well (some are only logged there). */
function watchConsole(page: Page) {
  const messages: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) messages.push(message.text());
  });
  return messages;
}

async function violations(page: Page) {
  return page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

/** Scrolls through the page so every client:visible island hydrates. */
async function loadEveryIsland(page: Page) {
  for (const selector of ["#testimonials", "#contact-form", "footer"]) {
    const target = page.locator(selector);
    if (await target.count()) await target.first().scrollIntoViewIfNeeded();
  }
  if (await page.locator("#cf-firstName").count()) await hydrated(page, "ContactForm");
  await hydrated(page, "NewsletterForm");
  await page.waitForLoadState("networkidle");
}

const PAGES = ["/", "/startup-visa", "/business-launchpad", "/startup-studio", "/privacy"].flatMap((p) =>
  ["en", "nl", "fa"].map((lang) => `/${lang}${p === "/" ? "/" : p}`),
);
const OTHER = [
  "/does-not-exist",
  "/fa/enquiry/sent/",
  "/nl/newsletter/subscribed/",
  "/en/newsletter/invalid/",
  "/fa/newsletter/confirm/?token=1.2.3",
  "/nl/newsletter/unsubscribed/",
];

for (const path of [...PAGES, ...OTHER]) {
  test(`${path}: no CSP violation`, async ({ page }) => {
    const logged = watchConsole(page);
    await page.goto(path);
    await loadEveryIsland(page);
    expect(await violations(page)).toEqual([]);
    expect(logged).toEqual([]);
  });
}

test("the open booking dialog and a submitted newsletter form: no CSP violation", async ({ page }) => {
  const logged = watchConsole(page);
  await page.goto("/fa/");
  await loadEveryIsland(page);
  await page.locator("#newsletter button[type=submit]").click();
  await page.locator("button[commandfor=booking-dialog][command=show-modal]").click();
  await hydrated(page, "BookingDialog");
  await expect(page.locator("dialog#booking-dialog [role=grid]")).toBeVisible();
  await page.locator("dialog#booking-dialog button[data-month=next]").click();
  expect(await violations(page)).toEqual([]);
  expect(logged).toEqual([]);
});

test("the admin pages: no CSP violation", async ({ page }) => {
  const logged = watchConsole(page);
  await page.goto("/admin/submissions");
  await page.waitForURL(/\/admin\/login/);
  await hydrated(page, "LoginForm");
  // An empty submit is refused by the form itself (no request, so no throttled login attempt).
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByText("Username is required")).toBeVisible();
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL(/\/admin\/submissions/);
  await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
  await page.getByRole("tab", { name: "Meeting Reservations" }).click();
  expect(await violations(page)).toEqual([]);
  expect(logged).toEqual([]);
});
