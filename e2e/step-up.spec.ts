import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { expectNoViolations } from "./axe";
import { ADMIN, keepScreenshot, uniqueTag } from "./helpers";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };

/**
 * Step-up and invitations in a real browser: the admin types an invitation, the panel asks in place
 * for the password (a wrong one first), keeps what was typed and sends the invitation once the proof
 * is made; the invitee opens the link, chooses a password on the invitation page and signs in. Both
 * are looked at in English, Dutch and Persian at phone and desktop widths.
 */
const COPY = { en, nl, fa } as const;

/** A browser page signed in as the test admin, the panel in `lang`. */
async function adminPage(browser: Browser, baseURL: string, lang: keyof typeof COPY): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  await context.addInitScript((language) => localStorage.setItem("admin-language", language), lang);
  const res = await context.request.post("/api/login", { data: ADMIN });
  expect(res.status(), await res.text()).toBe(200);
  return context.newPage();
}

const narrowerThan = (page: Page, selector: string) =>
  page.evaluate(
    (sel) =>
      [...document.querySelectorAll(`${sel} *`)]
        .filter(
          (e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 || e.getBoundingClientRect().left < -0.5,
        )
        .map((e) => `${e.tagName} ${e.textContent?.slice(0, 40)}`),
    selector,
  );

for (const lang of ["en", "nl", "fa"] as const) {
  test(`inviting asks for the password in place, keeps the form, and the invitee sets a password (${lang})`, async ({
    browser,
    baseURL,
  }, testInfo) => {
    test.setTimeout(240_000);
    const c = COPY[lang].admin;
    const page = await adminPage(browser, baseURL!, lang);
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto("/admin/security#people");
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await expect(page.locator("html")).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
    const username = `guest${lang}${uniqueTag()}`;
    const form = page.locator("#people");
    await form.getByLabel(c.people.username, { exact: true }).fill(username);
    await form.getByLabel(c.people.email, { exact: true }).fill(`${username}@example.com`);
    await form.getByLabel(c.people.role, { exact: true }).selectOption("editor");
    await form.getByLabel(c.people.language, { exact: true }).selectOption(lang);
    await form.getByRole("button", { name: c.people.invite, exact: true }).click();

    const dialog = page.getByRole("dialog", { name: c.stepUp.title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel(c.stepUp.password)).toBeFocused();
    await dialog.getByLabel(c.stepUp.password).fill("not the password");
    await dialog.getByRole("button", { name: c.stepUp.submit }).click();
    await expect(dialog.getByText(c.stepUp.wrongPassword)).toBeVisible();
    await expectNoViolations(page);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await narrowerThan(page, "dialog"), `dialog wider than ${width}px`).toEqual([]);
      await keepScreenshot(page, { path: testInfo.outputPath(`step-up-${lang}-${width}.png`) });
    }
    // The form behind the dialog kept what was typed.
    await expect(form.getByLabel(c.people.username, { exact: true })).toHaveValue(username);
    await dialog.getByLabel(c.stepUp.password).fill(ADMIN.password);
    await dialog.getByRole("button", { name: c.stepUp.submit }).click();
    await expect(dialog).toBeHidden();
    const shown = page.locator("#people code");
    await expect(shown).toContainText(`/admin/invitation?lang=${lang}#`);
    // The link names the site's own address (SITE_URL); the test server answers on another.
    const shownLink = new URL((await shown.textContent())!.trim());
    const link = `${shownLink.pathname}${shownLink.search}${shownLink.hash}`;
    await keepScreenshot(page, { path: testInfo.outputPath(`invited-${lang}-1280.png`), fullPage: true });

    // The invitee, in a browser of their own.
    const invitee = await (await browser.newContext({ baseURL })).newPage();
    for (const width of [390, 1280]) {
      await invitee.setViewportSize({ width, height: 900 });
      await invitee.goto(link);
      await expect(invitee.getByRole("heading", { name: c.invitation.title })).toBeVisible();
      await expect(invitee.locator("html")).toHaveAttribute("lang", lang);
      await expect(invitee.getByText(username)).toBeVisible();
      expect(await narrowerThan(invitee, "main"), `invitation wider than ${width}px`).toEqual([]);
      await keepScreenshot(invitee, { path: testInfo.outputPath(`invitation-${lang}-${width}.png`), fullPage: true });
    }
    await expectNoViolations(invitee);
    const chosen = `${username} chose a long password`;
    await invitee.getByLabel(c.security.password.new, { exact: true }).fill(chosen);
    await invitee.getByLabel(c.security.password.repeat).fill("something else entirely");
    await invitee.getByRole("button", { name: c.invitation.submit }).click();
    await expect(invitee.getByText(c.security.password.mismatch)).toBeVisible();
    await invitee.getByLabel(c.security.password.repeat).fill(chosen);
    await invitee.getByRole("button", { name: c.invitation.submit }).click();
    await expect(invitee.getByText(c.invitation.done)).toBeVisible();
    await expect(invitee).not.toHaveURL(/#/);
    await keepScreenshot(invitee, { path: testInfo.outputPath(`invitation-done-${lang}-390.png`) });

    // The same link again (a new page load, not a jump within this one): a clear sentence, not an error page.
    await invitee.goto("about:blank");
    await invitee.goto(link);
    await expect(invitee.getByText(c.invitation.used)).toBeVisible();
    await keepScreenshot(invitee, { path: testInfo.outputPath(`invitation-used-${lang}-390.png`) });
    const signIn = await invitee.request.post("/api/login", { data: { username, password: chosen } });
    expect(signIn.status()).toBe(200);
  });
}
