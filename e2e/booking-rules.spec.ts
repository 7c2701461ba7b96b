import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { expect, test } from "./test";
import type { BookingRules, OfficeCalendar } from "../src/shared/api/availability";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import { ADMIN, bookableDays, formData, freeSlots, openContactForm, skipSplash, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";

/**
 * The admin's booking rules and meeting outcomes in the admin's language (the browser's: en, nl or
 * fa, right to left), free of axe violations; and the manage page once the change cut-off has
 * passed: it says why and how to reach the office.
 */

const COPY = { en, nl, fa } as const;
const LOCALES = { en: "en-GB", nl: "nl-NL", fa: "fa-IR" } as const;

async function signIn(page: Page) {
  const response = await page.request.post("/api/login", { data: ADMIN });
  expect(response.status(), await response.text()).toBe(200);
}

async function seedMeeting(request: APIRequestContext, name: string, days: string[]) {
  for (const date of days) {
    const slots = await freeSlots(request, date);
    if (!slots.length) continue;
    const email = `${name.replace(/\W/g, "").toLowerCase()}@example.com`;
    const response = await request.post("/api/meetings/schedule", {
      data: await formData(request, { name, email, phone: "+31 6 1234 5678", date, time: slots.at(-1) }),
    });
    if (response.status() === 409) continue;
    expect(response.status(), await response.text()).toBe(201);
    return { date, time: slots.at(-1)!, email };
  }
  throw new Error("no free meeting slot found");
}

for (const lang of ["en", "nl", "fa"] as const) {
  test.describe(`the admin in ${lang}`, () => {
    test.use({ locale: LOCALES[lang] });
    const copy = COPY[lang].admin;

    test("the booking rules section speaks the admin's language, marks bad values and has no axe violations", async ({
      page,
    }) => {
      await signIn(page);
      await page.goto("/admin/availability");
      const section = page.locator("[data-booking-rules]");
      await expect(section.getByRole("heading", { level: 2, name: copy.bookingRules.title })).toBeVisible();
      await expect(section).toHaveAttribute("lang", lang);
      await expect(section).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
      const notice = section.getByLabel(copy.bookingRules.notice);
      await expect(notice).toBeVisible();
      await expectNoViolations(page, "[data-booking-rules]");

      // A negative notice: the field says what is wrong, in the admin's language, and nothing is sent.
      await notice.fill("-1");
      let sent = false;
      page.on("request", (r) => r.method() === "PUT" && r.url().includes("/api/admin/booking-rules") && (sent = true));
      await section.getByRole("button", { name: copy.bookingRules.save }).click();
      await expect(notice).toHaveAttribute("aria-invalid", "true");
      await expect(section.getByRole("alert")).toHaveText(copy.bookingRules.saveError);
      expect(sent).toBe(false);
      await expectNoViolations(page, "[data-booking-rules]");
    });

    test("a meeting card offers done and no-show once the meeting has started; the server has the last word", async ({
      page,
      request,
    }) => {
      const name = `Outcome ${uniqueTag()}`;
      const { date, time } = await seedMeeting(request, name, await bookableDays(request));
      // The browser's clock an hour after the meeting: the card offers the outcome. The server's
      // clock is today, so it refuses (409) and the card says so.
      await page.clock.install({ time: new Date(`${date}T${time}:00+01:00`).getTime() + 2 * 3_600_000 });
      await signIn(page);
      await page.goto("/admin/meetings");
      const card = page.getByRole("article", { name });
      const group = card.getByRole("group", { name: copy.outcome.label });
      await expect(group).toBeVisible();
      await expect(group).toHaveAttribute("lang", lang);
      await expect(group.getByRole("button", { name: copy.outcome.done })).toHaveAttribute("aria-pressed", "false");
      await expectNoViolations(page, "main");
      await group.getByRole("button", { name: copy.outcome.done }).click();
      await expect(page.locator("[data-toast-region] [data-variant=destructive]")).toContainText(
        copy.outcome.saveError,
      );
      await expect(group.getByRole("button", { name: copy.outcome.done })).toHaveAttribute("aria-pressed", "false");
      // The figures (on the leads page) count outcomes, in the admin's language.
      await page.goto("/admin/leads");
      await expect(page.locator("dt", { hasText: copy.outcome.statsNoShow })).toBeVisible();
    });
  });
}

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

// Changes the site-wide cut-off for a moment: runs alone, and puts the rules back.
test(
  "past the cut-off the manage page says why it cannot change the meeting and how to reach the office",
  {
    lock: "-exclusive-",
  },
  async ({ page, context, request }) => {
    await skipSplash(context);
    await signIn(page);
    const before = (await (await page.request.get("/api/admin/booking-rules")).json()).data as BookingRules;
    const name = `Cutoff ${uniqueTag()}`;
    // Within the next week: a 7-day cut-off has passed for it.
    const { email } = await seedMeeting(request, name, (await bookableDays(request)).slice(0, 3));
    try {
      expect(
        (
          await page.request.put("/api/admin/booking-rules", { data: { ...before, changeCutoffMinutes: 7 * 24 * 60 } })
        ).status(),
      ).toBe(200);
      const link = await manageLinkFor(email);
      for (const lang of ["fa", "en"] as const) {
        await page.goto(link.replace(/^\/[a-z]{2}\//, `/${lang}/`));
        const closed = page.getByTestId("changes-closed");
        await expect(closed).toBeVisible();
        await expect(closed).toContainText(COPY[lang].manage.changesContact);
        await expect(closed.getByRole("link", { name: "hello@bridgewise.eu" })).toHaveAttribute(
          "href",
          "mailto:hello@bridgewise.eu",
        );
        await expect(closed.locator('a[href^="tel:"]')).toBeVisible();
        await expect(page.getByRole("button", { name: COPY[lang].manage.move })).toHaveCount(0);
        await expect(page.getByRole("button", { name: COPY[lang].manage.cancelMeeting })).toHaveCount(0);
        if (lang === "fa") await expect(closed).toContainText("۷ روز");
        else await expect(closed).toContainText("7 days");
        await expectNoViolations(page);
      }
    } finally {
      expect((await page.request.put("/api/admin/booking-rules", { data: before })).status()).toBe(200);
    }
  },
);

// Changes the site-wide notice for a moment: runs alone, and puts the rules back.
test(
  "with a week's notice the booking dialog's month grid greys out the days before it and opens on the first bookable one",
  {
    lock: "-exclusive-",
  },
  async ({ page, context }) => {
    await skipSplash(context);
    await signIn(page);
    const before = (await (await page.request.get("/api/admin/booking-rules")).json()).data as BookingRules;
    try {
      const put = await page.request.put("/api/admin/booking-rules", {
        data: { ...before, noticeMinutes: 7 * 24 * 60 },
      });
      expect(put.status()).toBe(200);
      const calendar = (await (await page.request.get("/api/meetings/calendar")).json()).data as OfficeCalendar;
      await openContactForm(page, "en");
      await page.locator("#contact-form").getByRole("button", { name: en.contact.scheduleButton }).click();
      const dialog = page.locator("dialog.booking-dialog");
      const chosen = dialog.locator("td[aria-selected=true] button[data-date]");
      await expect(chosen).toBeVisible();
      const first = (await chosen.getAttribute("data-date"))!;
      expect(first >= calendar.earliest.date, `${first} is at least a week ahead`).toBe(true);
      // Every working day shown before the earliest start is greyed out; today first of all.
      const shown = await dialog
        .locator("button[data-date]")
        .evaluateAll((buttons) =>
          buttons.map((b) => [b.getAttribute("data-date") ?? "", b.getAttribute("aria-disabled") ?? ""] as const),
        );
      const earlier = shown.filter(([date]) => date >= calendar.today && date < calendar.earliest.date);
      expect(earlier.length).toBeGreaterThan(0);
      for (const [date, disabled] of earlier) expect(disabled, date).toBe("true");
      await expect(dialog.locator(`button[data-date="${first}"]`)).not.toHaveAttribute("aria-disabled");
    } finally {
      expect((await page.request.put("/api/admin/booking-rules", { data: before })).status()).toBe(200);
    }
  },
);
