import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import { ADMIN, formData, keepScreenshot, skipSplash, uniqueTag } from "./helpers";
import type { DueAnswer } from "../src/shared/follow-ups";
import { expectNoViolations } from "./axe";
import { findTextProblems } from "./text-fit";

/**
 * The dashboard's Due panel in a real browser against npm start: leads whose follow-up date is today
 * (set through the lead desk's PATCH), shown at the top of the dashboard in every panel language, at
 * a phone's and a desktop's width, readable whole and accessible.
 */
const today = () => new Date().toLocaleDateString("sv-SE", { timeZone: "Europe/Amsterdam" });

async function signIn(request: APIRequestContext) {
  const response = await request.post("/api/login", { data: ADMIN });
  expect(response.status(), await response.text()).toBe(200);
}

/** An enquiry through the public API, then its follow-up date (and owner) set as an admin sets them. */
async function dueLead(request: APIRequestContext, firstName: string, lastName: string, ownerId: number | null) {
  const data = await formData(request, {
    firstName,
    lastName,
    // Short: the page is checked whole at 390 px, where a long address on a card breaks mid-word.
    email: `${firstName[0].toLowerCase()}@example.com`,
    service: "startup-visa",
    message: "A message long enough to pass.",
  });
  const created = await request.post("/api/contact", { data });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const patched = await request.patch(`/api/admin/submissions/${id}`, {
    data: { version: 0, followUpOn: today(), ...(ownerId ? { ownerId } : {}) },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  return id;
}

let names: string[] = [];

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  await signIn(request);
  const me = (await (await request.get("/api/user")).json()) as { user: { id: number } };
  const tag = uniqueTag();
  const Tag = tag[0].toUpperCase() + tag.slice(1);
  names = [`Parisa ${Tag}`, `Maximiliaan van der ${Tag}-Oosterhout`];
  await dueLead(request, "Parisa", Tag, me.user.id);
  await dueLead(request, "Maximiliaan", `van der ${Tag}-Oosterhout`, null);
  const due = (await (await request.get("/api/admin/due")).json()) as DueAnswer;
  expect(due.leads.filter((l) => names.includes(l.name)).map((l) => l.reasons)).toEqual([["followUp"], ["followUp"]]);
  await request.dispose();
});

async function openDashboard(page: Page) {
  await signIn(page.request);
  await page.goto("/admin/submissions");
  const panel = page.getByTestId("due-panel");
  await expect(panel).toBeVisible();
  return panel;
}

test("the Due panel names each due lead by reference and name, says why, and links to it", async ({ page }) => {
  await skipSplash(page.context());
  const panel = await openDashboard(page);
  await expect(panel.getByRole("heading", { name: new RegExp(en.admin.due.title) })).toBeVisible();
  const row = panel.getByRole("listitem").filter({ hasText: names[0] });
  await expect(row).toContainText(/Follow-up date/);
  await expect(row).toContainText("Owner: admin");
  const link = row.getByRole("link");
  await expect(link).toHaveText(/^E-\d{5}$/);
  await link.click();
  await expect(page).toHaveURL(/\/admin\/person\?ref=E-\d{5}$/);
});

for (const lang of ["en", "nl", "fa"] as const) {
  for (const width of [390, 1280]) {
    test(`the Due panel in ${lang} at ${width} px: readable whole, accessible, in the panel's digits`, async ({
      browser,
    }) => {
      // The Leads page holds every lead the run's other specs made by then; the text check and axe read all of it.
      test.setTimeout(180_000);
      const context = await browser.newContext({ locale: lang, viewport: { width, height: 1000 } });
      await skipSplash(context);
      const page = await context.newPage();
      const panel = await openDashboard(page);
      await expect(page.locator("html")).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
      await expect(panel).toContainText(names[1]);
      if (lang === "fa") {
        // Dates Jalali in Persian digits; only the references and names are Latin.
        const badges = await panel.locator("li span.rounded-full").allInnerTexts();
        expect(badges.join(" ")).not.toMatch(/[0-9]/);
        expect(badges.join(" ")).toMatch(/[۰-۹]/);
      }
      await keepScreenshot(panel, { path: test.info().outputPath(`due-${lang}-${width}.png`) });
      // The leads' cards below the panel break a long address anywhere on purpose ([overflow-wrap:anywhere]).
      const problems = await page.evaluate(findTextProblems);
      expect(problems.filter((p) => !p.where.startsWith("article#enquiry-"))).toEqual([]);
      await expectNoViolations(page, "[data-testid=due-panel]");
      await context.close();
    });
  }
}
