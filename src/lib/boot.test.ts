import { describe, expect, test, vi } from "vitest";
import { boot, type BootConfig } from "./boot";

/** A minimal stand-in for the browser globals the head script touches. */
function fakeBrowser({
  url = "https://site.test/",
  cookie = "",
  stored = null as string | null,
  languages = ["en-US"] as string[],
  session = {} as Record<string, string>,
  detected = undefined as string | undefined | Error,
  fontWeb = '"Inter", "Inter fallback: Arial", sans-serif',
  faces = [] as { family: string; load: () => Promise<unknown> }[],
  /** When given, timers wait here (by delay) instead of running at once. */
  timers = undefined as Map<number, () => void> | undefined,
} = {}) {
  const u = new URL(url);
  const cookies: string[] = [];
  const classes = new Set<string>();
  const local = new Map<string, string>(stored ? [["i18nextLng", stored]] : []);
  const sessionStore = new Map(Object.entries(session));
  const replace = vi.fn();
  const doc = {
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      cookies.push(value);
    },
    documentElement: {
      classList: {
        add: (...c: string[]) => c.forEach((x) => classes.add(x)),
        remove: (...c: string[]) => c.forEach((x) => classes.delete(x)),
      },
    },
    fonts: { forEach: (fn: (face: (typeof faces)[number]) => void) => faces.forEach(fn) },
  } as unknown as Document;
  const win = {
    location: { protocol: u.protocol, pathname: u.pathname, search: u.search, hash: u.hash, replace },
    localStorage: { getItem: (k: string) => local.get(k) ?? null, setItem: (k: string, v: string) => local.set(k, v) },
    sessionStorage: {
      getItem: (k: string) => sessionStore.get(k) ?? null,
      setItem: (k: string, v: string) => sessionStore.set(k, v),
    },
    navigator: { languages, language: languages[0] },
    getComputedStyle: () => ({ getPropertyValue: (name: string) => (name === "--font-web" ? fontWeb : "") }),
    setTimeout: (fn: () => void, ms: number) => (timers ? timers.set(ms, fn) : fn(), 0),
    clearTimeout: () => {},
    fetch: vi.fn(async (url: string) => {
      if (url !== "/api/detect-language") throw new Error(`unexpected fetch ${url}`);
      if (detected instanceof Error) throw detected;
      return { ok: detected !== undefined, json: async () => ({ language: detected }) };
    }),
  } as unknown as Window;
  return { doc, win, cookies, classes, local, replace, sessionStore };
}

const config = (page: string | null, extra: Partial<BootConfig> = {}): BootConfig => ({
  cookie: "brand_language",
  langs: ["en", "nl", "fa"],
  page,
  splash: true,
  store: true,
  detect: "/api/detect-language",
  ...extra,
});

describe("head script on an unprefixed page", () => {
  test("redirects by cookie first, keeping path, query and hash", () => {
    const b = fakeBrowser({
      url: "https://site.test/startup-visa?lang=nl#process",
      cookie: "x=1; brand_language=fa",
      stored: "en",
    });
    expect(boot(b.doc, b.win, config(null))).toBe("/fa/startup-visa?lang=nl#process");
    expect(b.replace).toHaveBeenCalledWith("/fa/startup-visa?lang=nl#process");
  });
  test("then ?lang, then localStorage, without asking the server", () => {
    const query = fakeBrowser({ url: "https://site.test/?lang=nl", stored: "fa" });
    expect(boot(query.doc, query.win, config(null))).toBe("/nl/?lang=nl");
    const stored = fakeBrowser({ stored: "fa", languages: ["nl"] });
    expect(boot(stored.doc, stored.win, config(null))).toBe("/fa/");
    expect(stored.win.fetch).not.toHaveBeenCalled();
  });
  test("on a first visit, the server's detected language", async () => {
    const b = fakeBrowser({ languages: ["en-US"], detected: "fa" });
    expect(await boot(b.doc, b.win, config(null))).toBe("/fa/");
    expect(b.win.fetch).toHaveBeenCalledWith("/api/detect-language", expect.anything());
  });
  test("when the server fails or answers nonsense, the browser language, then English", async () => {
    const failed = fakeBrowser({ languages: ["de-DE", "nl-BE"], detected: new Error("offline") });
    expect(await boot(failed.doc, failed.win, config(null))).toBe("/nl/");
    const nonsense = fakeBrowser({ languages: ["fa-IR"], detected: "xx" });
    expect(await boot(nonsense.doc, nonsense.win, config(null))).toBe("/fa/");
    const none = fakeBrowser({ languages: ["de"], detected: new Error("offline") });
    expect(await boot(none.doc, none.win, config(null))).toBe("/en/");
  });
  test("stores the chosen language in a 30-day cookie on path / and in localStorage", async () => {
    const b = fakeBrowser({ url: "https://site.test/", detected: "fa" });
    await boot(b.doc, b.win, config(null));
    expect(b.cookies[0]).toBe("brand_language=fa; Max-Age=2592000; Path=/; SameSite=Lax; Secure");
    expect(b.local.get("i18nextLng")).toBe("fa");
  });
  test("hides the page while it redirects, so no wrong language flashes", async () => {
    const b = fakeBrowser({ detected: "nl" });
    await boot(b.doc, b.win, config(null));
    expect(b.classes.has("redirecting")).toBe(true);
  });
  test("ignores an unknown cookie value", async () => {
    const b = fakeBrowser({ cookie: "brand_language=de", detected: "fa" });
    expect(await boot(b.doc, b.win, config(null))).toBe("/fa/");
  });
});

describe("head script on a language page", () => {
  test("stores the page language and does not redirect", () => {
    const b = fakeBrowser({ url: "http://localhost/nl/", cookie: "brand_language=fa" });
    expect(boot(b.doc, b.win, config("nl"))).toBeNull();
    expect(b.replace).not.toHaveBeenCalled();
    expect(b.cookies[0]).toBe("brand_language=nl; Max-Age=2592000; Path=/; SameSite=Lax");
  });
  test("an error page stores nothing", () => {
    const b = fakeBrowser({ url: "http://localhost/nope" });
    boot(b.doc, b.win, config("en", { store: false, splash: false }));
    expect(b.cookies).toEqual([]);
  });
  test("shows the splash once per browser session", () => {
    const first = fakeBrowser({ url: "http://localhost/en/" });
    const added: string[] = [];
    const add = first.doc.documentElement.classList.add;
    first.doc.documentElement.classList.add = (...c: string[]) => (added.push(...c), add(...c));
    boot(first.doc, first.win, config("en"));
    expect(added).toContain("splash");
    expect(first.sessionStore.get("splash-seen")).toBe("1");

    const again = fakeBrowser({ url: "http://localhost/en/startup-visa", session: { "splash-seen": "1" } });
    boot(again.doc, again.win, config("en"));
    expect(again.classes.has("splash")).toBe(false);
  });
  test("after the first paint fetches the page's web font for the next pages, and keeps this one as painted", async () => {
    let arrive = () => {};
    const inter = { family: "Inter", load: vi.fn(() => new Promise<void>((resolve) => (arrive = resolve))) };
    const vazirmatn = { family: '"Vazirmatn"', load: vi.fn(async () => {}) };
    const timers = new Map<number, () => void>();
    const b = fakeBrowser({ url: "http://localhost/en/", faces: [inter, vazirmatn, { ...vazirmatn }], timers });
    boot(b.doc, b.win, config("en"));
    expect(inter.load).not.toHaveBeenCalled();
    timers.get(3000)!(); // no paint entry in the fake: the 3 s fallback stands for the first paint
    expect(inter.load).toHaveBeenCalledOnce();
    expect(vazirmatn.load).not.toHaveBeenCalled();
    expect(b.sessionStore.get("wf"), "not before the file is here").toBeUndefined();
    arrive();
    await vi.waitFor(() => expect(b.sessionStore.get("wf")).toBe("1"));
    expect(b.classes.has("wf"), "no restyle and layout of this page").toBe(false);
  });
  test("a Persian page fetches both Vazirmatn faces; a failed one does not stop the next page", async () => {
    const faces = [
      { family: "Inter", load: vi.fn(async () => {}) },
      { family: "Vazirmatn", load: vi.fn(async () => {}) },
      { family: "Vazirmatn", load: vi.fn(() => Promise.reject(new Error("offline"))) },
    ];
    const timers = new Map<number, () => void>();
    const b = fakeBrowser({ url: "http://localhost/fa/", fontWeb: "Vazirmatn, Tahoma, sans-serif", faces, timers });
    boot(b.doc, b.win, config("fa"));
    timers.get(3000)!();
    expect(faces.map((f) => f.load.mock.calls.length)).toEqual([0, 1, 1]);
    await vi.waitFor(() => expect(b.sessionStore.get("wf")).toBe("1"));
    expect(b.classes.has("wf")).toBe(false);
  });
  test("a later page of the session turns the web fonts on at once (they are in the cache)", () => {
    const inter = { family: "Inter", load: vi.fn(async () => {}) };
    const b = fakeBrowser({ url: "http://localhost/en/", session: { wf: "1" }, faces: [inter] });
    boot(b.doc, b.win, config("en"));
    expect(b.classes.has("wf")).toBe(true);
    expect(inter.load).not.toHaveBeenCalled();
  });
});
