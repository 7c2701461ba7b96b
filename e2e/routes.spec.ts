import { expect, test } from "./test";
import { skipSplash } from "./helpers";

test.beforeEach(async ({ context }) => {
  await skipSplash(context);
});

const routes = ["/", "/startup-visa", "/business-launchpad", "/startup-studio", "/privacy"];
const langs = ["en", "nl", "fa"] as const;

for (const lang of langs) {
  for (const route of routes) {
    test(`${route} answers in ${lang} with its title, lang and dir`, async ({ page }) => {
      const url = `/${lang}${route === "/" ? "/" : route}`;
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.locator("html")).toHaveAttribute("dir", lang === "fa" ? "rtl" : "ltr");
      await expect(page).toHaveTitle(/Bridgewise/);
      await expect(page.locator("h1")).toBeVisible();
      await expect(page.locator("link[rel=canonical]")).toHaveAttribute(
        "href",
        new RegExp(`/${lang}${route === "/" ? "/" : route}$`),
      );
    });
  }
}
