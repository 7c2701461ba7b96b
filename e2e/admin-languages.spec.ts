import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import en from "../src/i18n/locales/en.json" with { type: "json" };
import nl from "../src/i18n/locales/nl.json" with { type: "json" };
import fa from "../src/i18n/locales/fa.json" with { type: "json" };
import rules from "../src/i18n/copy-rules.json" with { type: "json" };
import { ADMIN, keepScreenshot, skipSplash, uniqueTag } from "./helpers";
import { expectNoViolations } from "./axe";
import { officeAddressLine } from "../src/config/site.ts";
import { inviteAccount } from "./invite";

/**
 * The admin panel in the person's language: each person picks English, Dutch or Persian in the
 * header, their account remembers it, and every admin page then speaks it: <html lang dir>, Persian
 * digits and Jalali dates in fa, and no visible word left in English (each visible text is an admin
 * text of that language; names, addresses and other people's data are marked translate="no").
 * Screenshots of every page at 390 and 1280 px in each language go to the test's folder in
 * test-results/ (admin-*.png).
 */

const COPY = { en, nl, fa } as const;
type Lang = keyof typeof COPY;
const PAGES = [
  { path: "/admin/leads", name: "leads", heading: (c: typeof en.admin) => c.layout.titles.leads },
  { path: "/admin/meetings", name: "meetings", heading: (c: typeof en.admin) => c.layout.titles.meetings },
  { path: "/admin/privacy", name: "privacy", heading: (c: typeof en.admin) => c.layout.titles.privacy },
  { path: "/admin/availability", name: "availability", heading: (c: typeof en.admin) => c.availability.title },
  { path: "/admin/consultants", name: "consultants", heading: (c: typeof en.admin) => c.consultants.title },
  { path: "/admin/texts", name: "texts", heading: (c: typeof en.admin) => c.editor.title },
  { path: "/admin/sources", name: "sources", heading: (c: typeof en.admin) => c.sources.title },
  { path: "/admin/security", name: "security", heading: (c: typeof en.admin) => c.security.title },
  { path: "/admin/audit", name: "audit", heading: (c: typeof en.admin) => c.audit.title },
] as const;

/** Every leaf text of a group, placeholders taken out. */
function leaves(value: unknown): string[] {
  if (typeof value === "string") return [value.replace(/\{\{\w+\}\}/g, "").trim()];
  return Object.values(value as object).flatMap(leaves);
}

/** The visible text nodes of the page, outside what is marked as data (translate="no") or another language. */
async function visibleTexts(page: Page, lang: Lang): Promise<string[]> {
  return page.evaluate((lang) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const el = node.parentElement;
      if (!text || !el) continue;
      if (el.closest("script, style, noscript, select, textarea, [hidden], [translate='no'], [aria-hidden='true']"))
        continue;
      const own = el.closest("[lang]")?.getAttribute("lang");
      if (own && own !== lang) continue;
      if (!el.checkVisibility()) continue;
      out.push(text);
    }
    return out;
  }, lang);
}

/** A throwaway admin account, invited by the test admin: this test changes its own language only. */
async function newAdmin(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  expect((await context.request.post("/api/login", { data: ADMIN })).status()).toBe(200);
  const username = `panel${uniqueTag()}`;
  const password = await inviteAccount(context.request, ADMIN.password, { username, role: "admin" }, baseURL);
  await context.close();
  return { username, password };
}

/** Headless Chromium names itself a robot, which the counter does not count: a visitor's browser. */
const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

const PERSIAN_MONTHS = /(فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند) [۰-۹]{4}/;
// Names the Persian texts keep (copy-rules.json), the brand, and the preview's page paths.
const KEPT_IN_LATIN = new RegExp(`\\b(${[...rules.keepInEnglish.fa, "Bridgewise", "F8"].join("|")})\\b`, "g");

/**
 * Signs a fresh throwaway admin in through the form (the panel is in the browser's language, English,
 * until the person chooses) with the data every view shows: counted visits and an invitation.
 */
async function signedInAdmin(browser: Browser, baseURL: string) {
  const { username, password } = await newAdmin(browser, baseURL);
  // Counted visits, so the Sources view lists pages and campaigns: data, shown as it is in every language.
  for (const p of ["/en/", "/fa/startup-visa"]) {
    const counted = await browser.newContext({ baseURL, userAgent: DESKTOP_CHROME });
    const res = await counted.request.post("/api/views", {
      data: JSON.stringify({ p, r: "www.google.com", s: "newsletter", m: "email", c: "spring", e: 1 }),
      headers: { "content-type": "text/plain;charset=UTF-8", origin: baseURL, "sec-fetch-site": "same-origin" },
    });
    expect(res.status()).toBe(204);
    await counted.close();
  }
  const context = await browser.newContext({ baseURL, locale: "en-GB" });
  await skipSplash(context);
  const page = await context.newPage();

  // Sign in through the form: the panel is in the browser's language (English) until the person chooses.
  await page.goto("/admin/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("heading", { level: 1, name: en.admin.layout.titles.leads })).toBeVisible({
    timeout: 60_000,
  });
  // An invitation: the audit record then names another account, which is data in every language.
  await inviteAccount(page.request, password, { username: `invited${uniqueTag()}`, role: "editor" }, baseURL);
  return { username, context, page };
}

// One test per language, each with its own account, so the workers share them. English is chosen
// after Dutch, as a person coming back to it would: the choice is then a change the account remembers.
for (const [lang, before] of [
  ["nl", undefined],
  ["fa", undefined],
  ["en", "nl"],
] as const) {
  test(`each person's panel language (${lang}): remembered, right to left with Persian digits and Jalali dates, no English left`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(420_000);
    const { username, context, page } = await signedInAdmin(browser, baseURL!);
    if (before) {
      await page.getByTestId("panel-language").selectOption(before);
      await expect(page.locator("html")).toHaveAttribute("lang", before);
      await expect.poll(async () => (await (await page.request.get("/api/user")).json()).user.language).toBe(before);
    }

    const copy = COPY[lang].admin;
    await page.getByTestId("panel-language").selectOption(lang);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    // Remembered on the account: a new browser session opens in it.
    await expect.poll(async () => (await (await page.request.get("/api/user")).json()).user.language).toBe(lang);
    const english = new Set(leaves(en.admin).filter((text) => text && !leaves(copy).includes(text)));

    for (const { path, name, heading } of PAGES) {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: heading(copy) })).toBeVisible({ timeout: 60_000 });
        await expect(page.locator("html")).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        await page.waitForLoadState("networkidle");
        await keepScreenshot(page, {
          path: test.info().outputPath(`admin-${name}-${lang}-${width}.png`),
          fullPage: true,
        });
        if (width === 1280) await expectNoViolations(page);
      }
      const texts = await visibleTexts(page, lang);
      expect(texts.length, path).toBeGreaterThan(10);
      if (lang === "fa") {
        const latin = texts.filter((t) =>
          // The person's user name, the office's address and the video room's {random} marker are
          // data, shown as they are.
          /[A-Za-z0-9]/.test(
            t
              .replace(username, "")
              .replace(officeAddressLine, "")
              .replace("{random}", "")
              .replace(KEPT_IN_LATIN, "")
              .replace(/https?:\/\/\S*/g, ""),
          ),
        );
        expect(latin, `${path}: Latin letters or digits in the Persian panel`).toEqual([]);
      } else {
        expect(
          texts.filter((t) => english.has(t)),
          `${path}: English left in the ${lang} panel`,
        ).toEqual([]);
      }
    }
    if (lang === "fa") {
      // The coming public holidays on the availability page: Jalali dates in Persian digits.
      await page.goto("/admin/availability");
      await expect(page.locator("li time").first()).toHaveText(PERSIAN_MONTHS);
    }
    await context.close();
  });
}

// The login page follows the browser until someone signs in.
for (const [lang, locale] of [
  ["nl", "nl-NL"],
  ["fa", "fa-IR"],
  ["en", "en-GB"],
] as const) {
  test(`the login page follows the browser until someone signs in (${lang})`, async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const visitor = await browser.newContext({ baseURL, locale });
    const login = await visitor.newPage();
    for (const width of [390, 1280]) {
      await login.setViewportSize({ width, height: 800 });
      await login.goto("/admin/login");
      await expect(login.getByRole("heading", { level: 1, name: COPY[lang].admin.login.title })).toBeVisible({
        timeout: 60_000,
      });
      await expect(login.locator("html")).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
      await keepScreenshot(login, { path: test.info().outputPath(`admin-login-${lang}-${width}.png`), fullPage: true });
    }
    await expectNoViolations(login);
    await visitor.close();
  });
}
