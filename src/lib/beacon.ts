/**
 * The view counter: a few hundred bytes inlined into every counted public page after the head
 * script, as `(${beacon})(document, window, config)` (self-contained: no imports, no closures over
 * module scope; its CSP hash is computed with the head script's in layouts/BaseLayout.astro).
 *
 * After the page has loaded (and only once a prerendered page is shown) it sends one beacon to
 * POST /api/views: the page's path, whether it is the first page of the visit, and the visit's
 * first touch (referrer host and campaign tags). No cookie, no localStorage, no identifier: the
 * first touch is kept in sessionStorage for this tab only (gone when the tab closes), so the
 * enquiry and booking forms can say which page and campaign the visit started with
 * (src/lib/lead-source.ts reads it). A visitor without JavaScript is counted by the page's
 * <noscript> image instead.
 *
 * A link to an unprefixed address (`/?utm_source=…`, as campaign links usually are) is redirected
 * by the head script to a language (src/lib/boot.ts) before anything is counted there; the page it
 * lands on is the visit's first page, counted once, with the campaign tags its address kept and the
 * referrer the head script left under VISIT_HOP_KEY (its own address would name the redirect).
 */
export interface BeaconConfig {
  /** The route table's `views` entry. */
  url: string;
  /** The sessionStorage key of the visit's first touch (VISIT_KEY). */
  key: string;
  /** The sessionStorage key of the redirect's referrer (VISIT_HOP_KEY). */
  hop: string;
}

/** The sessionStorage key the first touch is kept under. */
export const VISIT_KEY = "visit";
/** The sessionStorage key under which the redirect from an unprefixed address leaves its referrer's host. */
export const VISIT_HOP_KEY = "visit-hop";

/** The first touch of a visit, as the tab keeps it. */
export interface FirstTouch {
  landing: string;
  referrer: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
}

export function beacon(doc: Document, win: Window, cfg: BeaconConfig): void {
  const loc = win.location;
  // No control characters, 64 characters at most: the server cuts and filters again.
  const tag = (name: string) =>
    (new URLSearchParams(loc.search).get(name) || "").replace(/[\u0000-\u001f\u007f-\u009f]/g, "").slice(0, 64);
  let first: FirstTouch | null = null;
  let entry = false;
  // The redirect from an unprefixed address left the host that sent the visitor there (null: no redirect).
  let hop: string | null = null;
  try {
    hop = win.sessionStorage.getItem(cfg.hop);
    if (hop !== null) win.sessionStorage.removeItem(cfg.hop);
    first = JSON.parse(win.sessionStorage.getItem(cfg.key) || "null") as FirstTouch | null;
  } catch {
    first = null;
  }
  if (!first) {
    let referrer = "";
    let redirected = false;
    try {
      const from = doc.referrer ? new URL(doc.referrer) : null;
      referrer = from ? from.hostname : "";
      // Our own unprefixed twin of this page ("/" for "/fa/", "/privacy" for "/fa/privacy") redirected here.
      redirected =
        !!from &&
        from.origin === loc.origin &&
        `/${loc.pathname.split("/")[1]}${from.pathname === "/" ? "/" : from.pathname}` === loc.pathname;
    } catch {
      referrer = "";
    }
    if (redirected) referrer = hop || "";
    // Arriving from one of our own pages (a new tab) continues a visit; from anywhere else starts one,
    // and so does a redirect from our own unprefixed address, unless that page was reached from ours.
    entry = referrer !== loc.hostname;
    first = {
      landing: loc.pathname,
      referrer: entry ? referrer : "",
      utmSource: tag("utm_source"),
      utmMedium: tag("utm_medium"),
      utmCampaign: tag("utm_campaign"),
    };
    try {
      win.sessionStorage.setItem(cfg.key, JSON.stringify(first));
    } catch {
      // Storage refused (private mode, full): the view still counts, the forms send the page only.
    }
  }
  const view = first;
  const send = () => {
    try {
      win.navigator.sendBeacon(
        cfg.url,
        JSON.stringify({
          p: loc.pathname,
          r: view.referrer,
          s: view.utmSource,
          m: view.utmMedium,
          c: view.utmCampaign,
          e: entry ? 1 : 0,
        }),
      );
    } catch {
      // No beacon (an old browser): this view is not counted.
    }
  };
  const whenLoaded = () =>
    doc.readyState === "complete" ? send() : win.addEventListener("load", send, { once: true });
  // A page prerendered for a link the visitor may never follow is counted only once it is shown.
  if ((doc as Document & { prerendering?: boolean }).prerendering) {
    doc.addEventListener("prerenderingchange", whenLoaded, { once: true });
  } else whenLoaded();
}
