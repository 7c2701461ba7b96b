import type { Browser } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import { expectNoViolations } from "./axe";
import { ADMIN, keepScreenshot, skipSplash, uniqueTag } from "./helpers";
import { inviteAccount } from "./invite";

/**
 * An editor who opens an admin-only page (the leads, the meetings, Sources, availability, the
 * privacy tools, the audit record) is told, in the panel's language, that the page is for admins,
 * with the way to the site's texts, never "could not be loaded". The page asks the server nothing
 * an editor is refused. And the Security page as the admin sees it: each account's second factors,
 * no actions the server would refuse, each session's country (never its network). Screenshots at
 * 390 and 1280 px in each language go to the test's folder in test-results/ (admins-only-*.png,
 * accounts-*.png).
 */

const COPY = { en, nl, fa } as const;
const ADMIN_ONLY = [
  "/admin/leads",
  "/admin/meetings",
  "/admin/sources",
  "/admin/availability",
  "/admin/consultants",
  "/admin/privacy",
  "/admin/audit",
];

/** A new account, invited by the test admin (each test works on its own people). */
async function newAccount(browser: Browser, baseURL: string, role: "admin" | "editor") {
  const context = await browser.newContext({ baseURL });
  expect((await context.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  const username = `${role}${uniqueTag()}`;
  const password = await inviteAccount(context.request, ADMIN.password, { username, role }, baseURL);
  await context.close();
  return { username, password };
}

test("an editor on each admin-only page is told it is for admins, in the panel's language", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(600_000);
  const editor = await newAccount(browser, baseURL!, "editor");
  const context = await browser.newContext({ baseURL });
  await skipSplash(context);
  expect((await context.request.post("/api/login", { data: editor })).status()).toBe(200);
  const page = await context.newPage();
  const refused: string[] = [];
  page.on("response", (res) => {
    if (res.url().includes("/api/") && res.status() === 403) refused.push(res.url());
  });

  for (const lang of ["en", "nl", "fa"] as const) {
    const c = COPY[lang].admin.common.adminsOnly;
    const set = await context.request.patch("/api/user", { data: { language: lang }, headers: { origin: baseURL! } });
    expect(set.status(), await set.text()).toBe(200);
    for (const path of ADMIN_ONLY) {
      await page.goto(path);
      const notice = page.getByTestId("admins-only");
      await expect(notice.getByRole("heading", { level: 1, name: c.title })).toBeVisible({ timeout: 60_000 });
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      // Said once, on a page of several islands too.
      await expect(page.getByTestId("admins-only")).toHaveCount(1);
      await expect(notice).toContainText(c.text);
      await expect(notice.getByRole("link", { name: c.link })).toHaveAttribute("href", "/admin/texts");
      await expect(page.getByText(COPY[lang].admin.sources.loadError)).toHaveCount(0);
      await expect(page.getByText(COPY[lang].admin.availability.loadError)).toHaveCount(0);
      await expect(page.getByRole("alert")).toHaveCount(0);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        if (path === "/admin/sources")
          await keepScreenshot(page, { path: test.info().outputPath(`admins-only-sources-${lang}-${width}.png`) });
        await expectNoViolations(page);
      }
    }
  }
  // Nothing was asked of the server that it refuses an editor.
  expect(refused).toEqual([]);
  await page.goto("/admin/sources");
  await page.getByRole("link", { name: fa.admin.common.adminsOnly.link }).click();
  await expect(page).toHaveURL(/\/admin\/texts$/);
  await context.close();
});

test("the Security page: second factors, a session's country, no action the server refuses, the password button in place", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(600_000);
  const admin = await newAccount(browser, baseURL!, "admin");
  const editor = await newAccount(browser, baseURL!, "editor");
  const context = await browser.newContext({ baseURL });
  await skipSplash(context);
  expect((await context.request.post("/api/login", { data: admin })).status()).toBe(200);
  const page = await context.newPage();
  // The walk-through's case, the only admin beside an editor: other tests' admins (the shared test
  // server has several) are left out of the list the page receives. The server's answer is otherwise real.
  await page.route("**/api/admin/users", async (route) => {
    if (route.request().method() !== "GET") return route.fallback();
    const response = await route.fetch();
    const accounts = (await response.json()) as { username: string; role: string }[];
    await route.fulfill({
      response,
      json: accounts.filter((a) => a.role === "editor" || a.username === admin.username),
    });
  });

  for (const lang of ["en", "nl", "fa"] as const) {
    const c = COPY[lang].admin.security;
    const set = await context.request.patch("/api/user", { data: { language: lang }, headers: { origin: baseURL! } });
    expect(set.status(), await set.text()).toBe(200);
    await page.goto("/admin/security");
    const mine = page.getByTestId("account").filter({ hasText: admin.username });
    const theirs = page.getByTestId("account").filter({ hasText: editor.username });
    await expect(mine.getByText(c.accounts.lastAdmin)).toBeVisible({ timeout: 60_000 });
    await expect(mine.getByRole("combobox")).toHaveCount(0);
    await expect(mine.getByRole("button")).toHaveCount(0);
    await expect(theirs.getByRole("combobox")).toHaveCount(1);
    await expect(theirs.getByRole("button", { name: c.accounts.change })).toBeVisible();
    await expect(theirs.getByRole("button", { name: c.accounts.remove })).toBeVisible();
    await expect(theirs.getByTestId("account-factors")).toContainText(c.accounts.noFactor);
    await expect(mine.getByTestId("account-factors")).toContainText(c.accounts.factors);
    // Locally the platform reports no country: the session says so, and never shows its network.
    await expect(page.locator("#sessions").getByTestId("session").first()).toContainText(c.sessions.unknownPlace);
    await expect(page.getByText(/\d+\.\d+\.\d+\.0\/24|::\/48/)).toHaveCount(0);

    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      // The password's button sits under its fields, at their start edge.
      const field = (await page.locator("#password input[type=password]").last().boundingBox())!;
      const button = (await page.locator("#password button[type=submit]").boundingBox())!;
      const start = lang === "fa" ? [field.x + field.width, button.x + button.width] : [field.x, button.x];
      expect(Math.abs(start[0] - start[1]), `${lang} ${width}: button's start edge`).toBeLessThan(1);
      expect(button.y - (field.y + field.height)).toBeLessThan(60);
      await keepScreenshot(page.locator("#password"), {
        path: test.info().outputPath(`password-${lang}-${width}.png`),
      });
      await keepScreenshot(page.locator("#accounts"), {
        path: test.info().outputPath(`accounts-${lang}-${width}.png`),
      });
      await keepScreenshot(page.locator("#sessions"), {
        path: test.info().outputPath(`sessions-${lang}-${width}.png`),
      });
      if (width === 1280) await expectNoViolations(page);
    }
  }
  await context.close();
});
