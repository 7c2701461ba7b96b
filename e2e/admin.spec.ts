import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import type { CalendarAnswer } from "../src/shared/api/availability";
import { formatDate } from "../src/shared/format";
import { formData, holdRequests } from "./helpers";
import { expectNoViolations } from "./axe";

// The dashboard asks for the lists a page at a time (`?limit=…`): match the path with any query.
const SUBMISSIONS_LIST = /\/api\/admin\/submissions(\?.*)?$/;
const MEETINGS_LIST = /\/api\/admin\/meetings(\?.*)?$/;

/**
 * The admin panel. The server runs with
 * ADMIN_USERNAME=admin and ADMIN_PASSWORD=e2e-admin-password on a fresh database that every spec
 * shares, so each test seeds its own records under unique names and finds its cards by them.
 *
 * Login throttling counts failures per address and every test comes from 127.0.0.1: this file
 * makes exactly one failed login.
 */

const ADMIN = { username: "admin", password: "e2e-admin-password" };
/** A name no other test uses (letters only, so it reads like a name). */
function uniqueName(prefix: string): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let tag = "";
  for (let i = 0; i < 8; i++) tag += letters[Math.floor(Math.random() * letters.length)];
  return `${prefix} ${tag[0].toUpperCase()}${tag.slice(1)}`;
}

/** Signs in through the API; the session cookie lands in the page's browser context. */
async function signIn(page: Page) {
  const response = await page.request.post("/api/login", { data: ADMIN });
  expect(response.status(), await response.text()).toBe(200);
}

async function seedEnquiry(
  request: APIRequestContext,
  fields: { firstName: string; lastName: string; company?: string; service?: string; message?: string },
) {
  const response = await request.post("/api/contact", {
    data: await formData(request, {
      email: `${fields.firstName.toLowerCase()}@example.com`,
      service: "startup-visa",
      message: "Hello, I would like to know more.",
      ...fields,
    }),
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Books a free slot on a bookable day (random, so parallel tests rarely want the same one). */
async function seedMeeting(request: APIRequestContext, name: string): Promise<{ date: string; time: string }> {
  const calendar = (await (await request.get("/api/meetings/calendar")).json()) as CalendarAnswer;
  const { today, lastDate } = calendar.data;
  const days: string[] = [];
  for (
    let d = new Date(`${today}T12:00:00Z`);
    d.toISOString().slice(0, 10) <= lastDate;
    d.setUTCDate(d.getUTCDate() + 1)
  ) {
    days.push(d.toISOString().slice(0, 10));
  }
  for (let attempt = 0; attempt < 40; attempt++) {
    const date = days[Math.floor(Math.random() * days.length)];
    const slots: string[] = (await (await request.get(`/api/meetings/available-slots?date=${date}`)).json()).data;
    if (!slots.length) continue;
    const time = slots[Math.floor(Math.random() * slots.length)];
    const response = await request.post("/api/meetings/schedule", {
      data: await formData(request, {
        name,
        email: `${name.replace(/\W/g, "").toLowerCase()}@example.com`,
        phone: "+31 6 1234 5678",
        date,
        time,
      }),
    });
    if (response.status() === 409) continue;
    expect(response.status(), await response.text()).toBe(201);
    return { date, time };
  }
  throw new Error("no free meeting slot found");
}

const card = (page: Page, name: string) => page.getByRole("article", { name });
const toast = (page: Page) => page.locator("[data-toast-region] [data-variant]");

async function openDashboard(page: Page) {
  await page.goto("/admin/leads");
  await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();
}

async function openMeetings(page: Page) {
  await page.goto("/admin/meetings");
  await expect(page.getByRole("heading", { level: 1, name: "Meetings" })).toBeVisible();
}

/** Text of an element as rendered (innerText keeps the line breaks CSS shows). */
const renderedText = (locator: Locator) => locator.evaluate((el) => (el as HTMLElement).innerText);

test.describe("/admin/login", () => {
  test("shows the card, and the required-field messages linked to their inputs", async ({ page }) => {
    await page.goto("/admin/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
    await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
    await expect(page.getByText("Enter your credentials to access the admin panel")).toBeVisible();
    const username = page.getByLabel("Username");
    const password = page.getByLabel("Password");
    await expect(username).toHaveAttribute("placeholder", "Enter username");
    await expect(password).toHaveAttribute("placeholder", "Enter password");
    await expect(password).toHaveAttribute("type", "password");

    let loginCalls = 0;
    page.on("request", (r) => r.url().endsWith("/api/login") && loginCalls++);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Username is required")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();
    await expect(username).toHaveAttribute("aria-invalid", "true");
    await expect(username).toHaveAccessibleDescription("Username is required");
    await expect(password).toHaveAccessibleDescription("Password is required");
    await expect(username).toBeFocused();

    // Revalidated on change: typing clears the message.
    await username.fill("someone");
    await expect(page.getByText("Username is required")).toBeHidden();
    await expect(username).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Password is required")).toBeVisible();
    expect(loginCalls, "nothing is sent while a field is invalid").toBe(0);
    await expect(page).toHaveURL(/\/admin\/login\/?$/);
  });

  test("a wrong password shows the inline error and stays on the page", async ({ page }) => {
    await page.goto("/admin/login");
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Invalid username or password" })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login\/?$/);
    await expect(page.getByRole("button", { name: "Login" })).toBeEnabled();
  });

  test("a request error shows its message inline and in a destructive toast", async ({ page }) => {
    await page.route("**/api/login", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        body: JSON.stringify({
          success: false,
          message: "Too many failed login attempts. Please wait 15 minutes and try again.",
        }),
      }),
    );
    await page.goto("/admin/login");
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill("whatever");
    await page.getByRole("button", { name: "Login" }).click();
    const message = "Too many failed login attempts. Please wait 15 minutes and try again.";
    await expect(page.getByTestId("login-error")).toHaveText(message);
    await expect(toast(page)).toContainText("Login failed");
    await expect(toast(page)).toContainText(message);
    await expect(toast(page)).toHaveAttribute("data-variant", "destructive");
  });

  test("the right credentials show 'Logging in...', then the leads with a welcome toast", async ({ page }) => {
    // Hold the answer until the sending state has been seen.
    const release = await holdRequests(page, "**/api/login");
    await page.goto("/admin/login");
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("button", { name: "Logging in..." })).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/admin\/leads\/?$/);
    await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();
    await expect(toast(page)).toContainText("Login successful");
    await expect(toast(page)).toContainText("Welcome to the admin panel.");
  });

  test("a signed-in admin goes straight to the leads", async ({ page }) => {
    await signIn(page);
    await page.goto("/admin/login");
    await expect(page).toHaveURL(/\/admin\/leads\/?$/);
  });

  test("has no WCAG A/AA violations, also with the field errors shown", async ({ page }) => {
    await page.goto("/admin/login");
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await expectNoViolations(page);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Password is required")).toBeVisible();
    await expectNoViolations(page);
  });
});

test.describe("admin routes", () => {
  test("the leads page sends a visitor without a session to the login page", async ({ page }) => {
    await page.goto("/admin/leads");
    await expect(page).toHaveURL(/\/admin\/login\/?$/);
    await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();
  });

  for (const path of ["/admin/", "/admin"]) {
    test(`${path} goes to the login page, or to the leads when signed in`, async ({ page }) => {
      // The page sends the visitor on by script, which may be before its load event: wait for the
      // navigation to commit only, so that the next one does not interrupt the wait.
      await page.goto(path, { waitUntil: "commit" });
      await expect(page).toHaveURL(/\/admin\/login\/?$/);
      await signIn(page);
      await page.goto(path, { waitUntil: "commit" });
      await expect(page).toHaveURL(/\/admin\/leads\/?$/);
    });
  }

  for (const path of ["/admin/settings", "/admin/users/1", "/admin/login/extra"]) {
    test(`${path} is the 404 page`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle(/404 Page Not Found/);
    });
  }

  test("a 401 from an admin list sends the visitor to the login page", async ({ page }) => {
    await signIn(page);
    await page.route(SUBMISSIONS_LIST, (route) =>
      route.fulfill({
        status: 401,
        contentType: "application/json",
        body: JSON.stringify({ success: false, message: "Authentication required" }),
      }),
    );
    await page.goto("/admin/leads");
    await expect(page).toHaveURL(/\/admin\/login\/?$/);
  });
});

test.describe("dashboard", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test("a contact card shows its fields, 'Not provided', kept line breaks, and its status survives a reload", async ({
    page,
    request,
  }) => {
    // Several page loads and API round trips: on a busy two-core machine this can take 20 s.
    test.slow();
    const firstName = uniqueName("Ada").replace(" ", "");
    const fullName = `${firstName} Lovelace`;
    const message = "First line of the enquiry.\nSecond line.\n\nAfter a blank line.";
    await seedEnquiry(request, { firstName, lastName: "Lovelace", service: "business-launchpad", message });

    await openDashboard(page);
    const item = card(page, fullName);
    await expect(item).toBeVisible();
    await expect(item).toContainText(`${firstName.toLowerCase()}@example.com`);
    await expect(item).toContainText("New");
    await expect(item.locator("dd").nth(0)).toHaveText("Not provided");
    await expect(item.locator("dd").nth(1)).toHaveText("Business Launchpad");
    expect(await renderedText(item.getByTestId("message"))).toBe(message);
    await expect(item.getByText(/^Submitted on /)).toHaveText(
      /^Submitted on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}\s[AP]M$/,
    );

    // While the change is sending, a disabled placeholder takes the button's place.
    const release = await holdRequests(page, "**/api/admin/submissions/*");
    await item.getByRole("button", { name: "Mark as replied" }).click();
    await expect(item.getByRole("button", { name: "Updating…" })).toBeDisabled();
    release();
    await expect(toast(page)).toContainText("Status updated");
    await expect(toast(page)).toContainText("The submission status has been updated successfully.");
    await expect(item).toContainText("Replied");
    await expect(item.getByRole("button", { name: "Back to new" })).toBeEnabled();

    await page.reload();
    await expect(card(page, fullName)).toContainText("Replied");
    await card(page, fullName).getByRole("button", { name: "Back to new" }).click();
    await expect(card(page, fullName).getByRole("button", { name: "Mark as replied" })).toBeVisible();
    await page.reload();
    await expect(card(page, fullName)).toContainText("New");
  });

  test("services show their English names from the locale file; a value outside the catalogue as it is", async ({
    page,
    request,
  }) => {
    const other = uniqueName("Otto").replace(" ", "");
    const unknown = uniqueName("Una").replace(" ", "");
    await seedEnquiry(request, { firstName: other, lastName: "Other", service: "other" });
    await seedEnquiry(request, { firstName: unknown, lastName: "Unknown", service: "tax-advice" });

    await openDashboard(page);
    await expect(card(page, `${other} Other`).locator("dd").nth(1)).toHaveText("Other Services");
    await expect(card(page, `${unknown} Unknown`).locator("dd").nth(1)).toHaveText("tax-advice");
    await expect(card(page, `${other} Other`).locator("dd").nth(2)).toHaveText("English");
  });

  test("a hostile message is shown as text, never as HTML", async ({ page, request }) => {
    const firstName = uniqueName("Mallory").replace(" ", "");
    const hostile = "<img src=x onerror=alert(1)> and <script>alert(2)</script>";
    await seedEnquiry(request, { firstName, lastName: "Hacker", company: "<b>Evil</b> Corp", message: hostile });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    await openDashboard(page);
    const item = card(page, `${firstName} Hacker`);
    await expect(item.getByTestId("message")).toHaveText(hostile);
    await expect(item).toContainText("<b>Evil</b> Corp");
    await expect(item.locator("img, script, b")).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test("the meetings page shows a meeting card, and confirming it survives a reload", async ({ page, request }) => {
    // Several page loads and API round trips: on a busy two-core machine this can take 20 s.
    test.slow();
    const name = uniqueName("Grace");
    const { date, time } = await seedMeeting(request, name);

    await openMeetings(page);

    const item = card(page, name);
    await expect(item).toBeVisible();
    await expect(item).toContainText("Pending");
    // Dates in the panel's language (English here), in the site's one short format.
    await expect(item.locator("dd").nth(0)).toHaveText(formatDate("en", date, "short"));
    await expect(item.locator("dd").nth(1)).toHaveText(time);
    const phone = item.getByText("+31 6 1234 5678");
    await expect(phone).toHaveAttribute("dir", "ltr");
    await expect(item.getByText(/^Requested on /)).toHaveText(
      /^Requested on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}\s[AP]M$/,
    );

    await item.getByRole("button", { name: "Confirm Meeting" }).click();
    await expect(toast(page)).toContainText("Meeting status updated");
    await expect(toast(page)).toContainText("The meeting status has been updated successfully.");
    await expect(item).toContainText("Confirmed");

    await page.reload();
    await expect(card(page, name)).toContainText("Confirmed");
    await card(page, name).getByRole("button", { name: "Mark as Pending" }).click();
    await expect(card(page, name)).toContainText("Pending");
    await expect(card(page, name).getByRole("button", { name: "Confirm Meeting" })).toBeVisible();
  });

  test("a failed change shows a destructive 'Update failed' toast and keeps the status", async ({ page, request }) => {
    const firstName = uniqueName("Linus").replace(" ", "");
    await seedEnquiry(request, { firstName, lastName: "Failing" });
    await page.route("**/api/admin/submissions/*", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ success: false, message: "Something went wrong" }),
      }),
    );
    await openDashboard(page);
    const item = card(page, `${firstName} Failing`);
    await item.getByRole("button", { name: "Mark as replied" }).click();
    await expect(toast(page)).toContainText("Update failed");
    await expect(toast(page)).toContainText("There was a problem updating the submission status.");
    await expect(toast(page)).toHaveAttribute("data-variant", "destructive");
    await expect(item).toContainText("New");
    await expect(item.getByRole("button", { name: "Mark as replied" })).toBeEnabled();
  });

  test("a refused note is told in the panel's words, never the server's English", async ({ page, request }) => {
    const firstName = uniqueName("Noor").replace(" ", "");
    await seedEnquiry(request, { firstName, lastName: "Refused" });
    await page.route("**/api/admin/submissions/*/note", (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({ success: false, message: "Server English: note rejected" }),
      }),
    );
    await openDashboard(page);
    const item = card(page, `${firstName} Refused`);
    await item.getByRole("button", { name: "Add note" }).click();
    await item.getByLabel("Internal note").fill("Wants a call on Monday.");
    await item.getByRole("button", { name: "Save note" }).click();
    await expect(toast(page)).toContainText(en.admin.apiErrors.badRequest);
    await expect(toast(page)).not.toContainText("Server English");
    await expect(toast(page)).toHaveAttribute("data-variant", "destructive");
  });

  test("three placeholder cards while a list loads, then the empty card", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(MEETINGS_LIST, async (route) => {
      await held;
      await route.fulfill({ status: 200, contentType: "application/json", body: "[]" });
    });
    await openMeetings(page);
    const panel = page.getByRole("main");
    await expect(panel.getByTestId("placeholder-card")).toHaveCount(3);
    release();
    await expect(panel.getByText("No meetings found")).toBeVisible();
    await expect(panel.getByText("There are no meeting reservations yet.")).toBeVisible();
    await expect(panel.getByTestId("placeholder-card")).toHaveCount(0);
  });

  test("the empty and error cards of the submissions list", async ({ page }) => {
    await page.route(SUBMISSIONS_LIST, (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: "[]" }),
    );
    await openDashboard(page);
    await expect(page.getByText("No submissions found")).toBeVisible();
    await expect(page.getByText("There are no contact form submissions yet.")).toBeVisible();

    await page.unroute(SUBMISSIONS_LIST);
    await page.route(SUBMISSIONS_LIST, (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ success: false, message: "boom" }),
      }),
    );
    await page.route(MEETINGS_LIST, (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ success: false, message: "down" }),
      }),
    );
    await page.reload();
    await expect(page.getByText("Error loading submissions")).toBeVisible();
    await expect(page.getByText("Please make sure you have database access permissions.")).toBeVisible();
    await openMeetings(page);
    await expect(page.getByText("Error loading meetings")).toBeVisible();
  });

  test("'Back to the website' leads to the public site", async ({ page }) => {
    await openDashboard(page);
    await expect(page.getByRole("link", { name: "Back to the website" })).toHaveAttribute("href", "/");
  });

  test("has no WCAG A/AA violations with cards in both lists", async ({ page, request }) => {
    // Several page loads and API round trips: on a busy two-core machine this can take 20 s.
    test.slow();
    const firstName = uniqueName("Axel").replace(" ", "");
    await seedEnquiry(request, { firstName, lastName: "Audit", company: "Audit BV" });
    const name = uniqueName("Ines");
    await seedMeeting(request, name);

    await openDashboard(page);
    await expect(card(page, `${firstName} Audit`)).toBeVisible();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await expectNoViolations(page);
    await openMeetings(page);
    await expect(card(page, name)).toBeVisible();
    await expectNoViolations(page);
  });
});

// Logging out ends this session only (the other tests' sessions stay); it still runs alone
// (Playwright's exclusive lock waits until no other test is running), as it did when logout ended
// every session of the admin.
test("logging out ends the session", { lock: "-exclusive-" }, async ({ page }) => {
  await signIn(page);
  await openDashboard(page);
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/admin\/login\/?$/);
  await page.goto("/admin/leads");
  await expect(page).toHaveURL(/\/admin\/login\/?$/);
  expect((await page.request.get("/api/user")).status()).toBe(401);
});
