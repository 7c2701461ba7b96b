import type { APIRequestContext, Browser } from "@playwright/test";
import { expect, test } from "./test";
import { bookableDays, formData, freeSlots, keepScreenshot } from "./helpers";
import { expectNoViolations } from "./axe";
import { inviteAccount } from "./invite";
import { FIRST_CONSULTANT_ID } from "../src/shared/consultants";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };

/**
 * One timeline per person: from an enquiry's card to the person's page (by its reference, never the
 * address), where both enquiries of the address (typed in another case the second time) are listed,
 * a meeting of theirs that staff moved shows its move, and a note added there shows at once and
 * after a reload. In English, Dutch and Persian (right to left, Persian digits), with axe and
 * screenshots at 390 and 1280 px.
 */

const ADMIN = { username: "admin", password: "e2e-admin-password" };
const COPY = { en, nl, fa } as const;
const uniqueTag = () =>
  Array.from({ length: 10 }, () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(Math.random() * 26)]).join("");

async function enquire(request: APIRequestContext, email: string, tag: string) {
  const body = await formData(request, {
    firstName: "Timeline",
    lastName: tag,
    email,
    service: "startup-visa",
    message: `A message long enough to pass, ${tag}.`,
  });
  const res = await request.post("/api/contact", { data: body });
  expect(res.status(), await res.text()).toBe(201);
}

type Booked = { id: number; date: string; time: string; consultant: string };

/** Books a meeting for `email` with the first consultant, then moves it, as `staff` (signed in), to another free time. */
async function bookAndMove(request: APIRequestContext, staff: APIRequestContext, origin: string, email: string) {
  // Some way ahead (past any notice), in random order: the workers book beside each other.
  for (const date of (await bookableDays(request, 10)).sort(() => Math.random() - 0.5)) {
    const slots = await freeSlots(request, date);
    if (slots.length < 2) continue;
    const booked = await request.post("/api/meetings/schedule", {
      data: await formData(request, {
        name: "Timeline Mover",
        email,
        phone: "+31 6 1234 5678",
        date,
        time: slots[0],
        consultant: FIRST_CONSULTANT_ID,
      }),
    });
    if (booked.status() === 409) continue;
    expect(booked.status(), await booked.text()).toBe(201);
    const meeting = (await booked.json()).data as Booked;
    const moved = await staff.post(`/api/admin/meetings/${meeting.id}/move`, {
      data: { date, time: slots.at(-1), was: { date, time: meeting.time, consultant: meeting.consultant } },
      headers: { origin },
    });
    if (moved.status() === 409) continue;
    expect(moved.status(), await moved.text()).toBe(200);
    return meeting;
  }
  throw new Error("no free time to book and move a meeting");
}

/** A throwaway admin, so changing the panel's language touches nobody else's. */
async function newAdmin(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  expect((await context.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  const username = `person${uniqueTag()}`;
  const password = await inviteAccount(context.request, ADMIN.password, { username, role: "admin" }, baseURL);
  await context.close();
  return { username, password };
}

for (const lang of ["en", "nl", "fa"] as const) {
  test(`an admin opens the person's page from a card and adds a note (${lang})`, async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.slow();
    const c = COPY[lang].admin.person;
    const tag = uniqueTag();
    const email = `timeline.${tag}@example.com`;
    await Promise.all([enquire(request, email, tag), enquire(request, email.toUpperCase(), tag)]);
    const account = await newAdmin(browser, baseURL!);
    expect((await page.request.post("/api/login", { data: account })).status()).toBe(200);
    const chosen = await page.request.patch("/api/user", { data: { language: lang }, headers: { origin: baseURL! } });
    expect(chosen.status(), await chosen.text()).toBe(200);
    // A meeting of the same address, moved by this admin.
    await bookAndMove(request, page.request, baseURL!, email.toUpperCase());

    await page.goto(`/admin/submissions?q=${tag}`);
    const cards = page.getByRole("article");
    await expect(cards).toHaveCount(2);
    await cards.first().getByTestId("open-person").click();
    await expect(page).toHaveURL(/\/admin\/person\?ref=E-\d{5}$/);
    expect(page.url()).not.toContain("example.com");
    await expect(page.locator("html")).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
    // Both enquiries of the address, whatever its case.
    await expect(page.getByTestId("timeline-enquiry")).toHaveCount(2);

    const note = `${tag}: wants the visa checklist`;
    await page.getByLabel(c.notes.add).fill(note);
    await page.getByRole("button", { name: c.notes.save }).click();
    await expect(page.getByTestId("timeline-note").first()).toContainText(note);
    await page.reload();
    await expect(page.getByTestId("timeline-note").first()).toContainText(note);
    await expect(page.getByTestId("timeline-note").first().getByRole("button", { name: c.notes.edit })).toBeVisible();
    if (lang === "fa") await expect(page.getByRole("list").locator("time").first()).toHaveText(/[۰-۹]/);
    // The move shows on its own: from the booked time to the new one, by this admin.
    const moved = page.getByTestId("timeline-moved");
    await expect(moved).toHaveCount(1);
    await expect(moved).toContainText(account.username);
    await expect(moved).toContainText(
      lang === "fa" ? /[۰-۹]{2}:[۰-۹]{2}.*[۰-۹]{2}:[۰-۹]{2}/ : /\d{2}:\d{2}.*\d{2}:\d{2}/,
    );
    // Its booking says where it is now, not that it was booked for that time.
    const now = c.items.meetingMoved.split("{{reference}}")[1].split("{{date}}")[0].trim();
    await expect(page.getByTestId("timeline-meeting")).toContainText(now);

    await expectNoViolations(page);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await keepScreenshot(page, { path: test.info().outputPath(`person-${lang}-${width}.png`), fullPage: true });
    }
  });
}
