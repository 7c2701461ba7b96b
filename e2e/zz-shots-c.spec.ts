import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { simpleParser } from "mailparser";
import { ADMIN, bookableDays, freeSlots, hydrated, skipSplash, uniqueTag } from "./helpers";

async function linkFor(to: string) {
  const dir = path.join(process.env.E2E_DATA_DIR!, "outbox");
  for (let t = 0; t < 100; t++) {
    for (const f of (await readdir(dir).catch(() => [])).filter((f) => f.endsWith(".eml"))) {
      const m = await simpleParser(await readFile(path.join(dir, f)));
      if (JSON.stringify(m.to).includes(to)) {
        const l = /https?:\/\/[^\s/]+(\/[a-z]{2}\/meeting\/#[A-Za-z0-9_.-]+)/.exec(m.text ?? "")?.[1];
        if (l) return l;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("none");
}

for (const lang of ["en", "nl", "fa"] as const) {
  test(`manage ${lang}`, async ({ page, request, context }) => {
    await skipSplash(context);
    const days = await bookableDays(request);
    const date = days[5 + ["en", "nl", "fa"].indexOf(lang)];
    const email = `shot-${uniqueTag()}@example.com`;
    const time = (await freeSlots(request, date))[3];
    const r = await request.post("/api/meetings/schedule", {
      data: { name: "Sara Rahimi", email, phone: "+98 912 000 1111", date, time, language: lang },
    });
    expect(r.status()).toBe(201);
    const link = await linkFor(email);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(link);
      await hydrated(page, "ManageMeeting");
      await expect(page.getByTestId("meeting-when")).toBeVisible();
      await page.screenshot({ path: `/tmp/c-shots/manage-${lang}-${width}.png`, fullPage: true });
      await page.locator("button.btn-primary").first().click();
      await expect(page.locator("#mm-time option").first()).not.toHaveText(/…|\.\.\./);
      await page.screenshot({ path: `/tmp/c-shots/manage-${lang}-${width}-move.png`, fullPage: true });
    }
  });
}

test("availability admin", async ({ page }) => {
  const login = await page.request.post("/api/login", { data: ADMIN });
  expect(login.status()).toBe(200);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/availability");
    await expect(page.getByRole("heading", { name: "Availability" })).toBeVisible();
    await page.screenshot({ path: `/tmp/c-shots/availability-${width}.png`, fullPage: true });
  }
  await page.goto("/admin/submissions");
  await page.getByRole("tab", { name: "Meeting Reservations" }).click();
  await expect(page.getByRole("button", { name: "Cancel", exact: true }).first()).toBeVisible();
  await page.screenshot({ path: `/tmp/c-shots/admin-cards-1280.png` });
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: `/tmp/c-shots/admin-cards-390.png`, fullPage: true });
  await page.getByRole("button", { name: "Cancel", exact: true }).first().click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel meeting" }).click();
  await expect(page.getByText("Cancelled by an admin")).toBeVisible();
  await page.screenshot({ path: `/tmp/c-shots/admin-cancelled-390.png`, fullPage: true });
});
