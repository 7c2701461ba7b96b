import { expect, test } from "./test";

// The browser says German (no supported language), while the request headers the server sees
// say Persian: only the server's answer can send the visitor to /fa/.
test.use({ locale: "de-DE", extraHTTPHeaders: { "Accept-Language": "fa-IR,fa;q=0.9" } });

test("a first visit to / asks GET /api/detect-language and follows its answer", async ({ page }) => {
  // Pass the real answer through, keeping a copy (the body is gone once the page navigates away).
  let answer: unknown;
  await page.route("**/api/detect-language", async (route) => {
    const response = await route.fetch();
    answer = await response.json();
    await route.fulfill({ response });
  });
  await page.goto("/");
  await expect(page).toHaveURL(/\/fa\/$/);
  expect(answer).toEqual({ language: "fa" });
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
});

test("an unprefixed page keeps its path, query and hash after detection", async ({ page }) => {
  await page.goto("/startup-studio?ref=ad#contact");
  await expect(page).toHaveURL(/\/fa\/startup-studio\?ref=ad#contact$/);
});

test("when detection fails, the browser language decides (here none: English)", async ({ page }) => {
  await page.route("**/api/detect-language", (route) => route.fulfill({ status: 503, body: "{}" }));
  await page.goto("/");
  await expect(page).toHaveURL(/\/en\/$/);
});

test("a stored language skips the server", async ({ page, context }) => {
  await context.addCookies([{ name: "bridgewise_language", value: "nl", url: "http://localhost" }]);
  let asked = false;
  page.on("request", (r) => {
    if (r.url().includes("/api/detect-language")) asked = true;
  });
  await page.goto("/");
  await expect(page).toHaveURL(/\/nl\/$/);
  expect(asked).toBe(false);
});
