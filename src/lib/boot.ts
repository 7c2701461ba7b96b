/**
 * The tiny script that runs in <head> before first paint. It is inlined into every page as
 * `(${boot})(document, window, config)`, so it must stay self-contained: no imports, no closures
 * over module scope. Its CSP hash is computed at build time (see layouts/BaseLayout.astro).
 *
 * - On a language-prefixed page it stores that language (cookie and localStorage).
 * - On an unprefixed page it resolves the language (cookie, ?lang, localStorage, then on a first
 *   visit GET /api/detect-language, falling back to the browser language, then English), stores it
 *   and redirects to the prefixed twin, keeping query and hash; the page stays hidden meanwhile.
 *   Before it goes, it leaves the page that sent the visitor here (its host) in sessionStorage under
 *   `hop`, so the view counter on the twin counts this as the visit's first page, with the right
 *   referrer (src/lib/beacon.ts): the redirect itself is not a view.
 * - On the first page view of a browser session it shows the splash screen for 2.5 s.
 * - After the first contentful paint it fetches the page's web fonts into the cache for the later
 *   pages of the session, which turn them on at once (html.wf).
 */
export interface BootConfig {
  /** Name of the language cookie, `<slug>_language`. */
  cookie: string;
  langs: readonly string[];
  /** The page's language, or null on an unprefixed page that must redirect. */
  page: string | null;
  /** Whether this page shows the splash on the first view of a session. */
  splash: boolean;
  /** Whether visiting this page stores its language (not on error pages). */
  store: boolean;
  /** Where a first visit asks which language to show (the route table's detectLanguage). */
  detect: string;
  /** The sessionStorage key the redirect leaves its referrer's host under (beacon.ts VISIT_HOP_KEY). */
  hop?: string;
}

export function boot(doc: Document, win: Window, cfg: BootConfig): string | Promise<string> | null {
  const valid = (v: string | null | undefined): v is string => !!v && cfg.langs.indexOf(v) >= 0;
  const tryGet = (read: () => string | null): string | null => {
    try {
      return read();
    } catch {
      return null;
    }
  };
  const store = (lang: string) => {
    const secure = win.location.protocol === "https:" ? "; Secure" : "";
    doc.cookie = `${cfg.cookie}=${lang}; Max-Age=2592000; Path=/; SameSite=Lax${secure}`;
    tryGet(() => {
      win.localStorage.setItem("i18nextLng", lang);
      return null;
    });
  };
  const html = doc.documentElement;

  if (!valid(cfg.page)) {
    html.classList.add("redirecting");
    const hop = cfg.hop;
    const go = (lang: string) => {
      store(lang);
      if (hop)
        tryGet(() => {
          win.sessionStorage.setItem(hop, doc.referrer ? new URL(doc.referrer).hostname : "");
          return null;
        });
      const path = win.location.pathname.replace(/\/+$/, "") || "";
      const target = (path ? `/${lang}${path}` : `/${lang}/`) + win.location.search + win.location.hash;
      win.location.replace(target);
      return target;
    };
    const known = [
      tryGet(() => {
        const m = doc.cookie.match(new RegExp(`(?:^|; )${cfg.cookie}=([^;]*)`));
        return m ? decodeURIComponent(m[1]) : null;
      }),
      tryGet(() => new URLSearchParams(win.location.search).get("lang")),
      tryGet(() => win.localStorage.getItem("i18nextLng")),
    ].filter(valid)[0];
    if (known) return go(known);
    const fromBrowser = () => {
      const tags = (win.navigator.languages || [win.navigator.language || ""]) as readonly string[];
      for (let i = 0; i < tags.length; i++) {
        const primary = String(tags[i]).toLowerCase().split(/[-_]/)[0];
        if (valid(primary)) return primary;
      }
      return cfg.langs[0];
    };
    // First visit, nothing stored: ask the server (country, Accept-Language); on any failure or
    // after 2 s, fall back to the browser's language, then English.
    const controller = typeof AbortController === "function" ? new AbortController() : null;
    const timer = win.setTimeout(() => controller && controller.abort(), 2000);
    return win
      .fetch(cfg.detect, { credentials: "include", signal: controller ? controller.signal : undefined })
      .then((r) => (r.ok ? r.json() : null))
      .then((body: { language?: string } | null) => go(body && valid(body.language) ? body.language : fromBrowser()))
      .catch(() => go(fromBrowser()))
      .finally(() => win.clearTimeout(timer));
  }

  if (cfg.store) store(cfg.page);
  if (cfg.splash && !tryGet(() => win.sessionStorage.getItem("splash-seen"))) {
    tryGet(() => {
      win.sessionStorage.setItem("splash-seen", "1");
      return null;
    });
    html.classList.add("splash");
    win.setTimeout(() => html.classList.add("splash-done"), 2500);
    win.setTimeout(() => html.classList.remove("splash", "splash-done"), 2900);
  }

  // Web fonts: the first page of a visit keeps the metric-matched fallback (styles/fonts.css, same
  // room) that it painted with; after its first paint the page's faces (the first family of
  // --font-web) are fetched into the cache, and the later pages of the session use them from their
  // first paint (html.wf at once). This is what font-display: optional (the faces' setting) showed
  // on a first page anyway when the family was switched on after the first paint (the files came
  // after its 100 ms), at the price of a restyle and layout of the whole page; and a font switched
  // on mid-page moves text whose fallback wraps differently.
  let fontsOn = false;
  const webFonts = () => {
    if (fontsOn) return;
    fontsOn = true;
    const unquote = (name: string) => name.trim().replace(/^["']|["']$/g, "");
    const loads: Promise<unknown>[] = [];
    tryGet(() => {
      const family = unquote(win.getComputedStyle(html).getPropertyValue("--font-web").split(",")[0]);
      doc.fonts.forEach((face) => {
        if (family && unquote(face.family) === family) loads.push(face.load());
      });
      return null;
    });
    const remember = () =>
      tryGet(() => {
        win.sessionStorage.setItem("wf", "1");
        return null;
      });
    // A face that fails now is fetched again by the next page, which then uses its fallback.
    Promise.all(loads).then(remember, remember);
  };
  if (tryGet(() => win.sessionStorage.getItem("wf"))) {
    fontsOn = true;
    html.classList.add("wf");
  } else {
    tryGet(() => {
      new PerformanceObserver((list) => {
        if (list.getEntriesByName("first-contentful-paint").length) webFonts();
      }).observe({ type: "paint", buffered: true });
      return null;
    });
    win.setTimeout(webFonts, 3000);
  }
  return null;
}
