import type { Page, Route } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import team from "../src/data/team.json" with { type: "json" };
import { bookableDays, hydrated, keepScreenshot, openContactForm, skipSplash, toasts, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";
import { findTextProblems } from "./text-fit";
import { withConsultants } from "./consultants";

/**
 * The booking dialog's first two choices (issue 43): whoever is free first or a named consultant,
 * and the office, video or phone; the slots asked for follow the choice, the booking carries it,
 * the confirmation and the manage page name it. Each booking uses its own day far down the list,
 * away from the other booking specs' days. Runs on the consultants' own server (playwright.config.ts),
 * where Pieter van Dijk and Kaveh Tehrani are linked as consultants beside the first admin.
 */

const LOCALES = { en, nl, fa } as const;
type Lang = keyof typeof LOCALES;
const DAY = { en: 26, fa: 28 } as const;
const [NASRIN, PIETER, KAVEH] = team.map((m) => m.id);
const nameOf = (id: string, lang: Lang) => team.find((m) => m.id === id)!.name[lang];

const dialog = (page: Page) => page.locator("dialog#booking-dialog");
const scheduleButton = (page: Page, lang: Lang) =>
  page.locator("#contact-form").getByRole("button", { name: LOCALES[lang].contact.scheduleButton });
const consultantRadio = (page: Page, id: string) => dialog(page).locator(`input[name=consultant][value="${id}"]`);
const placeRadio = (page: Page, place: string) => dialog(page).locator(`input[name=place][value="${place}"]`);
const offeredOrder = (page: Page) =>
  dialog(page)
    .locator("input[name=consultant]")
    .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));

withConsultants([PIETER, KAVEH]);

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

/** Every slots request's query, as the dialog sends them. */
function watchSlots(page: Page) {
  const asked: URLSearchParams[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/meetings/available-slots")) asked.push(new URL(r.url()).searchParams);
  });
  return asked;
}

async function openDialog(page: Page, lang: Lang) {
  await openContactForm(page, lang);
  await scheduleButton(page, lang).click();
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).locator("td[aria-selected=true] button[data-date]")).toBeVisible();
}

/** Picks `date` in the month grid and waits for its slots. */
async function pickDay(page: Page, date: string) {
  const cell = dialog(page).locator(`button[data-date="${date}"]`);
  for (let i = 0; i < 3 && (await cell.count()) === 0; i++)
    await dialog(page).locator("button[data-month=next]").click();
  await cell.click();
  await expect(dialog(page).locator(`td:has(> button[data-date="${date}"])`)).toHaveAttribute("aria-selected", "true");
  await expect(dialog(page).locator("#bk-time")).toBeEnabled();
}

/** Fills in the visitor, confirms, and returns the posted body and the server's answer. */
async function confirmBooking(page: Page, tag: string) {
  await dialog(page).locator("#bk-name").fill(`Visitor ${tag}`);
  await dialog(page).locator("#bk-email").fill(`consultant.${tag}@example.com`);
  await dialog(page).locator("#bk-phone").fill("+98 912 000 2222");
  const response = page.waitForResponse((r) => r.url().endsWith("/api/meetings/schedule"));
  await dialog(page).locator("button[type=submit]").click();
  const answer = await response;
  return {
    posted: answer.request().postDataJSON() as Record<string, string>,
    status: answer.status(),
    meeting: ((await answer.json()) as { data: Record<string, unknown> }).data,
  };
}

test("en: the visitor chooses Pieter by video; only his slots are asked for, and the booking names him", async ({
  page,
  request,
}) => {
  test.slow(); // a whole booking through the dialog, on a machine shared with other runs
  const asked = watchSlots(page);
  await openDialog(page, "en");
  // Whoever is free first, at the office, until the visitor says otherwise; it passes the page's language.
  await expect(consultantRadio(page, "any")).toBeChecked();
  await expect(placeRadio(page, "office")).toBeChecked();
  expect(asked.at(-1)?.get("consultant")).toBe("any");
  expect(asked.at(-1)?.get("language")).toBe("en");
  await expect(dialog(page).getByText(en.contact.booking.anyoneHint.replace("{{language}}", "English"))).toBeVisible();

  const date = (await bookableDays(request))[DAY.en];
  await consultantRadio(page, PIETER).check();
  await expect.poll(() => asked.at(-1)?.get("consultant")).toBe(PIETER);
  expect(asked.at(-1)?.has("language"), "a named consultant's own slots").toBe(false);
  await placeRadio(page, "video").check();
  await pickDay(page, date);
  expect(asked.at(-1)?.get("consultant")).toBe(PIETER);

  const { posted, status, meeting } = await confirmBooking(page, uniqueTag());
  expect(posted).toMatchObject({ consultant: PIETER, place: "video", date });
  expect(status).toBe(201);
  await expect(toasts(page).locator("p").nth(1)).toContainText(
    en.contact.toast.scheduleWith.replace("{{consultant}}", nameOf(PIETER, "en")).replace("{{place}}", "by video"),
  );
  // Served by the consultants' server side (branch consult-core): the meeting is Pieter's.
  expect(meeting.consultant).toBe(PIETER);
});

test("fa: Persian speakers first, whoever is free asks for Persian, and a keyboard-only visitor books Kaveh by phone", async ({
  page,
  request,
}) => {
  test.slow(); // a whole booking through the dialog, on a machine shared with other runs
  const asked = watchSlots(page);
  await openDialog(page, "fa");
  expect(await offeredOrder(page)).toEqual(["any", NASRIN, KAVEH, PIETER]);
  await expect.poll(() => asked.at(-1)?.get("language")).toBe("fa");
  await expect(dialog(page).getByText(fa.contact.booking.anyoneHint.replace("{{language}}", "فارسی"))).toBeVisible();
  await expect(dialog(page).locator(`[data-consultant="${NASRIN}"]`)).toContainText("فارسی، انگلیسی و هلندی");

  // Right to left: the radio is at the card's right, its text to its left.
  const card = dialog(page).locator(`[data-consultant="${KAVEH}"]`);
  const radio = await consultantRadio(page, KAVEH).boundingBox();
  const name = await card.getByText(nameOf(KAVEH, "fa")).boundingBox();
  expect(radio!.x).toBeGreaterThan(name!.x);

  // The keyboard: one Tab stop per group, arrows move the choice (Nasrin, then Kaveh).
  await consultantRadio(page, "any").focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(consultantRadio(page, KAVEH)).toBeChecked();
  await expect(consultantRadio(page, KAVEH)).toBeFocused();
  await expect.poll(() => asked.at(-1)?.get("consultant")).toBe(KAVEH);
  await page.keyboard.press("Tab");
  await expect(placeRadio(page, "office")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(placeRadio(page, "phone")).toBeChecked();

  const date = (await bookableDays(request))[DAY.fa];
  await pickDay(page, date);
  const { posted, status, meeting } = await confirmBooking(page, uniqueTag());
  expect(posted).toMatchObject({ consultant: KAVEH, place: "phone", language: "fa" });
  expect(status).toBe(201);
  await expect(toasts(page).locator("p").nth(1)).toContainText(
    fa.contact.toast.scheduleWith
      .replace("{{consultant}}", nameOf(KAVEH, "fa"))
      .replace("{{place}}", fa.contact.booking.placeSentence.phone),
  );
  // Served by branch consult-core: the meeting is Kaveh's, and his slot is gone for the next visitor.
  expect(meeting.consultant).toBe(KAVEH);
  const kavehSlots = await request.get(`/api/meetings/available-slots?date=${date}&consultant=${KAVEH}`);
  expect(((await kavehSlots.json()) as { data: string[] }).data).not.toContain(posted.time);
});

test("fa at 390 px: a founder in Tehran books the Persian-speaking consultant by video from a phone", async ({
  page,
  request,
}) => {
  test.slow(); // a whole booking through the dialog, on a machine shared with other runs
  await page.setViewportSize({ width: 390, height: 844 });
  await openDialog(page, "fa");
  await keepScreenshot(page, { path: test.info().outputPath("dialog-fa-390.png") });
  // The Persian speakers come first; Kaveh is chosen by a tap on his card.
  await dialog(page).getByText(nameOf(KAVEH, "fa")).click();
  await expect(consultantRadio(page, KAVEH)).toBeChecked();
  await dialog(page).getByText(fa.contact.booking.place.video, { exact: true }).click();
  await expect(placeRadio(page, "video")).toBeChecked();
  await pickDay(page, (await bookableDays(request))[DAY.fa + 1]);
  const { posted, status, meeting } = await confirmBooking(page, uniqueTag());
  expect(posted).toMatchObject({ consultant: KAVEH, place: "video", language: "fa" });
  expect(status).toBe(201);
  expect(meeting.consultant).toBe(KAVEH);
  await expect(toasts(page).locator("p").nth(1)).toContainText(
    fa.contact.toast.scheduleWith
      .replace("{{consultant}}", nameOf(KAVEH, "fa"))
      .replace("{{place}}", fa.contact.booking.placeSentence.video),
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test("a team member the server does not list as bookable cannot be chosen", async ({ page }) => {
  await page.route("**/api/meetings/calendar*", async (route: Route) => {
    const answer = (await (await route.fetch()).json()) as { data: Record<string, unknown> };
    answer.data.consultants = [{ id: NASRIN, languages: ["fa", "en", "nl"], services: [] }];
    await route.fulfill({ contentType: "application/json", body: JSON.stringify(answer) });
  });
  await openDialog(page, "en");
  await expect(consultantRadio(page, NASRIN)).toBeEnabled();
  for (const id of [PIETER, KAVEH]) {
    await expect(consultantRadio(page, id)).toBeDisabled();
    await expect(dialog(page).locator(`[data-consultant="${id}"]`)).toContainText(en.contact.booking.unavailable);
  }
  await expectNoViolations(page, "dialog#booking-dialog");
});

test("a choice made before the island runs is kept, and its slots are the ones asked for", async ({ page }) => {
  test.slow(); // the island is held back, then loads and finds its first free day
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/BookingDialog\.[\w-]+\.js$/, async (route) => {
    await gate;
    await route.continue();
  });
  const asked = watchSlots(page);
  await page.goto("/nl/");
  await scheduleButton(page, "nl").scrollIntoViewIfNeeded();
  await scheduleButton(page, "nl").click();
  await expect(dialog(page)).toBeVisible();
  await consultantRadio(page, KAVEH).check();
  await placeRadio(page, "video").check();
  release();
  await hydrated(page, "BookingDialog");
  await expect(dialog(page).locator("td[aria-selected=true] button[data-date]")).toBeVisible();
  await expect(consultantRadio(page, KAVEH)).toBeChecked();
  await expect(placeRadio(page, "video")).toBeChecked();
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.every((q) => q.get("consultant") === KAVEH)).toBe(true);
});

test("nl at 390 px: the choices fit the phone, nothing sticks out or overflows", async ({ page }) => {
  // Tall enough for the whole dialog: what is below its scroll is not clipped for this check.
  await page.setViewportSize({ width: 390, height: 3000 });
  await openDialog(page, "nl");
  await consultantRadio(page, PIETER).check();
  await placeRadio(page, "phone").check();
  const box = dialog(page);
  expect(await box.evaluate((d) => d.scrollWidth - d.clientWidth)).toBeLessThanOrEqual(1);
  const problems = (await page.evaluate(findTextProblems)).filter((p) => p.where.includes("booking-dialog"));
  expect(problems).toEqual([]);
  await expect(box.getByText(nl.contact.booking.place.phone, { exact: true })).toBeVisible();
});

test("the manage page names the consultant and the place, and says when the consultant is not free", async ({
  page,
  request,
}) => {
  const date = (await bookableDays(request))[30];
  await page.route("**/api/meetings/manage", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({
        success: true,
        data: {
          reference: "M-00042",
          date,
          time: "10:00",
          language: "en",
          status: "pending",
          changeable: true,
          changeCutoffMinutes: 120,
          consultant: NASRIN,
          place: "video",
        },
      }),
    }),
  );
  await page.route("**/api/meetings/available-slots?*", (route) =>
    route.fulfill({ contentType: "application/json", body: '{"success":true,"data":["10:00","10:30","11:00"]}' }),
  );
  await page.route("**/api/meetings/manage/move", (route) =>
    route.fulfill({
      status: 409,
      contentType: "application/json",
      body: '{"success":false,"message":"consultantBusy"}',
    }),
  );
  await page.goto("/en/meeting/#a-token");
  await hydrated(page, "ManageMeeting");
  await expect(page.getByTestId("meeting-consultant")).toHaveText(nameOf(NASRIN, "en"));
  await expect(page.getByTestId("meeting-place")).toHaveText(en.contact.booking.place.video);
  await page.getByRole("button", { name: en.manage.move }).click();
  await expect(page.locator("#mm-time")).toBeEnabled();
  await page.getByRole("button", { name: en.manage.confirmMove }).click();
  await expect(toasts(page)).toContainText(en.manage.consultantBusy);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("fa: the dialog opens with both choices, Persian speakers first, and a consultant and place can be chosen", async ({
    page,
  }) => {
    await page.goto("/fa/");
    await scheduleButton(page, "fa").scrollIntoViewIfNeeded();
    await scheduleButton(page, "fa").click();
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole("group", { name: fa.contact.booking.who })).toBeVisible();
    await expect(dialog(page).getByRole("group", { name: fa.contact.booking.how })).toBeVisible();
    expect(await offeredOrder(page)).toEqual(["any", NASRIN, KAVEH, PIETER]);
    await expect(consultantRadio(page, "any")).toBeChecked();
    await expect(placeRadio(page, "office")).toBeChecked();
    await dialog(page).getByText(nameOf(KAVEH, "fa")).click();
    await dialog(page).getByText(fa.contact.booking.place.video, { exact: true }).click();
    await expect(consultantRadio(page, KAVEH)).toBeChecked();
    await expect(placeRadio(page, "video")).toBeChecked();
  });
});
