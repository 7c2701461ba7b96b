import type { APIRoute } from "astro";
import { site } from "../config/site";

/** Web app manifest, named from the site config. */
export const GET: APIRoute = () =>
  new Response(
    JSON.stringify({
      name: site.name,
      short_name: site.name,
      icons: [
        { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
        { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
        { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
      ],
      theme_color: "#0f2a57",
      background_color: "#ffffff",
      display: "browser",
    }),
    { headers: { "Content-Type": "application/manifest+json" } },
  );
