import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import { ADMIN, formData, uniqueTag } from "./helpers";
import { withConsultants } from "./consultants";
import type { CalendarAnswer } from "../src/shared/api/availability";

/**
 * Staff hand a meeting to a colleague and move it for the visitor, from the Meetings page. The e2e
 * admin is the first consultant (Nasrin Farahani); on the consultants' own server
 * (playwright.config.ts) Pieter van Dijk and Kaveh Tehrani are linked beside her.
 */
const PIETER = "pieter-van-dijk";
const KAVEH = "kaveh-tehrani";

withConsultants([PIETER, KAVEH]);

async function signIn(page: Page) {
  const response = await page.request.post("/api/login", { data: ADMIN });
  expect(response.status(), await response.text()).toBe(200);
}

/** Books Nasrin at a free slot on a weekday some way ahead; answers its date. */
async function bookNasrin(request: APIRequestContext, name: string): Promise<string> {
  const calendar = (await (
    await request.get("/api/meetings/calendar?consultant=nasrin-farahani")
  ).json()) as CalendarAnswer;
  const days: string[] = [];
  for (let d = new Date(`${calendar.data.today}T12:00:00Z`); days.length < 40; d.setUTCDate(d.getUTCDate() + 1))
    days.push(d.toISOString().slice(0, 10));
  for (const date of days.slice(10).sort(() => Math.random() - 0.5)) {
    const slots = (
      await (await request.get(`/api/meetings/available-slots?date=${date}&consultant=nasrin-farahani`)).json()
    ).data as string[];
    if (!slots?.length) continue;
    const response = await request.post("/api/meetings/schedule", {
      data: await formData(request, {
        name,
        email: `${uniqueTag()}@example.com`,
        phone: "+31 6 1234 5678",
        date,
        time: slots[0],
        consultant: "nasrin-farahani",
      }),
    });
    if (response.status() === 409) continue;
    expect(response.status(), await response.text()).toBe(201);
    return date;
  }
  throw new Error("no free slot for Nasrin");
}

test("staff hand a meeting to a colleague, then move it for the visitor", async ({ page, request }) => {
  await signIn(page);
  const name = `Sara Staff ${uniqueTag()}`;
  await bookNasrin(request, name);

  await page.goto("/admin/meetings");
  // The admin is a consultant: the page opens on their own meetings, in the address.
  await expect(page).toHaveURL(/consultant=nasrin-farahani/);
  const card = page.getByRole("article", { name });
  await expect(card).toContainText("Nasrin Farahani");
  await expect(card).toContainText("chosen by the visitor");

  await card.getByRole("button", { name: "Hand over" }).click();
  const handOver = page.getByRole("dialog", { name: "Hand this meeting to a colleague" });
  await handOver.getByLabel("Colleague").selectOption(PIETER);
  await handOver.getByRole("button", { name: "Hand over" }).click();
  await expect(page.getByText("Meeting handed over")).toBeVisible();
  await expect(card).toContainText("Pieter van Dijk");

  await card.getByRole("button", { name: "Move" }).click();
  const move = page.getByRole("dialog", { name: "Move this meeting" });
  const time = move.getByLabel("New time");
  await expect(time).toBeEnabled();
  const options = await time.locator("option").allTextContents();
  expect(options.length).toBeGreaterThan(0);
  await time.selectOption({ index: options.length - 1 });
  const chosen = await time.inputValue();
  await move.getByRole("button", { name: "Move meeting" }).click();
  await expect(page.getByText("Meeting moved")).toBeVisible();
  await expect(card.locator(`time[datetime="${chosen}"]`)).toBeVisible();

  // Pieter's meetings are now in his list, not in Nasrin's.
  await page.goto(`/admin/meetings?consultant=${PIETER}`);
  await expect(page.getByRole("article", { name })).toBeVisible();
  await page.goto("/admin/meetings?consultant=nasrin-farahani");
  await expect(page.getByRole("heading", { level: 1, name: "Meetings" })).toBeVisible();
  await expect(page.getByRole("article", { name })).toHaveCount(0);
});

test("a day's free times that come late do not fill in a day picked after it", async ({ page, request }) => {
  await signIn(page);
  const name = `Lena Late ${uniqueTag()}`;
  const first = await bookNasrin(request, name);
  const later = new Date(`${first}T12:00:00Z`);
  later.setUTCDate(later.getUTCDate() + 1);
  const second = later.toISOString().slice(0, 10);
  // The meeting's own day answers after 2 s, the next day at once, each with times of its own.
  await page.route("**/api/meetings/available-slots?*", async (route) => {
    const day = new URL(route.request().url()).searchParams.get("date");
    if (day === first) await new Promise((resolve) => setTimeout(resolve, 2000));
    await route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ success: true, data: day === first ? ["09:00"] : ["15:30"] }),
    });
  });
  await page.goto("/admin/meetings");
  const card = page.getByRole("article", { name });
  await card.getByRole("button", { name: "Move" }).click();
  const move = page.getByRole("dialog", { name: "Move this meeting" });
  // Opened on the meeting's day, whose times are still on their way: the staff member picks the next day.
  await move.getByLabel("New date").fill(second);
  await expect(move.getByLabel("New time")).toHaveValue("15:30");
  await page.waitForTimeout(2500);
  await expect(move.getByLabel("New date")).toHaveValue(second);
  await expect(move.getByLabel("New time")).toHaveValue("15:30");
  await expect(move.getByLabel("New time").locator("option")).toHaveText(["15:30"]);
});
