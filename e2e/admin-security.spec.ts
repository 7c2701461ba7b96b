import { readFileSync } from "node:fs";
import type { Browser, BrowserContext } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import { expectNoViolations } from "./axe";
import { ADMIN, keepScreenshot, uniqueTag } from "./helpers";
import { inviteAccount } from "./invite";

/**
 * The Security page (/admin/security) and the audit record (/admin/audit): ending someone's session
 * from the page signs them out on their next request, a password change ends one's other sessions,
 * an export made here is found in the record by its filters and in its CSV, and an editor sees
 * neither the accounts nor the record. Screenshots at 390 and 1280 px in each language go to the
 * test's folder in test-results/ (security-*.png, audit-*.png).
 */

const COPY = { en, nl, fa } as const;
type Role = "admin" | "editor";

/** A new account, invited by the test admin (each test works on its own people). */
async function newAccount(browser: Browser, baseURL: string, role: Role) {
  const context = await browser.newContext({ baseURL });
  expect((await context.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  const username = `${role}${uniqueTag()}`;
  const password = await inviteAccount(context.request, ADMIN.password, { username, role }, baseURL);
  await context.close();
  return { username, password };
}

/** A browser of its own, signed in as this person (a session of its own). */
async function signedIn(browser: Browser, baseURL: string, who: { username: string; password: string }) {
  const context = await browser.newContext({ baseURL });
  const res = await context.request.post("/api/login", { data: who });
  expect(res.status(), await res.text()).toBe(200);
  return context;
}

const userStatus = async (context: BrowserContext) => (await context.request.get("/api/user")).status();

test("an admin ends an editor's session from the Security page; the editor's next request is refused", async ({
  browser,
  baseURL,
}) => {
  const editor = await newAccount(browser, baseURL!, "editor");
  const editorBrowser = await signedIn(browser, baseURL!, editor);
  expect(await userStatus(editorBrowser)).toBe(200);

  const adminBrowser = await signedIn(browser, baseURL!, ADMIN);
  const page = await adminBrowser.newPage();
  await page.goto("/admin/security");
  const row = page.getByTestId("account").filter({ hasText: editor.username });
  await expect(row.getByText(/Last sign-in/)).toBeVisible();
  await row.getByText("1 live session").click();
  await row.getByRole("button", { name: "End session" }).click();
  await expect(row.getByText("No live sessions")).toBeVisible();

  expect(await userStatus(editorBrowser)).toBe(401);
  const editorPage = await editorBrowser.newPage();
  await editorPage.goto("/admin/security");
  await expect(editorPage).toHaveURL(/\/admin\/login$/);
  await Promise.all([adminBrowser.close(), editorBrowser.close()]);
});

test("a password change ends the person's other session and keeps this one", async ({ browser, baseURL }) => {
  const person = await newAccount(browser, baseURL!, "editor");
  const here = await signedIn(browser, baseURL!, person);
  const elsewhere = await signedIn(browser, baseURL!, person);
  const page = await here.newPage();
  await page.goto("/admin/security");
  const sessions = page.locator("#sessions");
  await expect(sessions.getByTestId("session")).toHaveCount(2);
  await expect(sessions.getByText("This session")).toHaveCount(1);

  const form = page.locator("#password");
  await form.getByLabel("Current password").fill(person.password);
  await form.getByLabel("New password", { exact: true }).fill("a brand new passphrase");
  await form.getByLabel("New password again").fill("a brand new passphrasE");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("The two new passwords are not the same.")).toBeVisible();
  await expect(form.getByLabel("New password again")).toBeFocused();
  expect(await userStatus(elsewhere)).toBe(200);

  await form.getByLabel("New password again").fill("a brand new passphrase");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByRole("status")).toContainText("Your other sessions have been ended");
  expect(await userStatus(elsewhere)).toBe(401);
  expect(await userStatus(here)).toBe(200);
  await expect(sessions.getByTestId("session")).toHaveCount(1);
  await expect(sessions.getByText("You are signed in here only.")).toBeVisible();

  const again = await signedIn(browser, baseURL!, { username: person.username, password: "a brand new passphrase" });
  await Promise.all([here.close(), elsewhere.close(), again.close()]);
});

test("the audit record shows an export made here, finds it by action and person, and has it in its CSV", async ({
  browser,
  baseURL,
}) => {
  const admin = await newAccount(browser, baseURL!, "admin");
  const context = await signedIn(browser, baseURL!, admin);
  const exported = await context.request.get("/api/admin/export/submissions?stage=new");
  expect(exported.status()).toBe(200);

  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/admin/audit");
  const table = page.getByTestId("audit-table");
  const mine = table.getByTestId("audit-entry").filter({ hasText: admin.username });
  await expect(mine.filter({ hasText: "Exported" }).filter({ hasText: "Leads" })).toHaveCount(1);

  // "Who exported the leads today?"
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel("Action").selectOption({ label: "Exported" });
  await page.getByLabel("From").fill(today);
  await page.getByLabel("To", { exact: true }).fill(today);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`action=export&from=${today}&to=${today}$`));
  const rows = table.getByTestId("audit-entry");
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allTextContents()) expect(text).toContain("Exported");
  await expect(rows.filter({ hasText: admin.username }).filter({ hasText: "Leads" })).toHaveCount(1);

  await page.getByLabel("Person").fill(admin.username);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("with filters");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const csv = readFileSync(await (await download).path(), "utf8");
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toContain("at,actor,place,action,target");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`${admin.username},`);
  expect(lines[1]).toContain(",export,enquiries,");

  // The download is itself an entry: the record (its filters in the address) now shows it too.
  await page.reload();
  await expect(rows.filter({ hasText: "Audit record" })).toHaveCount(1);
  await context.close();
});

test("an editor has the Security page without the accounts, and is told the audit record is not theirs", async ({
  browser,
  baseURL,
}) => {
  const editor = await newAccount(browser, baseURL!, "editor");
  const context = await signedIn(browser, baseURL!, editor);
  const page = await context.newPage();
  await page.goto("/admin/texts");
  await page.getByRole("link", { name: "Security" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
  await expect(page.locator("#password")).toBeVisible();
  await expect(page.locator("#sessions").getByTestId("session")).toHaveCount(1);
  await expect(page.locator("#accounts, #people")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Audit record" })).toHaveCount(0);

  await page.goto("/admin/audit");
  await expect(page.getByRole("heading", { name: "For admins only" })).toBeVisible();
  await expect(page.getByTestId("audit-table")).toHaveCount(0);
  expect((await context.request.get("/api/admin/audit")).status()).toBe(403);
  await context.close();
});

test("the server's refusals appear in the panel's words, not in its English", async ({ browser, baseURL }) => {
  const editor = await newAccount(browser, baseURL!, "editor");
  // A second admin, so that the page offers the test admin's own role change (it never does to the last).
  await newAccount(browser, baseURL!, "admin");
  const context = await signedIn(browser, baseURL!, ADMIN);
  const page = await context.newPage();
  await page.goto("/admin/security");
  const accounts = page.locator("#accounts");
  const row = page.getByTestId("account").filter({ hasText: editor.username });
  await expect(row).toBeVisible();

  // An account removed meanwhile (in another tab): 404, said as such, and the list reloads.
  const id = await page.evaluate(async (name) => {
    const users = (await (await fetch("/api/admin/users")).json()) as { id: number; username: string }[];
    return users.find((u) => u.username === name)!.id;
  }, editor.username);
  const removed = await context.request.delete(`/api/admin/users/${id}`, { headers: { origin: baseURL! } });
  expect(removed.status()).toBe(200);
  await row.getByRole("button", { name: "Remove account" }).click();
  await row.getByRole("group").getByRole("button", { name: "Remove account" }).click();
  await expect(accounts.getByRole("alert")).toHaveText(en.admin.security.accounts.gone);
  await expect(row).toHaveCount(0);

  // The last admin after a race (the other admin demoted meanwhile): the server's 409 is played back
  // here (functions/_tests/sessions.test.ts proves the server refuses it).
  await page.route("**/api/admin/users/*", (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({
          status: 409,
          contentType: "application/json",
          body: JSON.stringify({ success: false, message: "The last admin cannot be removed or made an editor." }),
        })
      : route.fallback(),
  );
  const me = page
    .getByTestId("account")
    .filter({ hasText: `${ADMIN.username}` })
    .filter({ hasText: "you" });
  await me.getByRole("combobox").selectOption("editor");
  await me.getByRole("button", { name: "Change role" }).click();
  await expect(accounts.getByRole("alert")).toHaveText(en.admin.security.accounts.lastAdmin);
  await expect(me.getByRole("combobox")).toHaveValue("admin");
  await context.close();
});

for (const lang of ["en", "nl", "fa"] as const) {
  test(`the Security page and the audit record in ${lang}: right direction, screenshots, axe`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const copy = COPY[lang].admin;
    const admin = await newAccount(browser, baseURL!, "admin");
    const context = await signedIn(browser, baseURL!, admin);
    const language = await context.request.patch("/api/user", {
      data: { language: lang },
      headers: { origin: baseURL! },
    });
    expect(language.status(), await language.text()).toBe(200);
    await context.request.get("/api/admin/export/meetings");
    const page = await context.newPage();
    for (const [path, name, title] of [
      ["/admin/security", "security", copy.security.title],
      ["/admin/audit", "audit", copy.audit.title],
    ] as const) {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        await expect(page.locator("html")).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
        await page.waitForLoadState("networkidle");
        if (name === "security") await expect(page.locator("#accounts [data-testid=account]").first()).toBeVisible();
        else
          await expect(
            page
              .getByTestId(/^audit-(entry|card)$/)
              .filter({ visible: true })
              .first(),
          ).toBeVisible();
        await keepScreenshot(page, { path: test.info().outputPath(`${name}-${lang}-${width}.png`), fullPage: true });
        // Nothing wider than the window (Dutch compounds, long names, Persian).
        const wide = await page.evaluate((w) => {
          const out: string[] = [];
          for (const el of document.querySelectorAll<HTMLElement>("main *")) {
            const box = el.getBoundingClientRect();
            if (box.width > 0 && (box.right > w + 0.5 || box.left < -0.5))
              out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(box.left)}–${Math.round(box.right)}`);
          }
          return out.slice(0, 5);
        }, width);
        expect(wide, `${path} wider than ${width} px`).toEqual([]);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `${path} scrolls sideways`,
        ).toBeLessThanOrEqual(width);
        if (lang !== "nl") await expectNoViolations(page);
      }
    }
    if (lang === "fa") {
      // The dates in Persian digits.
      await expect(page.getByTestId("audit-entry").first()).toContainText(/[۰-۹]/);
    }
    await context.close();
  });
}
