import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./test";
import { readFileSync } from "node:fs";
import { formData } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * An admin works through a long list: the figures above the tabs, pages that load as
 * they scroll (and with "Load more" from the keyboard), a Persian name found with Arabic letters,
 * a filter kept in the address (Back undoes it), a note on a card, and the CSV of the filtered view.
 * The database is shared with the other specs: every record here carries this run's own tag.
 */

const ADMIN = { username: "admin", password: "e2e-admin-password" };
function uniqueTag(): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let tag = "";
  for (let i = 0; i < 10; i++) tag += letters[Math.floor(Math.random() * letters.length)];
  return tag;
}

/** An enquiry's post body, with its form token (each token needs its 2 s: fetch them all at once). */
const enquiryBody = (request: APIRequestContext, fields: Record<string, string>) =>
  formData(request, {
    email: "pipeline@example.com",
    service: "startup-visa",
    message: "A message long enough to pass.",
    ...fields,
  });

async function post(request: APIRequestContext, data: object) {
  const response = await request.post("/api/contact", { data });
  expect(response.status(), await response.text()).toBe(201);
}

test("an admin pages, searches, filters, notes and exports a long list", async ({ page, request }) => {
  // Sixty records seeded through the API, several page loads: slow on a busy two-core machine.
  test.slow();
  const tag = uniqueTag();
  const Tag = tag[0].toUpperCase() + tag.slice(1);
  const bodies = await Promise.all(
    Array.from({ length: 56 }, (_, i) =>
      enquiryBody(request, {
        firstName: "Page",
        lastName: `${Tag} ${String.fromCharCode(97 + (i % 26))}`,
        company: tag,
      }),
    ),
  );
  // Typed with Persian ی and ک.
  const persian = enquiryBody(request, { firstName: "علی", lastName: `کریمی ${Tag}`, language: "fa", company: tag });
  // Eight at a time, in order of their letter (a…z, then again): "oldest first" starts with "a".
  for (let batch = 0; batch < 56; batch += 8) {
    await Promise.all(bodies.slice(batch, batch + 8).map((body) => post(request, body)));
  }
  await post(request, await persian);

  expect((await page.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  await page.goto(`/admin/leads?q=${tag}`);
  await expect(page.getByRole("heading", { level: 1, name: "Leads" })).toBeVisible();

  // The figures above the tabs.
  const figures = page.getByRole("region", { name: "At a glance" });
  await expect(figures.getByText("Waiting on us")).toBeVisible();
  await expect(figures.getByText(/^of \d+ in the last 30 days$/)).toBeVisible();

  // The first page, then the next as the list scrolls to its end.
  const cards = page.getByRole("main").getByRole("article");
  await expect(cards).toHaveCount(50);
  await expect(page.getByText("50 submissions loaded · 50 pending · more below")).toBeVisible();
  await page.getByRole("button", { name: "Load more submissions" }).scrollIntoViewIfNeeded();
  await expect(cards).toHaveCount(57);
  await expect(page.getByRole("button", { name: "Load more submissions" })).toHaveCount(0);

  // Oldest first, and the next page from the keyboard.
  await page.goto(`/admin/leads?q=${tag}&sort=oldest`);
  await expect(cards).toHaveCount(50);
  await expect(cards.first()).toContainText(new RegExp(`^Page ${Tag} [a-h]`));
  await page.getByRole("button", { name: "Load more submissions" }).focus();
  await page.keyboard.press("Enter");
  await expect(cards).toHaveCount(57);
  await expect(cards.last()).toContainText(`علی کریمی ${Tag}`);

  // A Persian name typed with Arabic ي and ك finds the record typed with Persian ی and ک.
  const search = page.getByRole("searchbox");
  await search.fill(`كريمي ${tag}`);
  await search.press("Enter");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(`علی کریمی ${Tag}`);
  expect(new URL(page.url()).searchParams.get("q")).toBe(`كريمي ${tag}`);

  // A filter lives in the address; Back undoes it.
  await search.fill(tag);
  await search.press("Enter");
  await expect(cards).toHaveCount(50);
  await page.getByLabel("Language", { exact: true }).selectOption("fa");
  await expect(cards).toHaveCount(1);
  expect(new URL(page.url()).searchParams.get("language")).toBe("fa");
  await page.goBack();
  await expect(cards).toHaveCount(50);
  expect(new URL(page.url()).searchParams.get("language")).toBeNull();
  await page.goForward();
  await expect(cards).toHaveCount(1);
  await expect(page.getByLabel("Language", { exact: true })).toHaveValue("fa");

  // A note on the card, with who wrote it and when.
  const card = cards.first();
  await card.getByRole("button", { name: "Add note" }).click();
  await card.getByLabel("Internal note").fill("Called back; wants the visa checklist.");
  await card.getByRole("button", { name: "Save note" }).click();
  await expect(card.getByTestId("note")).toHaveText("Called back; wants the visa checklist.");
  await expect(card.getByText(/^Note by admin, /)).toBeVisible();
  await page.reload();
  await expect(cards.first().getByTestId("note")).toHaveText("Called back; wants the visa checklist.");

  await expectNoViolations(page);

  // The CSV of what is on screen.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^enquiries-filtered-\d{4}-\d\d-\d\d\.csv$/);
  const csv = readFileSync(await download.path(), "utf8");
  expect(csv.startsWith("\uFEFFReference,")).toBe(true);
  expect(csv.split("\r\n")).toHaveLength(3); // header, the one record, the final line break
  expect(csv).toContain(`کریمی ${Tag}`);
  expect(csv).toContain("Called back; wants the visa checklist.");

  // On a phone the filters fold away behind one button, and nothing fails axe.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByLabel("Language", { exact: true })).toBeHidden();
  // Two settings are on under the fold: the language and the sort.
  await page.getByRole("button", { name: "Filters and sort (2 on)" }).click();
  await expect(page.getByLabel("Language", { exact: true })).toBeVisible();
  await expectNoViolations(page);
});
