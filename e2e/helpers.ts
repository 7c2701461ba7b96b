import type { BrowserContext, Page } from "@playwright/test";

/** Marks the splash as already seen for this browser session, so it does not cover the page. */
export async function skipSplash(context: BrowserContext) {
  await context.addInitScript(() => sessionStorage.setItem("splash-seen", "1"));
}

/** Waits until a React island has hydrated (Astro removes `ssr` from <astro-island> then). */
export async function hydrated(page: Page, component: string) {
  await page.locator(`astro-island[component-url*="${component}"]:not([ssr])`).first().waitFor({ state: "attached" });
}

/** Cookie that remembers the visitor's language (spec section 9: `{product}_language`). */
export const LANGUAGE_COOKIE = "bridgewise_language";

/** Hovers the navbar (the island hydrates on first interaction) and waits until React has taken over. */
export async function hydrateNavbar(page: Page) {
  await page.locator("header nav").first().hover({ position: { x: 5, y: 5 } });
  await hydrated(page, "Navbar");
}

/** Waits for `count` animation frames in the page (lets synchronous UI updates paint, without a fixed sleep). */
export async function frames(page: Page, count = 2) {
  await page.evaluate(
    (n) =>
      new Promise<void>((resolve) => {
        const step = (left: number) => (left <= 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
        step(n);
      }),
    count,
  );
}

/** Distance in px from the viewport top to the top of the element with this id. */
export async function topOf(page: Page, id: string) {
  return page.evaluate((el) => Math.round(document.getElementById(el)!.getBoundingClientRect().top), id);
}

/** Waits until scrolling has stopped (window.scrollY unchanged over 6 consecutive frames). */
export async function scrollSettled(page: Page) {
  await page.waitForFunction(() => {
    const w = window as unknown as { __lastY?: number; __same?: number };
    w.__same = w.__lastY === window.scrollY ? (w.__same ?? 0) + 1 : 0;
    w.__lastY = window.scrollY;
    return w.__same >= 6;
  }, undefined, { polling: "raf" });
}
