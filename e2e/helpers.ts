import { expect, type BrowserContext, type Locator, type Page } from "@playwright/test";
import type { AdminEnquiriesAnswer } from "../src/shared/api/enquiries";
import type { CalendarAnswer } from "../src/shared/api/availability";
import type { FormTokenAnswer } from "../src/shared/api/common";
import { isoWeekday } from "../src/shared/dates";

/**
 * Saves a screenshot for a person to look at (nothing compares it): at phone and desktop widths, in
 * each language, in the test's folder of test-results/. E2E_SHOTS=off skips it; CI and `npm run
 * test:changed`, where nobody opens them, run without (a full-page one costs Chromium 0.1–0.5 s of
 * CPU: docs/benchmarks.md, "Screenshots in CI").
 */
export async function keepScreenshot(
  target: Page | Locator,
  options: { path: string; fullPage?: boolean },
): Promise<void> {
  const shots = process.env.E2E_SHOTS ?? (process.env.CI ? "off" : "on");
  if (shots === "off" || shots === "0") return;
  await target.screenshot(options);
}

/** Marks the splash as already seen for this browser session, so it does not cover the page. */
export async function skipSplash(context: BrowserContext) {
  await context.addInitScript(() => sessionStorage.setItem("splash-seen", "1"));
}

/** Waits until a React island has hydrated (Astro removes `ssr` from <astro-island> then). */
export async function hydrated(page: Page, component: string) {
  await hydratedIsland(page, component).first().waitFor({ state: "attached" });
}

/** The islands of a React component that have hydrated. */
const hydratedIsland = (page: Page, component: string) =>
  page.locator(`astro-island[component-url*="${component}"]:not([ssr])`);

/**
 * Scrolls to the testimonials as a visitor scrolls, until their client:visible carousel hydrates:
 * the sections above them are laid out only as they near the viewport (content-visibility), so one
 * jump may land where the carousel no longer is, and unless something keeps Chromium drawing frames
 * (a trace's screencast does) it is never seen.
 */
export async function scrollToTestimonials(page: Page) {
  const island = hydratedIsland(page, "TestimonialCarousel");
  await expect
    .poll(async () => {
      await page.locator("#testimonials").scrollIntoViewIfNeeded();
      return island.count();
    })
    .toBeGreaterThan(0);
}

/** Cookie that remembers the visitor's language (`{product}_language`). */
/**
 * Holds every request to `url` (a glob) until the returned `release()`, then lets each through: a
 * test sees a sending state, or a page without that answer, for as long as its assertion needs,
 * however busy the machine (a fixed delay is a race the test loses under load).
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

export const LANGUAGE_COOKIE = "bridgewise_language";

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
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __lastY?: number; __same?: number };
      w.__same = w.__lastY === window.scrollY ? (w.__same ?? 0) + 1 : 0;
      w.__lastY = window.scrollY;
      return w.__same >= 6;
    },
    undefined,
    { polling: "raf" },
  );
}

/* ---- Visitor forms: enquiry, booking dialog, toasts, newsletter ---- */
import type { APIRequestContext } from "@playwright/test";

/** The admin account the e2e server is started with (playwright.config.ts). Never send a wrong password: logins are throttled. */
export const ADMIN = { username: "admin", password: "e2e-admin-password" };

/** A token no other test (or earlier run on the same database) uses: lower-case letters and digits. */
export function uniqueTag(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** The toast(s) on screen: `[role=status]` or, for errors, `[role=alert]` inside the notifications region. */
export const toasts = (page: Page) => page.locator("section[data-toast-region] [data-variant]");

/** Opens `/{lang}/`, scrolls the enquiry form into view (client:visible) and waits until it has hydrated. */
export async function openContactForm(page: Page, lang: string) {
  await page.goto(`/${lang}/`);
  await page.locator("#contact-form").scrollIntoViewIfNeeded();
  await hydrated(page, "ContactForm");
}

/** Signs in as the admin on this request context (same-origin header) and returns every enquiry. */
export async function adminEnquiries(request: APIRequestContext, baseURL: string): Promise<AdminEnquiriesAnswer> {
  const login = await request.post("/api/login", { data: ADMIN, headers: { origin: baseURL } });
  if (login.status() !== 200) throw new Error(`admin login failed: ${login.status()} ${await login.text()}`);
  const response = await request.get("/api/admin/submissions?limit=200");
  if (response.status() !== 200)
    throw new Error(`GET /api/admin/submissions: ${response.status()} ${await response.text()}`);
  return (await response.json()) as AdminEnquiriesAnswer;
}

/** Whether a computed CSS colour is a red (rgb() or oklch(), as browsers report Tailwind colours). */
export function isRed(color: string): boolean {
  const rgb = /^rgba?\((\d+(?:\.\d+)?)[,\s]+(\d+(?:\.\d+)?)[,\s]+(\d+(?:\.\d+)?)/.exec(color);
  if (rgb) {
    const [r, g, b] = rgb.slice(1, 4).map(Number);
    return r > 120 && r - g > 80 && r - b > 80;
  }
  const oklch = /^oklch\(\s*([\d.]+%?)\s+([\d.]+)\s+([\d.]+)/.exec(color);
  if (oklch) {
    const [chroma, hue] = [Number(oklch[2]), Number(oklch[3])];
    return chroma > 0.1 && (hue < 40 || hue > 340);
  }
  return false;
}

/** Bookable office days (Mon–Fri, not closed, within the horizon) at least `minDaysAhead` days after today, from GET /api/meetings/calendar. */
export async function bookableDays(request: APIRequestContext, minDaysAhead = 2): Promise<string[]> {
  const { data } = (await (await request.get("/api/meetings/calendar")).json()) as CalendarAnswer;
  const days: string[] = [];
  const day = new Date(`${data.today}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + minDaysAhead);
  for (; day.toISOString().slice(0, 10) <= data.lastDate; day.setUTCDate(day.getUTCDate() + 1)) {
    const ymd = day.toISOString().slice(0, 10);
    if (data.weekdays.includes(isoWeekday(ymd)) && !data.closedDates.includes(ymd)) days.push(ymd);
  }
  return days;
}

/** The free slots of a day, as the API answers them now. */
export async function freeSlots(request: APIRequestContext, date: string): Promise<string[]> {
  return ((await (await request.get(`/api/meetings/available-slots?date=${date}`)).json()) as { data: string[] }).data;
}

/** A form token, the server that issued it, and when that server accepts it (by this process's clock). */
type AgingToken = { token: string; server: string; usableAt: number };

async function fetchFormToken(request: APIRequestContext): Promise<AgingToken> {
  const response = await request.get("/api/form-token");
  const answer = (await response.json()) as FormTokenAnswer;
  return { token: answer.token, server: new URL(response.url()).origin, usableAt: Date.now() + answer.validInMs + 50 };
}

/**
 * A token this worker fetched at its last formData call, to age meanwhile: the server accepts a
 * token from about 2 s after it issued it, for 2 hours, once, from anyone (it is bound to no session).
 */
let spareToken: AgingToken | undefined;

/**
 * A public form's post body as its island sends it: the fields with a "form shown at" token from
 * GET /api/form-token, once the server accepts it (about 2 s), and the empty honeypot. The token
 * is the one this worker fetched at its previous call (by now usually old enough) and a new one is
 * kept to age in its place, so only a worker's first call waits the whole 2 s. Each token is used once.
 */
export async function formData<T extends object>(request: APIRequestContext, fields: T) {
  const fresh = await fetchFormToken(request);
  let mine = fresh;
  if (spareToken?.server === fresh.server) [mine, spareToken] = [spareToken, fresh];
  else spareToken = await fetchFormToken(request);
  const wait = mine.usableAt - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return { ...fields, formToken: mine.token, website: "" };
}

/** An enquiry for the lead desk's specs, sent through the real form endpoint: its id and reference. */
export async function seedLead(request: APIRequestContext, lastName: string, tag: string) {
  const response = await request.post("/api/contact", {
    data: await formData(request, {
      firstName: "Lead",
      lastName,
      email: `${tag}@example.com`,
      company: tag,
      service: "startup-visa",
      message: "We would like to talk about a European office.",
    }),
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; reference: string };
}
