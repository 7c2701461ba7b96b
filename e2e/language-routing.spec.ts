import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import { LANGUAGE_COOKIE, skipSplash } from "./helpers";

/**
 * Language routing and resolution: the bare root and unprefixed
 * paths redirect to the language-prefixed page; the language comes from the cookie, then ?lang=,
 * then localStorage `i18nextLng`, then the browser language, then English.
 */

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

const setCookie = (context: BrowserContext, baseURL: string | undefined, value: string) =>
  context.addCookies([{ name: LANGUAGE_COOKIE, value, url: baseURL! }]);

/** Stores a language in localStorage on the site's origin without visiting a language page. */
async function setStoredLanguage(page: Page, value: string) {
  await page.goto("/robots.txt");
  await page.evaluate((v) => localStorage.setItem("i18nextLng", v), value);
}

/**
 * On a first visit with nothing stored the head script also asks GET /api/detect-language
 * before it falls back to the browser language. Making that call fail isolates the browser-language step.
 */
const failDetection = (page: Page) =>
  page.route("**/api/detect-language", (route) => route.fulfill({ status: 503, body: "{}" }));

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function expectLanded(page: Page, lang: string) {
  await expect.poll(() => pathOf(page)).toBe(`/${lang}/`);
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
  await expect(page.locator("h1")).toBeVisible();
}

test.describe("bare root with a browser in Persian (fa-IR)", () => {
  test.use({ locale: "fa-IR" });
  test.beforeEach(async ({ page }) => {
    await failDetection(page);
  });

  test("the cookie wins over ?lang, localStorage and the browser language", async ({ page, context, baseURL }) => {
    await setStoredLanguage(page, "en");
    await setCookie(context, baseURL, "nl");
    await page.goto("/?lang=en");
    await expectLanded(page, "nl");
  });

  test("?lang wins over localStorage and the browser language", async ({ page }) => {
    await setStoredLanguage(page, "en");
    await page.goto("/?lang=nl");
    await expectLanded(page, "nl");
    // The query string is kept on the redirect.
    expect(new URL(page.url()).search).toBe("?lang=nl");
  });

  test("localStorage i18nextLng wins over the browser language", async ({ page }) => {
    await setStoredLanguage(page, "nl");
    await page.goto("/");
    await expectLanded(page, "nl");
  });

  test("with nothing stored and no server answer, the browser language is used", async ({ page }) => {
    await page.goto("/");
    await expectLanded(page, "fa");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  });

  test("invalid cookie (xx), ?lang=de and localStorage (de) are ignored", async ({ page, context, baseURL }) => {
    await setStoredLanguage(page, "de");
    await setCookie(context, baseURL, "xx");
    await page.goto("/?lang=de");
    await expectLanded(page, "fa");
  });

  test("an invalid cookie falls through to a valid ?lang", async ({ page, context, baseURL }) => {
    await setCookie(context, baseURL, "xx");
    await page.goto("/?lang=en");
    await expectLanded(page, "en");
  });
});

test.describe("bare root with a browser in Dutch (nl-BE)", () => {
  test.use({ locale: "nl-BE" });
  test.beforeEach(async ({ page }) => {
    await failDetection(page);
  });

  test("the primary subtag of the browser language is used", async ({ page }) => {
    await page.goto("/");
    await expectLanded(page, "nl");
  });
});

test.describe("bare root with a browser in German (de-DE)", () => {
  test.use({ locale: "de-DE" });
  test.beforeEach(async ({ page }) => {
    await failDetection(page);
  });

  test("an unsupported browser language (and no server answer) falls back to English", async ({ page }) => {
    await page.goto("/");
    await expectLanded(page, "en");
  });

  test("?lang=de is ignored and English is used", async ({ page, context, baseURL }) => {
    await setCookie(context, baseURL, "xx");
    await page.goto("/?lang=de");
    await expectLanded(page, "en");
  });

  test("the resolved language is remembered for the next visit to /", async ({ page, context }) => {
    await page.goto("/?lang=fa");
    await expectLanded(page, "fa");
    const cookie = (await context.cookies()).find((c) => c.name === LANGUAGE_COOKIE);
    expect(cookie?.value).toBe("fa");
    await page.goto("/");
    await expectLanded(page, "fa");
  });
});

test.describe("unprefixed paths", () => {
  test.use({ locale: "de-DE" });

  test("/startup-visa?x=1#process redirects to /en/startup-visa?x=1#process", async ({ page }) => {
    await page.goto("/startup-visa?x=1#process");
    await expect(page).toHaveURL(/\/en\/startup-visa\?x=1#process$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.locator("h1")).toBeVisible();
  });

  test("with the cookie set to fa, /startup-visa?x=1#process redirects to /fa/startup-visa?x=1#process", async ({
    page,
    context,
    baseURL,
  }) => {
    await setCookie(context, baseURL, "fa");
    await page.goto("/startup-visa?x=1#process");
    await expect(page).toHaveURL(/\/fa\/startup-visa\?x=1#process$/);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  });

  test("/business-launchpad/ (trailing slash) with ?lang=nl redirects to /nl/business-launchpad", async ({ page }) => {
    await page.goto("/business-launchpad/?lang=nl");
    await expect(page).toHaveURL(/\/nl\/business-launchpad\?lang=nl$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "nl");
  });
});

test.describe("prefixed pages", () => {
  test.use({ locale: "de-DE" });

  test("visiting /nl/ stores the language: cookie for 30 days on path /, and localStorage", async ({
    page,
    context,
  }) => {
    await page.goto("/nl/");
    const cookie = (await context.cookies()).find((c) => c.name === LANGUAGE_COOKIE);
    expect(cookie, "language cookie set").toBeDefined();
    expect(cookie!.value).toBe("nl");
    expect(cookie!.path).toBe("/");
    const days = (cookie!.expires - Date.now() / 1000) / 86400;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThan(31);
    expect(await page.evaluate(() => localStorage.getItem("i18nextLng"))).toBe("nl");
    // …so the bare root now goes to Dutch although the browser is German.
    await page.goto("/");
    await expectLanded(page, "nl");
  });

  test("a prefixed page overrides a different stored language", async ({ page, context, baseURL }) => {
    await setCookie(context, baseURL, "nl");
    await page.goto("/fa/startup-studio");
    await expect(page).toHaveURL(/\/fa\/startup-studio$/);
    expect((await context.cookies()).find((c) => c.name === LANGUAGE_COOKIE)?.value).toBe("fa");
  });

  for (const [lang, dir] of [
    ["en", "ltr"],
    ["nl", "ltr"],
    ["fa", "rtl"],
  ] as const) {
    test(`/${lang}/ sets <html lang="${lang}" dir="${dir}">`, async ({ page }) => {
      const response = await page.goto(`/${lang}/`);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveURL(new RegExp(`/${lang}/$`));
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.locator("html")).toHaveAttribute("dir", dir);
      await expect(page.locator("body")).toHaveCSS("direction", dir);
    });
  }
});

test.describe("404", () => {
  test("/does-not-exist answers 404 with the English not-found page", async ({ page }) => {
    const response = await page.goto("/does-not-exist");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveURL(/\/does-not-exist$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("404 Page Not Found");
    await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("/nl/unknown answers 404 in Dutch", async ({ page }) => {
    const response = await page.goto("/nl/unknown");
    expect(response?.status()).toBe(404);
    await expect(page.locator("html")).toHaveAttribute("lang", "nl");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("404 Pagina niet gevonden");
  });

  test("/fa/unknown answers 404 in Persian, right to left", async ({ page }) => {
    const response = await page.goto("/fa/unknown");
    expect(response?.status()).toBe(404);
    await expect(page.locator("html")).toHaveAttribute("lang", "fa");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("۴۰۴");
  });

  test("/admin/anything answers 404", async ({ page }) => {
    const response = await page.goto("/admin/anything");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveURL(/\/admin\/anything$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("404 Page Not Found");
  });
});
