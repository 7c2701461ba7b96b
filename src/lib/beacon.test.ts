import { describe, expect, test, vi } from "vitest";
import { beacon, VISIT_HOP_KEY, VISIT_KEY } from "./beacon";
import { boot, type BootConfig } from "./boot";

/**
 * The view counter and the head script's redirect together, in a stand-in browser: what each page
 * of a tab sends, with the sessionStorage the tab keeps between its pages.
 */
function tab({ storage = true } = {}) {
  const session = new Map<string, string>();
  const sent: Record<string, unknown>[] = [];
  let referrer = "";
  let url = new URL("https://site.test/");
  const sessionStorage = {
    getItem: (k: string) => {
      if (!storage) throw new Error("SecurityError");
      return session.get(k) ?? null;
    },
    setItem: (k: string, v: string) => {
      if (!storage) throw new Error("QuotaExceededError");
      session.set(k, v);
    },
    removeItem: (k: string) => session.delete(k),
  };
  const win = () =>
    ({
      location: {
        origin: url.origin,
        hostname: url.hostname,
        pathname: url.pathname,
        search: url.search,
        hash: url.hash,
        protocol: url.protocol,
        replace: vi.fn(),
      },
      sessionStorage,
      localStorage: { getItem: () => null, setItem: () => {} },
      navigator: { sendBeacon: (_u: string, body: string) => sent.push(JSON.parse(body)), languages: ["en"] },
      addEventListener: () => {},
      setTimeout: () => 0,
      clearTimeout: () => {},
      // The language detection is offline here: the head script falls back to the browser's (English).
      fetch: () => Promise.reject(new Error("offline")),
    }) as unknown as Window;
  const doc = () =>
    ({
      referrer,
      readyState: "complete",
      cookie: "",
      documentElement: { classList: { add: () => {}, remove: () => {} } },
    }) as unknown as Document;
  const bootConfig: BootConfig = {
    cookie: "brand_language",
    langs: ["en", "nl", "fa"],
    page: null,
    splash: false,
    store: true,
    detect: "/api/detect-language",
    hop: VISIT_HOP_KEY,
  };
  return {
    sent,
    session,
    /** Opens an address, coming from `from` (a full address, or "" for none). */
    open(address: string, from = "") {
      url = new URL(address, "https://site.test");
      referrer = from;
      const prefixed = /^\/(en|nl|fa)(\/|$)/.test(url.pathname);
      if (!prefixed) {
        // The unprefixed page: the head script redirects, and nothing is counted here.
        void boot(doc(), win(), bootConfig);
        return;
      }
      beacon(doc(), win(), { url: "/api/views", key: VISIT_KEY, hop: VISIT_HOP_KEY });
    },
  };
}

/** Follows a campaign link to an unprefixed address: the head script's redirect, then the page it lands on. */
async function followRedirect(t: ReturnType<typeof tab>, address: string, from: string) {
  t.open(address, from);
  // The head script asks the server first (refused here), then redirects to /en/ + the query.
  await new Promise((r) => setTimeout(r, 0));
  const url = new URL(address, "https://site.test");
  t.open(
    `/en${url.pathname === "/" ? "/" : url.pathname}${url.search}`,
    `https://site.test${url.pathname}${url.search}`,
  );
}

describe("a campaign link to the bare domain", () => {
  test("is counted once, as the visit's first page, with its tags and the referrer before the redirect", async () => {
    const t = tab();
    await followRedirect(
      t,
      "/?utm_source=newsletter&utm_medium=email&utm_campaign=dec-digest",
      "https://mail.example.org/inbox",
    );
    expect(t.sent).toEqual([{ p: "/en/", r: "mail.example.org", s: "newsletter", m: "email", c: "dec-digest", e: 1 }]);
    expect(JSON.parse(t.session.get(VISIT_KEY)!)).toMatchObject({ landing: "/en/", utmCampaign: "dec-digest" });
    expect(t.session.has(VISIT_HOP_KEY)).toBe(false);
    // The next page continues the visit.
    t.open("/en/startup-visa", "https://site.test/en/?utm_source=newsletter");
    expect(t.sent[1]).toMatchObject({ p: "/en/startup-visa", s: "newsletter", e: 0 });
  });

  test("typed in (no referrer) on an inner page, it is a direct visit's first page", async () => {
    const t = tab();
    await followRedirect(t, "/startup-visa", "");
    expect(t.sent).toEqual([{ p: "/en/startup-visa", r: "", s: "", m: "", c: "", e: 1 }]);
  });

  test("reached from one of our own pages in a new tab, it continues that visit", async () => {
    const t = tab();
    await followRedirect(t, "/", "https://site.test/fa/privacy");
    expect(t.sent).toEqual([{ p: "/en/", r: "", s: "", m: "", c: "", e: 0 }]);
  });

  test("without sessionStorage the landing page still counts it once as a visit (the referrer is lost)", async () => {
    const t = tab({ storage: false });
    await followRedirect(t, "/?utm_source=instagram", "https://l.instagram.com/");
    expect(t.sent).toEqual([{ p: "/en/", r: "", s: "instagram", m: "", c: "", e: 1 }]);
  });
});

describe("a link to a page in a language", () => {
  test("counts its first page as the visit, later pages as views", () => {
    const t = tab();
    t.open("/fa/?utm_source=telegram", "https://t.me/");
    t.open("/fa/startup-visa", "https://site.test/fa/");
    expect(t.sent.map((v) => [v.p, v.r, v.s, v.e])).toEqual([
      ["/fa/", "t.me", "telegram", 1],
      ["/fa/startup-visa", "t.me", "telegram", 0],
    ]);
  });
});
