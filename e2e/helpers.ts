import type { BrowserContext, Page } from "@playwright/test";

/** Marks the splash as already seen for this browser session, so it does not cover the page. */
export async function skipSplash(context: BrowserContext) {
  await context.addInitScript(() => sessionStorage.setItem("splash-seen", "1"));
}

/** Waits until a React island has hydrated (Astro removes `ssr` from <astro-island> then). */
export async function hydrated(page: Page, component: string) {
  await page.locator(`astro-island[component-url*="${component}"]:not([ssr])`).first().waitFor({ state: "attached" });
}
