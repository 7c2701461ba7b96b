import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { ADMIN, keepScreenshot, seedLead as seed, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * The lead desk's board or list kept in the address (?view=board) through reload and Back, the
 * lost reasons edited in the panel, a person's timeline paged by "Show older entries", and how
 * they look at phone and desktop widths in each language. Every record carries this run's own tag.
 */

const signIn = async (page: Page, lang = "en") => {
  expect((await page.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  // This browser's choice, not the shared admin account's (other specs sign in as the same admin).
  await page.addInitScript((language) => localStorage.setItem("admin-language", language), lang);
};

test("the board is kept in the address: reload and Back keep the view chosen", async ({ page, request }) => {
  const tag = uniqueTag();
  await seed(request, `${tag} view`, tag);
  await signIn(page);
  await page.goto(`/admin/leads?q=${tag}`);
  const views = page.getByRole("group", { name: "Show leads as" });
  await expect(page.locator('main article[id^="enquiry-"]')).toHaveCount(1);
  await views.getByRole("button", { name: "Board" }).click();
  await expect(page).toHaveURL(/[?&]view=board/);
  await expect(page.getByTestId("lead-board")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("lead-board")).toBeVisible();
  await expect(views.getByRole("button", { name: "Board" })).toHaveAttribute("aria-pressed", "true");
  await views.getByRole("button", { name: "List" }).click();
  await expect(page).not.toHaveURL(/view=/);
  await expect(page.getByTestId("lead-board")).toHaveCount(0);
  await page.goBack();
  await expect(page.getByTestId("lead-board")).toBeVisible();
  await expect(page).toHaveURL(/[?&]view=board/);
  // The card's status button speaks in stages.
  await views.getByRole("button", { name: "List" }).click();
  await expect(page.getByRole("button", { name: "Mark as replied" })).toBeVisible();
});

test("a lost reason is added in three languages, renamed and archived in the panel", async ({ page }) => {
  const tag = uniqueTag().slice(-6);
  await signIn(page);
  await page.goto("/admin/leads");
  const editor = page.getByTestId("lost-reasons");
  await expect(editor.getByTestId("lost-reason-rows").locator("li").first()).toBeVisible();
  const form = editor.getByTestId("lost-reason-new");
  await form.getByLabel("Label (English)").fill(`Too far ${tag}`);
  await form.getByRole("button", { name: "Add reason" }).click();
  // Nothing is sent with a language missing; what was typed stays.
  await expect(form.getByText("Fill in this language too.")).toHaveCount(2);
  await expect(form.getByLabel("Label (English)")).toHaveValue(`Too far ${tag}`);
  await form.getByLabel("Label (Dutch)").fill(`Te ver ${tag}`);
  await form.getByLabel("Label (Persian)").fill(`خیلی دور ${tag}`);
  await form.getByRole("button", { name: "Add reason" }).click();
  const added = editor.locator("li").filter({ hasText: `Too far ${tag}` });
  await expect(added).toBeVisible();
  // The row by its id: while it is renamed its labels are in fields, not text.
  const row = editor.getByTestId((await added.getAttribute("data-testid"))!);
  await expect(form.getByLabel("Label (English)")).toHaveValue("");
  await expect(row.locator('dd[lang="fa"]')).toHaveAttribute("dir", "rtl");

  await row.getByRole("button", { name: "Rename" }).click();
  await row.getByLabel("Label (English)").fill(`Too far away ${tag}`);
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText(`Too far away ${tag}`);
  await row.getByRole("button", { name: "Archive" }).click();
  await expect(row.getByText("archived")).toBeVisible();
  await expectNoViolations(page);
  await page.reload();
  await expect(row.getByText("archived")).toBeVisible();
  await expect(row.getByRole("button", { name: "Offer again" })).toBeVisible();
});

for (const lang of ["en", "nl", "fa"] as const) {
  test(`the lost reasons, a card and a long timeline at 390 and 1280 px in ${lang}`, async ({ page, request }) => {
    test.slow();
    const tag = uniqueTag();
    const lead = await seed(request, `${tag} shot`, tag);
    await signIn(page, lang);
    // 205 notes: more than a page of the person's timeline.
    for (let i = 0; i < 205; i += 1) {
      const res = await page.request.post(`/api/admin/people/${lead.reference}/notes`, { data: { note: `Note ${i}` } });
      expect(res.status()).toBe(201);
    }
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/admin/leads?q=${tag}`);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      const card = page.locator(`#enquiry-${lead.id}`);
      await expect(card).toBeVisible();
      // The visitor wrote English: it reads left to right in every panel language, its full stop last.
      await expect(card.getByTestId("message")).toHaveAttribute("dir", "ltr");
      await keepScreenshot(card, { path: `test-results/desk-gaps-card-${lang}-${width}.png` });
      const editor = page.getByTestId("lost-reasons");
      await expect(editor.getByTestId("lost-reason-rows").locator("li").first()).toBeVisible();
      await editor.scrollIntoViewIfNeeded();
      await keepScreenshot(editor, { path: `test-results/desk-gaps-reasons-${lang}-${width}.png` });
      await keepScreenshot(page, { path: `test-results/desk-gaps-figures-${lang}-${width}.png` });

      await page.goto(`/admin/person?ref=${lead.reference}`);
      const older = page.getByTestId("timeline-older");
      await expect(older).toBeVisible();
      await older.scrollIntoViewIfNeeded();
      await keepScreenshot(page, { path: `test-results/desk-gaps-older-${lang}-${width}.png` });
      await older.getByRole("button").click();
      await expect(older).toHaveCount(0);
      await expect(page.locator("main")).toContainText("Note 0");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
  });
}
