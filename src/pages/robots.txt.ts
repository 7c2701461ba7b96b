import type { APIRoute } from "astro";
import { site } from "../config/site";

/** robots.txt: everything public may be crawled; the admin area may not. */
export const GET: APIRoute = () =>
  new Response(`User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: ${site.url}/sitemap.xml\n`, {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
