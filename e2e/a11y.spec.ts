import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { hydrated, scrollToTestimonials, skipSplash } from "./helpers";
import { expectNoViolations } from "./axe";

/** Accessibility (WCAG 2.2 AA via axe-core) and the security headers / CSP of the built site. */

/** Lets the page settle as a visitor sees it: fonts loaded, and on home the carousel hydrated. */
async function ready(page: Page) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  if (await page.locator("#testimonials").count()) {
    await scrollToTestimonials(page);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  }
}

test.describe("axe", () => {
  test.beforeEach(async ({ context }) => {
    await skipSplash(context);
  });

  for (const lang of ["en", "nl", "fa"]) {
    for (const route of ["/", "/startup-visa", "/business-launchpad", "/startup-studio"]) {
      const path = `/${lang}${route === "/" ? "/" : route}`;
      test(`${path} has no WCAG A/AA violations`, async ({ page }) => {
        await page.goto(path);
        await ready(page);
        await expectNoViolations(page);
      });
    }
  }

  test("the 404 page has no WCAG A/AA violations", async ({ page }) => {
    const response = await page.goto("/does-not-exist");
    expect(response?.status()).toBe(404);
    await ready(page);
    await expectNoViolations(page);
  });

  test("the check reaches into a same-origin frame, as the text editor's preview is one", async ({ page }) => {
    await page.goto("/en/");
    await page.evaluate(() => {
      const frame = document.createElement("iframe");
      frame.title = "A frame with a nameless button";
      frame.srcdoc = '<html lang="en"><body><main><button></button></main></body></html>';
      document.body.append(frame);
      return new Promise((resolve) => frame.addEventListener("load", resolve));
    });
    await expect(expectNoViolations(page)).rejects.toThrow(/button-name \(critical\)[^\n]*\n\s+iframe button/);
  });

  test("the header with the services dropdown, then the language dropdown, open", async ({ page }) => {
    await page.goto("/en/");
    await ready(page);
    const services = page.locator("header nav > ul details");
    await services.locator("summary").click();
    await expect(services).toHaveAttribute("open", "");
    await expectNoViolations(page, "header");
    const language = page.locator("header nav details:has(a[hreflang])");
    await language.locator("summary").click();
    await expect(language).toHaveAttribute("open", "");
    await expectNoViolations(page, "header");
  });

  test.describe("at 390 px", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the page with the mobile menu open", async ({ page }) => {
      await page.goto("/fa/");
      await ready(page);
      const menu = page.locator("header nav details").last();
      await menu.locator("summary").click();
      await expect(menu).toHaveAttribute("open", "");
      await expect(menu.locator("a").first()).toBeVisible();
      await expectNoViolations(page);
    });
  });
});

test.describe("security", () => {
  test("security headers on /en/", async ({ request }) => {
    const response = await request.get("/en/");
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["strict-transport-security"]).toMatch(/max-age=\d{7,}/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBeTruthy();
    expect(headers["permissions-policy"]).toBeTruthy();
  });

  test("the page's CSP <meta> locks scripts down (no 'unsafe-inline' in script-src)", async ({ page }) => {
    await page.goto("/en/");
    const csp = await page.locator('meta[http-equiv="content-security-policy" i]').getAttribute("content");
    expect(csp, "CSP <meta> present").toBeTruthy();
    const scriptSrc = csp!
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("script-src"));
    expect(scriptSrc, `script-src in ${csp}`).toBeTruthy();
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
  });

  test("/_astro/ assets are cached as immutable", async ({ page, request }) => {
    await page.goto("/en/");
    // Hashed assets the page refers to: scripts, links, and the islands' code (loaded when needed).
    const assets = await page.evaluate(() =>
      [
        ...[...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>("script[src], link[href]")].map((el) =>
          "src" in el && el.src ? el.src : (el as HTMLLinkElement).href,
        ),
        ...[...document.querySelectorAll("astro-island[component-url]")].map(
          (el) => new URL(el.getAttribute("component-url")!, location.href).href,
        ),
      ].filter((url) => new URL(url).pathname.startsWith("/_astro/")),
    );
    expect(assets.length, "the page references /_astro/ assets").toBeGreaterThan(0);
    for (const url of assets.slice(0, 3)) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(200);
      expect(response.headers()["cache-control"], url).toContain("immutable");
    }
  });

  for (const lang of ["en", "fa"]) {
    test(`/${lang}/ logs no console errors and no CSP violations while used`, async ({ page, context }) => {
      await skipSplash(context);
      await context.addInitScript(() => {
        const w = window as unknown as { __csp: string[] };
        w.__csp = [];
        document.addEventListener("securitypolicyviolation", (e) =>
          w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
        );
      });
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));

      await page.goto(`/${lang}/`);
      await page.locator("header nav > ul details summary").click();
      await page.locator("#testimonials").scrollIntoViewIfNeeded();
      await hydrated(page, "TestimonialCarousel");
      await page.locator("#testimonials [aria-roledescription=carousel] ul[role=list] button").nth(1).click();
      await page.locator("footer").scrollIntoViewIfNeeded();
      await page.waitForLoadState("networkidle");

      const violations = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
      expect(violations, "CSP violations").toEqual([]);
      expect(errors, "console errors").toEqual([]);
    });
  }
});
