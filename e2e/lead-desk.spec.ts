import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { ADMIN, keepScreenshot, seedLead as seed, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * The lead desk: a lead moved by keyboard on the board (its own "Move to…"), the "mine" filter, a
 * lead found by its typed reference, and how the desk looks at phone and desktop widths in each
 * language. Every record carries this run's own tag (the database is shared with other specs).
 */

async function openBoard(page: Page, query: string) {
  await page.goto(`/admin/submissions?${query}`);
  await page.getByRole("group", { name: "Show leads as" }).getByRole("button", { name: "Board" }).click();
  await expect(page.getByTestId("lead-board")).toBeVisible();
}

const column = (page: Page, stage: string) =>
  page.getByTestId("lead-board").getByRole("region", { name: new RegExp(`^${stage}`) });

test("a lead moves by keyboard on the board, mine filters, a typed reference finds it", async ({ page, request }) => {
  test.slow();
  const tag = uniqueTag();
  const [first, second] = await Promise.all([seed(request, `${tag} one`, tag), seed(request, `${tag} two`, tag)]);
  expect((await page.request.post("/api/login", { data: ADMIN })).status()).toBe(200);

  await openBoard(page, `q=${tag}`);
  const card = column(page, "New").getByRole("article", { name: `Lead ${tag} one` });
  await expect(card).toContainText(first.reference);
  // Keyboard only: to the card's "Move to…", open it, to "Replied", press it.
  await card.getByRole("button", { name: "Move to…" }).focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(card.getByRole("button", { name: "Replied" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(column(page, "Replied").getByRole("article", { name: `Lead ${tag} one` })).toBeVisible();
  await expect(column(page, "New").getByRole("article", { name: `Lead ${tag} one` })).toHaveCount(0);
  await expectNoViolations(page);

  // Mine: the admin takes the second lead (through the API, as another tab would), then filters.
  const me = (await (await page.request.get("/api/user")).json()) as { user: { id: number } };
  const taken = await page.request.patch(`/api/admin/submissions/${second.id}`, {
    data: { version: 0, ownerId: me.user.id },
  });
  expect(taken.status(), await taken.text()).toBe(200);
  await page.getByLabel("Owner").selectOption({ label: "Mine" });
  await expect(page.getByTestId("lead-card")).toHaveCount(1);
  await expect(page.getByTestId("lead-card")).toContainText(`Lead ${tag} two`);

  // A reference typed any way finds its lead.
  await page.goto(`/admin/submissions?q=e-${first.id}`);
  const found = page.locator('main article[id^="enquiry-"]');
  await expect(found).toHaveCount(1);
  await expect(found).toContainText(first.reference);
});

test("a lead's owner and follow-up date are set on its card, and stay after a reload", async ({ page, request }) => {
  test.slow();
  const tag = uniqueTag();
  const lead = await seed(request, `${tag} plan`, tag);
  expect((await page.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  await page.goto(`/admin/leads?q=${tag}`);
  const card = page.locator(`#enquiry-${lead.id}`);
  await card.getByLabel("Owner").selectOption({ label: ADMIN.username });
  await expect(page.getByText("Owner saved.")).toBeVisible();
  await card.getByLabel("Follow up on").fill("2031-03-14");
  await card.getByRole("button", { name: "Save date" }).click();
  await expect(card.getByRole("button", { name: "No date" })).toBeVisible();
  await expectNoViolations(page);

  await page.reload();
  await expect(card.getByLabel("Owner")).toHaveValue(/^\d+$/);
  await expect(card.getByLabel("Owner").locator("option:checked")).toHaveText(ADMIN.username);
  await expect(card.getByLabel("Follow up on")).toHaveValue("2031-03-14");
  const [stored] = (await (await page.request.get(`/api/admin/submissions?q=${lead.reference}`)).json()) as {
    ownerId: number | null;
    followUpOn: string | null;
    version: number;
  }[];
  expect(stored.followUpOn).toBe("2031-03-14");
  expect(stored.ownerId).not.toBeNull();
  expect(stored.version).toBe(2);

  // No date: the follow-up goes, the owner stays.
  await card.getByRole("button", { name: "No date" }).click();
  await expect(card.getByRole("button", { name: "No date" })).toHaveCount(0);
  await expect(card.getByLabel("Follow up on")).toHaveValue("");
});

for (const lang of ["en", "nl", "fa"] as const) {
  for (const width of [390, 1280]) {
    test(`the board at ${width} px in ${lang}`, async ({ page, request }) => {
      test.slow();
      const tag = uniqueTag();
      await seed(request, `${tag} shot`, tag);
      expect((await page.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
      // This browser's choice, not the shared admin account's: specs on the other worker sign in as
      // the same admin and read the panel in their own language.
      await page.addInitScript((language) => localStorage.setItem("admin-language", language), lang);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/admin/submissions?q=${tag}`);
      const group = page
        .getByRole("group")
        .filter({ has: page.locator("button[aria-pressed]") })
        .first();
      await group.locator("button").first().click();
      await expect(page.getByTestId("lead-board")).toBeVisible();
      await expect(page.getByTestId("lead-card")).toHaveCount(1);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await keepScreenshot(page, { path: `test-results/lead-desk-${lang}-${width}.png`, fullPage: true });
      // The page itself never scrolls sideways; the board scrolls within itself.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
}
