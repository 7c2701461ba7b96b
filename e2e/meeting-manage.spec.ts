import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import { simpleParser } from "mailparser";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import { formatDate } from "../src/shared/format";
import { ADMIN, bookableDays, formData, freeSlots, hydrated, skipSplash, toasts, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * Two journeys: a visitor opens the manage link from their booking email and moves the
 * meeting; an admin closes a day on /admin/availability and the booking dialog shows it closed.
 * Days are taken far down the list of bookable days, so the booking spec's days never collide.
 */

const DAY = { booked: 14, movedTo: 15, slotsFail: 17, closed: 20, phoneBooked: 22, phoneMovedTo: 23 } as const;

/** Console messages about the Content-Security-Policy: the strict policy must hold on these pages too. */
const cspViolations: string[] = [];
test.beforeEach(async ({ context, page }) => {
  await skipSplash(context);
  cspViolations.length = 0;
  page.on("console", (m) => /Content.Security.Policy/i.test(m.text()) && cspViolations.push(m.text()));
});
test.afterEach(() => {
  expect(cspViolations).toEqual([]);
});

/** The manage link of the newest email to `to` in the server's file outbox (DATA_DIR/outbox). */
async function manageLinkFor(to: string): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR!, "outbox");
  for (let tries = 0; tries < 100; tries++) {
    const files = (await readdir(dir).catch(() => []))
      .filter((f) => f.endsWith(".eml"))
      .sort()
      .reverse();
    for (const file of files) {
      const mail = await simpleParser(await readFile(path.join(dir, file)));
      const recipients = [mail.to].flat().flatMap((a) => a?.value.map((v) => v.address) ?? []);
      if (!recipients.includes(to)) continue;
      const link = /https?:\/\/[^\s/]+(\/[a-z]{2}\/meeting\/#[A-Za-z0-9_.-]+)/.exec(mail.text ?? "")?.[1];
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no email with a manage link to ${to}`);
}

/** Books a meeting through the API, as the booking dialog does, in English. */
async function book(
  request: APIRequestContext,
  visitor: { name: string; email: string; phone: string },
  date: string,
  time: string,
) {
  const booked = await request.post("/api/meetings/schedule", {
    data: await formData(request, { ...visitor, date, time, language: "en" }),
  });
  expect(booked.status(), await booked.text()).toBe(201);
}

/** Clicks `date` in a month grid within `scope`, moving to later months as needed. */
async function pickDay(page: Page, date: string) {
  await expect(page.locator("td[aria-selected=true] button[data-date]")).toBeVisible();
  const cell = page.locator(`button[data-date="${date}"]`);
  for (let i = 0; i < 3 && (await cell.count()) === 0; i++) await page.locator("button[data-month=next]").click();
  await cell.click();
}

test("a visitor opens the manage link from their email and moves the meeting", async ({ page, request }) => {
  const days = await bookableDays(request);
  const [from, to] = [days[DAY.booked], days[DAY.movedTo]];
  const email = `move-${uniqueTag()}@example.com`;
  const time = (await freeSlots(request, from))[2];
  await book(request, { name: "Maryam Karimi", email, phone: "+98 912 000 1111" }, from, time);

  await page.goto(await manageLinkFor(email));
  await hydrated(page, "ManageMeeting");
  await expect(page.getByTestId("meeting-when")).toContainText(formatDate("en", from));
  await expect(page.getByTestId("meeting-status")).toHaveText(en.manage.statusPending);
  await expectNoViolations(page);

  await page.getByRole("button", { name: en.manage.move }).click();
  await pickDay(page, to);
  const newTime = (await freeSlots(request, to))[0];
  await page.locator("#mm-time").selectOption(newTime);
  await page.getByRole("button", { name: en.manage.confirmMove }).click();

  await expect(page.getByRole("status").filter({ hasText: en.manage.moved })).toBeVisible();
  await expect(page.getByTestId("meeting-when")).toContainText(formatDate("en", to));
  expect(await freeSlots(request, from)).toContain(time);
  expect(await freeSlots(request, to)).not.toContain(newTime);
  // The page now holds the new link; a reload shows the moved meeting.
  await page.reload();
  await expect(page.getByTestId("meeting-when")).toContainText(formatDate("en", to));
});

test("on a phone, the result of a move is scrolled to and takes focus", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const days = await bookableDays(request);
  const [from, to] = [days[DAY.phoneBooked], days[DAY.phoneMovedTo]];
  const email = `move-phone-${uniqueTag()}@example.com`;
  await book(
    request,
    { name: "Sara Ahmadi", email, phone: "+98 912 000 2222" },
    from,
    (await freeSlots(request, from))[1],
  );

  await page.goto(await manageLinkFor(email));
  await hydrated(page, "ManageMeeting");
  await page.getByRole("button", { name: en.manage.move }).click();
  await pickDay(page, to);
  await page.locator("#mm-time").selectOption((await freeSlots(request, to))[1]);
  const confirm = page.getByRole("button", { name: en.manage.confirmMove });
  await confirm.scrollIntoViewIfNeeded();
  // The walk-through's case: the confirm button sits far down the page (y≈770 on a 390 px phone).
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  await confirm.click();

  const notice = page.getByRole("status").filter({ hasText: en.manage.moved });
  await expect(notice).toBeVisible();
  await expect(notice).toBeFocused();
  await expect(notice).toBeInViewport({ ratio: 1 });
});

test("a failed slot request on the manage page shows the same error toast as the booking dialog", async ({
  page,
  request,
}) => {
  const day = (await bookableDays(request))[DAY.slotsFail];
  const email = `slots-fail-${uniqueTag()}@example.com`;
  await book(
    request,
    { name: "Reza Ahmadi", email, phone: "+98 912 000 2222" },
    day,
    (await freeSlots(request, day))[0],
  );
  await page.route("**/api/meetings/available-slots?*", (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({ success: false, message: "Internal error" }),
    }),
  );

  await page.goto(await manageLinkFor(email));
  await hydrated(page, "ManageMeeting");
  await page.getByRole("button", { name: en.manage.move }).click();
  const toast = toasts(page);
  await expect(toast).toHaveAttribute("role", "alert");
  await expect(toast.locator("p").first()).toHaveText(en.contact.toast.slotsErrorTitle);
  await expect(toast.locator("p").nth(1)).toHaveText(en.contact.toast.slotsError);
  await expect(page.locator("#mm-time")).toBeDisabled();
  await expect(page.getByRole("button", { name: en.manage.confirmMove })).toBeDisabled();
});

test("an admin closes a day and the booking dialog shows it closed at once", async ({ page, browser, request }) => {
  const day = (await bookableDays(request))[DAY.closed];
  const login = await page.request.post("/api/login", { data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin/availability");
  await page.getByLabel("First day").fill(day);
  await page.getByLabel(/^Note/).fill("E2E team day");
  await page.getByRole("button", { name: "Add closed days" }).click();
  const row = page.getByTestId("closures").getByRole("listitem").filter({ hasText: "E2E team day" });
  await expect(row).toBeVisible();
  await expectNoViolations(page);

  const visitor = await browser.newContext();
  await skipSplash(visitor);
  const home = await visitor.newPage();
  try {
    await home.goto("/en/#contact");
    await home.locator("#contact-form").getByRole("button", { name: en.contact.scheduleButton }).click();
    const dialog = home.locator("dialog.booking-dialog");
    await expect(dialog.locator("td[aria-selected=true] button[data-date]")).toBeVisible();
    const cell = dialog.locator(`button[data-date="${day}"]`);
    for (let i = 0; i < 3 && (await cell.count()) === 0; i++) await dialog.locator("button[data-month=next]").click();
    await expect(cell).toHaveAttribute("aria-disabled", "true");
    expect(await freeSlots(request, day)).toEqual([]);
  } finally {
    await visitor.close();
    await row.getByRole("button", { name: /^Remove/ }).click();
    await expect(row).toHaveCount(0);
  }
  expect((await freeSlots(request, day)).length).toBeGreaterThan(0);
});
