import type { Browser, Page, Route } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import team from "../src/data/team.json" with { type: "json" };
import type { AdminConsultant } from "../src/shared/api/consultants";
import { ADMIN, keepScreenshot, skipSplash, toasts } from "./helpers";
import { expectNoViolations } from "./axe";
import { withConsultants } from "./consultants";

/**
 * The panel's Consultants page (issue 43): each consultant with their account, whether they take
 * meetings and their hours; pausing, own hours and linking a team member. Runs on the consultants'
 * own server (playwright.config.ts) beside booking-consultant.spec.ts, which needs Pieter and Kaveh
 * taking meetings with the office's hours all along: so this spec changes nobody on the server.
 * The page is read as the server answers it; its changes (PATCH, POST) are answered here and the
 * requests checked, and the server's list is checked unchanged after. The API itself is tested in
 * functions/_tests/consultant-hours.test.ts and meeting-staff.test.ts.
 */

const COPY = { en, nl, fa } as const;
type Lang = keyof typeof COPY;
const [NASRIN, PIETER, KAVEH] = team.map((m) => m.id);
const nameOf = (id: string, lang: Lang) => team.find((m) => m.id === id)!.name[lang];
const SHOTS = "/work/notes/shots";

withConsultants([PIETER, KAVEH]);

async function openPage(browser: Browser, baseURL: string, lang: Lang) {
  const context = await browser.newContext({ baseURL });
  await skipSplash(context);
  await context.addInitScript((language) => localStorage.setItem("admin-language", language), lang);
  expect((await context.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  const page = await context.newPage();
  return { context, page };
}

const row = (page: Page, id: string) => page.locator(`[data-consultant="${id}"]`);

/** The server's consultants, as the page's own request reads them. */
async function serverList(page: Page): Promise<AdminConsultant[]> {
  return (await (await page.request.get("/api/admin/consultants")).json()) as AdminConsultant[];
}

for (const lang of ["en", "nl", "fa"] as const) {
  test(`the page lists each consultant with their account, state and hours (${lang}); axe finds nothing`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const c = COPY[lang].admin.consultants;
    const { context, page } = await openPage(browser, baseURL!, lang);
    await page.goto("/admin/consultants");
    await expect(page.getByRole("heading", { level: 1, name: c.title })).toBeVisible({ timeout: 60_000 });
    await expect(page.locator("html")).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
    const nav = page.getByRole("navigation", { name: COPY[lang].admin.layout.nav.label });
    await expect(nav.locator('[aria-current="page"]')).toHaveAttribute("href", "/admin/consultants");

    for (const id of [NASRIN, PIETER, KAVEH]) {
      await expect(row(page, id)).toContainText(nameOf(id, lang));
      await expect(row(page, id)).toContainText(c.active);
      await expect(row(page, id).getByTestId("hours")).toHaveText(c.officeHours);
      await expect(row(page, id).getByRole("button", { name: c.pause })).toBeVisible();
    }
    // The e2e admin is Nasrin's account; the others are the accounts e2e/consultants.ts linked.
    await expect(row(page, NASRIN)).toContainText(ADMIN.username);
    await expect(row(page, PIETER)).toContainText(/pieter-/);
    // Every team member is linked: the page says so, and how a new one is added.
    const link = page.getByTestId("link-consultant");
    await expect(link).toContainText(c.allLinked);
    await expect(link).toContainText("src/data/team.json");

    // The hours editor, opened and closed again without saving.
    const toggle = row(page, PIETER).getByRole("button", { name: c.changeHours });
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const editor = row(page, PIETER).getByTestId("hours-editor");
    await editor.getByRole("button", { name: c.ownHours }).click();
    await expect(editor.locator("li[data-weekday]")).toHaveCount(7);
    // Times in the panel's digits: Persian in Persian.
    const firstTime = editor.locator("li[data-weekday] select option").first();
    await expect(firstTime).toHaveText(lang === "fa" ? /^[۰-۹]{2}:[۰-۹]{2}$/ : /^\d/);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await keepScreenshot(page, { path: `${SHOTS}/consultants-${lang}-${width}-editor.png`, fullPage: true });
      await expectNoViolations(page);
    }
    await toggle.click();
    await expect(editor).toHaveCount(0);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await keepScreenshot(page, { path: `${SHOTS}/consultants-${lang}-${width}.png`, fullPage: true });
      await expectNoViolations(page);
    }
    const listed = await serverList(page);
    expect(listed.filter((x) => x.active && x.hours === null).map((x) => x.id)).toEqual(
      expect.arrayContaining([NASRIN, PIETER, KAVEH]),
    );
    await context.close();
  });
}

test("pause, resume and own hours send their change and show it (answered here)", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const c = en.admin.consultants;
  const { context, page } = await openPage(browser, baseURL!, "en");
  const sent: unknown[] = [];
  await page.route(`**/api/admin/consultants/${KAVEH}`, async (route: Route) => {
    const body = route.request().postDataJSON() as Record<string, unknown>;
    sent.push(body);
    await route.fulfill({ json: { consultant: KAVEH, ...body } });
  });
  await page.goto("/admin/consultants");
  const kaveh = row(page, KAVEH);
  await expect(kaveh).toContainText(c.active, { timeout: 60_000 });

  await kaveh.getByRole("button", { name: c.pause }).click();
  await expect(kaveh).toContainText(c.paused);
  await expect(toasts(page).filter({ hasText: `${nameOf(KAVEH, "en")} is paused` })).toHaveCount(1);
  await kaveh.getByRole("button", { name: c.resume }).click();
  await expect(kaveh).toContainText(c.active);

  await kaveh.getByRole("button", { name: c.changeHours }).click();
  const editor = kaveh.getByTestId("hours-editor");
  await editor.getByRole("button", { name: c.ownHours }).click();
  await editor.locator('li[data-weekday="1"] select').first().selectOption("10:00");
  await editor.getByRole("button", { name: c.saveHours }).click();
  await expect(editor).toHaveCount(0);
  await expect(kaveh.getByTestId("hours")).toContainText(c.ownHours);
  await expect(kaveh.getByTestId("hours")).toContainText(en.admin.availability.weekdays["1"]);

  await kaveh.getByRole("button", { name: c.changeHours }).click();
  await expect(editor.getByRole("button", { name: c.ownHours })).toHaveAttribute("aria-pressed", "true");
  await editor.getByRole("button", { name: c.officeHours }).click();
  await editor.getByRole("button", { name: c.saveHours }).click();
  await expect(kaveh.getByTestId("hours")).toHaveText(c.officeHours);

  expect(sent.slice(0, 2)).toEqual([{ active: false }, { active: true }]);
  const own = (sent[2] as { hours: { weekday: number; opens: string }[] }).hours;
  expect(own.find((h) => h.weekday === 1)).toMatchObject({ opens: "10:00" });
  expect(sent[3]).toEqual({ hours: null });
  // Nothing reached the server.
  expect((await serverList(page)).find((x) => x.id === KAVEH)).toMatchObject({ active: true, hours: null });
  await context.close();
});

test("a team member who is not a consultant yet is linked to an account (answered here)", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const c = en.admin.consultants;
  const { context, page } = await openPage(browser, baseURL!, "en");
  let linked: { consultant: string; userId: number } | null = null;
  // The page is shown Kaveh as not linked yet, until the link is posted.
  await page.route("**/api/admin/consultants", async (route: Route) => {
    if (route.request().method() === "POST") {
      linked = route.request().postDataJSON() as { consultant: string; userId: number };
      return route.fulfill({ status: 201, json: linked });
    }
    const response = await route.fetch();
    const list = (await response.json()) as AdminConsultant[];
    return route.fulfill({ response, json: linked ? list : list.filter((x) => x.id !== KAVEH) });
  });
  await page.goto("/admin/consultants");
  await expect(row(page, PIETER)).toBeVisible({ timeout: 60_000 });
  await expect(row(page, KAVEH)).toHaveCount(0);
  const form = page.getByTestId("link-consultant");
  const member = form.getByLabel(c.member);
  await expect(member.locator("option")).toHaveText([c.choose, nameOf(KAVEH, "en")]);
  await member.selectOption(KAVEH);
  const account = form.getByLabel(c.accountField);
  // Kaveh's account is free (the page thinks he is no consultant); Nasrin's and Pieter's are not offered.
  const options = await account.locator("option").allTextContents();
  expect(options.some((o) => o.startsWith(`${ADMIN.username} (`))).toBe(false);
  expect(options.some((o) => o.startsWith("pieter-"))).toBe(false);
  const kavehAccount = options.find((o) => o.startsWith("kaveh-"))!;
  await account.selectOption({ label: kavehAccount });
  await expectNoViolations(page, '[data-testid="link-consultant"]');
  await form.getByRole("button", { name: c.link }).click();
  await expect(toasts(page).filter({ hasText: `${nameOf(KAVEH, "en")} is a consultant now` })).toHaveCount(1);
  await expect(row(page, KAVEH)).toBeVisible();
  await expect(form).toContainText(c.allLinked);
  expect(linked).toMatchObject({ consultant: KAVEH, userId: expect.any(Number) });
  await context.close();
});
