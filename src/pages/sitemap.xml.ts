import type { APIRoute } from "astro";
import { LANGUAGES } from "../shared/languages";
import { pages } from "../data/services";
import { alternates, pageUrl } from "../lib/seo";

/** sitemap.xml: every page in every language, each with its hreflang alternates. */
export const GET: APIRoute = () => {
  const urls = pages.flatMap((page) =>
    LANGUAGES.map((lang) => {
      const links = alternates(page.path)
        .map((a) => `    <xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${a.href}"/>`)
        .join("\n");
      return `  <url>\n    <loc>${pageUrl(lang, page.path)}</loc>\n${links}\n  </url>`;
    }),
  );
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
};
