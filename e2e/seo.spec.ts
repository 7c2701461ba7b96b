import { expect, test } from "./test";

/** Page metadata: description, canonical, hreflang alternates, social tags, structured data; sitemap and robots. */

// Head metadata is static HTML: read it without running scripts (no redirects, splash or hydration).
test.use({ javaScriptEnabled: false });

const langs = ["en", "nl", "fa"] as const;
const routes = ["/", "/startup-visa", "/business-launchpad", "/startup-studio", "/privacy"] as const;
const servicePaths = ["/startup-visa", "/business-launchpad", "/startup-studio"];

type Json = Record<string, any>;

for (const lang of langs) {
  for (const route of routes) {
    const path = `/${lang}${route === "/" ? "/" : route}`;
    test(`${path} has description, canonical, alternates, social tags and structured data`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      const head = page.locator("head");

      const description = await head.locator('meta[name="description"]').getAttribute("content");
      expect(description?.trim().length, "meta description").toBeGreaterThan(20);

      const canonical = await head.locator('link[rel="canonical"]').getAttribute("href");
      expect(canonical).toMatch(/^https:\/\//);
      const canonicalUrl = new URL(canonical!);
      expect(canonicalUrl.pathname).toBe(path);
      const origin = canonicalUrl.origin;

      const alternates = await head
        .locator('link[rel="alternate"][hreflang]')
        .evaluateAll((links) =>
          Object.fromEntries(links.map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")])),
        );
      const unprefixed = route === "/" ? "/" : route;
      expect(alternates).toEqual({
        en: `${origin}/en${unprefixed}`,
        nl: `${origin}/nl${unprefixed}`,
        fa: `${origin}/fa${unprefixed}`,
        "x-default": `${origin}${unprefixed}`,
      });

      const title = await page.title();
      expect(title).toMatch(/Bridgewise/);
      await expect(head.locator('meta[property="og:title"]')).toHaveAttribute("content", title);
      await expect(head.locator('meta[property="og:image"]')).toHaveAttribute(
        "content",
        /^https:\/\/.+\.(png|jpe?g|webp|svg)$/,
      );
      await expect(head.locator('meta[property="og:url"]')).toHaveAttribute("content", canonical!);
      await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute("content", /^summary(_large_image)?$/);

      const blocks = await head.locator('script[type="application/ld+json"]').allTextContents();
      expect(blocks.length, "JSON-LD script").toBeGreaterThan(0);
      const nodes: Json[] = blocks.flatMap((text) => {
        const data = JSON.parse(text) as Json;
        return data["@graph"] ?? [data];
      });
      const org = nodes.find((n) => n["@type"] === "Organization");
      expect(org, "Organization in JSON-LD").toBeDefined();
      expect(org!.name).toBe("Bridgewise");
      expect(org!.logo).toMatch(/^https:\/\//);
      expect(org!.address?.addressCountry).toBe("NL");
      const contact = [org!.contactPoint].flat()[0] as Json;
      expect([...contact.areaServed].sort()).toEqual(["EU", "IR", "NL"]);
      expect([...contact.availableLanguage].sort()).toEqual(["en", "fa", "nl"]);

      const list = nodes.find((n) => n["@type"] === "ItemList");
      const services: Json[] = (list?.itemListElement ?? []).map((e: Json) => e.item ?? e);
      expect(services.map((s) => s["@type"])).toEqual(["Service", "Service", "Service"]);
      expect(services.map((s) => s.url)).toEqual(servicePaths.map((p) => `${origin}/${lang}${p}`));
      for (const s of services) expect(String(s.name ?? "").length, "service name").toBeGreaterThan(2);
    });
  }
}

test("/sitemap.xml lists the 15 pages, each with its hreflang alternates", async ({ request }) => {
  const response = await request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("xml");
  const xml = await response.text();
  expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
  const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => m[1]);
  expect(urls).toHaveLength(15);
  const locs = urls.map((u) => new URL(/<loc>([^<]+)<\/loc>/.exec(u)![1]).pathname).sort();
  const expected = langs.flatMap((l) => routes.map((r) => `/${l}${r === "/" ? "/" : r}`)).sort();
  expect(locs).toEqual(expected);
  for (const u of urls) {
    const hreflangs = [...u.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\s*\/>/g)]
      .map((m) => m[1])
      .sort();
    expect(hreflangs, u).toEqual(["en", "fa", "nl", "x-default"]);
  }
});

test("/robots.txt disallows /admin and points to the sitemap", async ({ request }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  const text = await response.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).toMatch(/^Disallow: \/admin\/?$/m);
  expect(text).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
});
