import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import { formatDate } from "../src/shared/format";
import { bookableDays, freeSlots, isRed, openContactForm, skipSplash, toasts, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * The schedule-meeting dialog: a modal that keeps focus, the office
 * calendar in the date grid (Jalali for Persian visitors), slot loading, booking (success, taken
 * slot, race), the checks made on confirm, Persian right to left, and axe with the dialog open.
 *
 * Tests share one database and run in parallel: every test that books uses its own day (an index
 * into the bookable days) and its own names; only the race test collides, on purpose.
 */

const LOCALES = { en, nl, fa } as const;
type Lang = keyof typeof LOCALES;
/** Which bookable day (index, at least 2 days ahead) each booking test uses, so parallel tests never compete for a slot. */
const DAY = { book: 0, race: 3 } as const;

const dialog = (page: Page) => page.locator("dialog.booking-dialog");
const scheduleButton = (page: Page, lang: Lang = "en") =>
  page.locator("#contact-form").getByRole("button", { name: LOCALES[lang].contact.scheduleButton });
const timeSelect = (page: Page) => page.locator("#bk-time");
const confirmButton = (page: Page) => dialog(page).locator("button[type=submit]");
const input = (page: Page, name: "name" | "email" | "phone") => page.locator(`#bk-${name}`);

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

/**
 * Opens the home page in `lang` and the booking dialog with a click; waits until the dialog has
 * found its first day (the first one with a free slot) and shows that day's times.
 */
async function openDialog(page: Page, lang: Lang = "en") {
  await openContactForm(page, lang);
  await scheduleButton(page, lang).click();
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).locator("td[aria-selected=true] button[data-date]")).toBeVisible();
  await expect(timeSelect(page).locator("option").first()).not.toHaveText(LOCALES[lang].contact.booking.loadingSlots);
}

/** The day button of `date` (yyyy-MM-dd) in the dialog's month grid. */
const dayButton = (page: Page, date: string) => dialog(page).locator(`button[data-date="${date}"]`);

/**
 * Clicks `date` in the month grid, moving to later months as needed, and waits for its slots. When
 * the dialog opened on `date` (its first day with a free slot: on a Friday evening or a Saturday the
 * first bookable day), that day is already selected and clicking it fetches nothing: openDialog has
 * waited for its slots.
 */
async function pickDay(page: Page, date: string) {
  const cell = dayButton(page, date);
  for (let i = 0; i < 3 && (await cell.count()) === 0; i++)
    await dialog(page).locator("button[data-month=next]").click();
  await expect(cell).not.toHaveAttribute("aria-disabled");
  const selected = dialog(page).locator(`td:has(> button[data-date="${date}"])`);
  if ((await selected.getAttribute("aria-selected")) !== "true") {
    const slots = page.waitForResponse((r) => r.url().includes(`/api/meetings/available-slots?date=${date}`));
    await cell.click();
    await slots;
  }
  await expect(selected).toHaveAttribute("aria-selected", "true");
  await expect(timeSelect(page).locator("option").first()).not.toHaveText(/\.\.\.|…/);
}

/** The times the select offers. */
const offeredTimes = (page: Page) =>
  timeSelect(page)
    .locator("option")
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));

async function fillVisitor(page: Page, visitor: { name: string; email: string; phone: string }) {
  await input(page, "name").fill(visitor.name);
  await input(page, "email").fill(visitor.email);
  await input(page, "phone").fill(visitor.phone);
}

/** A second visitor: a fresh browser context with its own page. */
async function newVisitor(browser: Browser) {
  const context = await browser.newContext();
  await skipSplash(context);
  return { context, page: await context.newPage() };
}

/** Whether the focused element is inside the open dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate(() => !!document.activeElement && !!document.activeElement.closest("dialog[open]"));

/**
 * Where keyboard focus is: "dialog" (a control in the open dialog), "browser" (focus has left the
 * page for the browser's own toolbar, which a native modal <dialog> allows between its last and first
 * control) or "page" (an element of the page behind the dialog: focus escaped the modal).
 */
const focusPlace = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (active?.closest("dialog[open]")) return "dialog";
    return !document.hasFocus() && (active === document.body || active === null)
      ? "browser"
      : `page: ${active?.outerHTML.slice(0, 80)}`;
  });

test("keyboard: Enter opens the modal dialog, focus stays inside on Tab, Escape closes it and focus returns", async ({
  page,
}) => {
  await openContactForm(page, "en");
  await scheduleButton(page).focus();
  await page.keyboard.press("Enter");
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page)).toHaveAttribute("open", "");
  await expect(dialog(page).getByRole("heading", { name: en.contact.booking.title })).toBeVisible();
  await expect(page.getByRole("dialog", { name: en.contact.booking.title })).toBeVisible();
  expect(
    await page.evaluate(() => document.querySelector("dialog.booking-dialog")!.matches(":modal")),
    "opened as a modal",
  ).toBe(true);
  await expect.poll(() => focusInDialog(page), "focus moves into the dialog").toBe(true);

  // Times are labelled as the Amsterdam office's; the time select is described by that label.
  await expect(dialog(page).locator("#bk-time-help")).toContainText(en.contact.booking.officeTime);
  await expect(timeSelect(page)).toHaveAttribute("aria-describedby", "bk-time-help");

  // Tab and Shift+Tab cycle within the dialog (more presses than it has stops): focus never reaches
  // the page behind it. Between the last and the first control the browser may take focus into its
  // own toolbar (native modal <dialog>); the next Tab comes back to the dialog's first control.
  const first = await page.evaluate(() => document.activeElement!.outerHTML.slice(0, 80));
  const dialogStart = await page.evaluate(() => document.querySelector("dialog[open]")!.outerHTML.slice(0, 80));
  const visited = new Set<string>();
  let wrapped = false;
  for (let i = 0; i < 14; i++) {
    const before = await focusPlace(page);
    await page.keyboard.press("Tab");
    const place = await focusPlace(page);
    expect(place, `focus after Tab #${i + 1}`).toMatch(/^(dialog|browser)$/);
    if (place === "dialog") {
      const html = await page.evaluate(() => document.activeElement!.outerHTML.slice(0, 80));
      if (before === "browser") {
        // Chromium 156 stops on the scrollable dialog itself first (a keyboard-focusable scroller),
        // earlier versions on its first control: either way focus is back at the dialog's start.
        expect([first, dialogStart], "after the browser's toolbar, Tab returns to the dialog's start").toContain(html);
        wrapped = true;
      }
      visited.add(html);
    }
  }
  expect(wrapped, "Tab cycles around the dialog").toBe(true);
  expect(visited.size, "Tab moves between several controls").toBeGreaterThan(4);
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await focusPlace(page), `focus after Shift+Tab #${i + 1}`).toMatch(/^(dialog|browser)$/);
  }
  // Back on a control of the dialog before closing it.
  if ((await focusPlace(page)) !== "dialog") await page.keyboard.press("Shift+Tab");
  expect(await focusInDialog(page)).toBe(true);

  await page.keyboard.press("Escape");
  await expect(dialog(page)).toBeHidden();
  await expect(dialog(page)).not.toHaveAttribute("open");
  await expect(scheduleButton(page)).toBeFocused();
});

test("a visitor books a slot; a second visitor no longer sees it", async ({ page, browser, request }) => {
  const date = (await bookableDays(request))[DAY.book];
  const free = await freeSlots(request, date);
  expect(free.length, `free slots on ${date}`).toBeGreaterThan(2);
  const time = free[1];
  const tag = uniqueTag();

  await openDialog(page);
  await pickDay(page, date);
  await expect(timeSelect(page)).toBeEnabled();
  // The select offers the day's free slots, as the API gives them.
  expect(await offeredTimes(page)).toEqual(await freeSlots(request, date));
  await timeSelect(page).selectOption(time);
  await fillVisitor(page, { name: `Booker ${tag}`, email: `booker.${tag}@example.com`, phone: "+31 6 1234 5678" });

  // Hold the request to see the processing state.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let posted: Record<string, string> | null = null;
  await page.route("**/api/meetings/schedule", async (route) => {
    posted = route.request().postDataJSON();
    await gate;
    await route.continue();
  });
  await confirmButton(page).click();
  await expect(confirmButton(page)).toHaveText(en.contact.booking.processing);
  await expect(confirmButton(page)).toBeDisabled();
  await expect(confirmButton(page).locator("svg.animate-spin")).toBeVisible();
  // The form fetches its token first, so the request may leave a moment after the button changes.
  await expect.poll(() => posted).not.toBeNull();
  expect(posted).toMatchObject({
    name: `Booker ${tag}`,
    email: `booker.${tag}@example.com`,
    phone: "+31 6 1234 5678",
    date,
    time,
    // Nothing chosen: whoever is free first who speaks the page's language, at the office.
    consultant: "any",
    place: "office",
  });
  release();

  // The confirmation names the day and time booked (then whom, when the server says, and where).
  const toast = toasts(page);
  await expect(toast.locator("p").first()).toHaveText(en.contact.toast.scheduleSuccess);
  await expect(toast.locator("p").nth(1)).toContainText(
    en.contact.toast.scheduleWhen.replace("{{date}}", formatDate("en", date)).replace("{{time}}", time),
  );
  await expect(toast.locator("p").nth(1)).toContainText(en.contact.booking.placeSentence.office);
  await expect(toast).toHaveAttribute("role", "status");
  await expect(dialog(page)).toBeHidden();
  await expect(scheduleButton(page)).toBeFocused();

  // Reopened: name, email and phone are empty again.
  await scheduleButton(page).click();
  await expect(dialog(page)).toBeVisible();
  for (const name of ["name", "email", "phone"] as const) await expect(input(page, name)).toHaveValue("");
  await expect(confirmButton(page)).toBeDisabled();

  // A second visitor picks the same day: the booked time is gone, the others are still there.
  const other = await newVisitor(browser);
  await openDialog(other.page);
  await pickDay(other.page, date);
  await expect(timeSelect(other.page)).toBeEnabled();
  const offered = await offeredTimes(other.page);
  expect(offered).not.toContain(time);
  expect(offered, "the other times are still offered").toEqual(await freeSlots(request, date));
  expect(offered).toContain(free[0]);
  await other.context.close();
});

test("race: two visitors confirm the same slot at once; one gets it, the other is told and sees fresh slots", async ({
  page,
  browser,
  request,
}) => {
  // The first day from DAY.race on with room to race (a repeated run, --repeat-each, fills days up).
  let date = "";
  let free: string[] = [];
  for (const day of (await bookableDays(request)).slice(DAY.race)) {
    free = await freeSlots(request, day);
    date = day;
    if (free.length > 3) break;
  }
  expect(free.length, `free slots on ${date}`).toBeGreaterThan(3);
  const time = free[2];
  const tag = uniqueTag();
  const second = await newVisitor(browser);
  const visitors = [page, second.page];

  await Promise.all(visitors.map((p) => openDialog(p)));
  for (const [i, p] of visitors.entries()) {
    await pickDay(p, date);
    await timeSelect(p).selectOption(time);
    await fillVisitor(p, {
      name: `Racer${i} ${tag}`,
      email: `racer${i}.${tag}@example.com`,
      phone: `+31 6 000 000 ${i}0`,
    });
    await expect(confirmButton(p)).toBeEnabled();
  }
  await Promise.all(visitors.map((p) => confirmButton(p).click()));

  const results = await Promise.all(
    visitors.map(async (p) => {
      await expect(toasts(p)).toHaveCount(1);
      return (await toasts(p).innerText()).trim();
    }),
  );
  const won = results.filter((text) => text.includes(en.contact.toast.scheduleSuccess));
  const lost = results.filter((text) => text.includes(en.contact.toast.slotTaken));
  expect(won, results.join(" | ")).toHaveLength(1);
  expect(lost, results.join(" | ")).toHaveLength(1);

  const winner = visitors[results.findIndex((text) => text.includes(en.contact.toast.scheduleSuccess))];
  const loser = visitors[results.findIndex((text) => text.includes(en.contact.toast.slotTaken))];
  await expect(toasts(loser)).toHaveAttribute("role", "alert");
  await expect(toasts(loser)).toContainText(en.contact.toast.errorTitle);
  await expect(dialog(winner)).toBeHidden();
  // The loser stays in the dialog with the slots refetched: the taken time is gone, the first free one selected.
  await expect(dialog(loser)).toBeVisible();
  await expect.poll(() => offeredTimes(loser)).not.toContain(time);
  const stillFree = await freeSlots(request, date);
  expect(stillFree).not.toContain(time);
  expect(await offeredTimes(loser)).toEqual(stillFree);
  await expect(timeSelect(loser)).toHaveValue(stillFree[0]);
  await expect(input(loser, "name")).not.toHaveValue("");
  await second.context.close();
});

test("weekend days cannot be picked; a day without slots says so and Confirm stays disabled", async ({ page }) => {
  // Every day answers with no slots.
  await page.route("**/api/meetings/available-slots?*", (route) =>
    route.fulfill({ contentType: "application/json", body: JSON.stringify({ success: true, data: [] }) }),
  );
  await openDialog(page);

  // The grid shows weekend days as disabled, and clicking one does nothing. Next month's first
  // Saturday is always ahead of today and within the 60-day horizon: only the weekend rule disables it.
  await dialog(page).locator("button[data-month=next]").click();
  const days = await dialog(page)
    .locator("button[data-date]")
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-date")!));
  const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();
  const saturday = days.find((d) => weekday(d) === 6)!;
  await expect(dayButton(page, saturday)).toHaveAttribute("aria-disabled", "true");
  const requests: string[] = [];
  page.on("request", (r) => r.url().includes("available-slots") && requests.push(r.url()));
  await dayButton(page, saturday).click({ force: true });
  expect(requests, "clicking a weekend day loads nothing").toEqual([]);
  await expect(dialog(page).locator(`td:has(> button[data-date="${saturday}"])`)).toHaveAttribute(
    "aria-selected",
    "false",
  );
  for (const sunday of days.filter((d) => weekday(d) === 0)) {
    await expect(dayButton(page, sunday)).toHaveAttribute("aria-disabled", "true");
  }

  // No slots: the text, the single disabled option, and Confirm disabled even with every field filled.
  await expect(dialog(page).getByText(en.contact.booking.noSlots, { exact: true })).toBeVisible();
  await expect(timeSelect(page)).toBeDisabled();
  await expect(timeSelect(page).locator("option")).toHaveCount(1);
  await expect(timeSelect(page).locator("option")).toHaveText(en.contact.booking.noSlotsOption);
  await expect(timeSelect(page).locator("option")).toBeDisabled();
  await fillVisitor(page, { name: "Nobody Here", email: "nobody@example.com", phone: "+31 6 1111 2222" });
  await expect(confirmButton(page)).toBeDisabled();
});

test("a failed slot request shows the error toast", async ({ page }) => {
  await page.route("**/api/meetings/available-slots?*", (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({ success: false, message: "Internal error" }),
    }),
  );
  await openDialog(page);
  const toast = toasts(page);
  await expect(toast).toHaveAttribute("role", "alert");
  await expect(toast.locator("p").first()).toHaveText(en.contact.toast.slotsErrorTitle);
  await expect(toast.locator("p").nth(1)).toHaveText(en.contact.toast.slotsError);
  await expect(timeSelect(page)).toBeDisabled();
});

test("checks on confirm: name, email and phone messages under the fields, each cleared by editing; Confirm needs every field", async ({
  page,
}) => {
  await page.route("**/api/meetings/available-slots?*", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ success: true, data: ["10:00", "10:30"] }),
    }),
  );
  let posts = 0;
  page.on("request", (r) => r.url().includes("/api/meetings/schedule") && posts++);
  await openDialog(page);
  await expect(timeSelect(page)).toHaveValue("10:00");

  // Confirm is disabled while any field is empty.
  await expect(confirmButton(page)).toBeDisabled();
  await input(page, "name").fill("A");
  await input(page, "email").fill("a@b");
  await expect(confirmButton(page)).toBeDisabled();
  await input(page, "phone").fill("12345");
  await expect(confirmButton(page)).toBeEnabled();
  await input(page, "name").fill("  ");
  await expect(confirmButton(page)).toBeDisabled();
  await input(page, "name").fill("A");

  await confirmButton(page).click();
  const v = en.contact.validation;
  const expected = {
    name: v.nameMessage,
    email: v.emailHint.replace("{{email}}", "name@example.com"),
    phone: v.phoneMessage,
  };
  for (const [name, text] of Object.entries(expected) as Array<["name" | "email" | "phone", string]>) {
    const error = page.locator(`#bk-${name}-error`);
    await expect(error).toHaveText(text);
    await expect(input(page, name)).toHaveAttribute("aria-invalid", "true");
    await expect(input(page, name)).toHaveAttribute("aria-describedby", `bk-${name}-error`);
    const [fieldBox, errorBox] = [await input(page, name).boundingBox(), await error.boundingBox()];
    expect(errorBox!.y).toBeGreaterThanOrEqual(fieldBox!.y + fieldBox!.height - 1);
    const color = await error.evaluate((el) => getComputedStyle(el).color);
    expect(isRed(color), `${name} message colour ${color}`).toBe(true);
  }
  expect(posts, "nothing is sent").toBe(0);

  // Each message clears as soon as its field is edited; the others stay.
  await input(page, "name").pressSequentially("n");
  await expect(page.locator("#bk-name-error")).toHaveCount(0);
  await expect(input(page, "name")).toHaveAttribute("aria-invalid", "false");
  await expect(page.locator("#bk-email-error")).toBeVisible();
  await input(page, "email").pressSequentially(".nl");
  await expect(page.locator("#bk-email-error")).toHaveCount(0);
  await expect(page.locator("#bk-phone-error")).toBeVisible();
  await input(page, "phone").pressSequentially("6");
  await expect(page.locator("#bk-phone-error")).toHaveCount(0);
  expect(posts).toBe(0);
});

for (const lang of ["en", "fa"] as const) {
  test(`${lang}: the open dialog ${lang === "fa" ? "is right to left with the Jalali calendar and " : ""}has no WCAG A/AA violations`, async ({
    page,
    request,
  }) => {
    const date = (await bookableDays(request))[5];
    await openDialog(page, lang);
    // The dialog's choices made: a named consultant (the first offered) and a video call.
    await dialog(page).locator("input[name=consultant]").nth(1).check();
    await dialog(page).locator("input[name=place][value=video]").check();
    await pickDay(page, date);
    await expect(timeSelect(page)).toBeEnabled();
    await expect(dialog(page).getByText(LOCALES[lang].contact.booking.officeTime)).toBeVisible();
    if (lang === "fa") {
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      expect(await dialog(page).getAttribute("dir"), "direction is inherited from <html>").toBeNull();
      expect(await dialog(page).evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
      expect(
        await dialog(page)
          .locator("[role=grid]")
          .evaluate((el) => getComputedStyle(el).direction),
      ).toBe("rtl");
      // A Jalali month in Persian digits, weeks from Saturday with the usual initials, each day its
      // Jalali number with the Gregorian one beneath, and the chosen day as "Jalali (Gregorian)".
      const jalaliMonths = [
        "فروردین",
        "اردیبهشت",
        "خرداد",
        "تیر",
        "مرداد",
        "شهریور",
        "مهر",
        "آبان",
        "آذر",
        "دی",
        "بهمن",
        "اسفند",
      ];
      const header = (await dialog(page).locator("[data-month-title]").innerText()).trim();
      expect(
        jalaliMonths.some((m) => header.startsWith(`${m} `)),
        header,
      ).toBe(true);
      expect(header).toMatch(/ ۱۴[۰-۹]{2}$/);
      expect(await dialog(page).locator("thead th span[aria-hidden=true]").allInnerTexts()).toEqual([
        "ش",
        "ی",
        "د",
        "س",
        "چ",
        "پ",
        "ج",
      ]);
      const chosen = formatDate("fa", date);
      expect(chosen).toMatch(/^\S+ [۰-۹]+ \S+ ۱۴[۰-۹]{2} \([۰-۹]+ \S+ ۲۰[۰-۹]{2}\)$/);
      await expect(dialog(page).getByText(fa.contact.booking.selectedDate.replace("{{date}}", chosen))).toBeVisible();
      const digits = (n: number) => String(n).replace(/\d/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[Number(d)]);
      const cell = await dayButton(page, date).locator("span[aria-hidden=true]").allInnerTexts();
      expect(cell[0]).toMatch(/^[۰-۹]+$/);
      expect(cell[1]).toBe(digits(Number(date.slice(8))));
      await expect(timeSelect(page).locator("option").first()).toHaveText(/^[۰-۹]{2}:[۰-۹]{2}$/);
      await expect(dialog(page).getByRole("heading", { name: fa.contact.booking.title })).toBeVisible();
    }
    await expectNoViolations(page, "dialog.booking-dialog");
  });
}
