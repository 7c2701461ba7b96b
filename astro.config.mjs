// @ts-check
import { defineConfig } from "astro/config";
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { localFunctions } from "./scripts/runtime/vite-functions.mjs";
import { site } from "./src/config/site.ts";
import { DEFAULT_LANGUAGE, LANGUAGES } from "./src/shared/languages.ts";
import copyCheck from "./tools/copy-check/integration.ts";

// Everything here must work offline: no telemetry (ASTRO_TELEMETRY_DISABLED is also set by the
// npm scripts). In `npm run dev`, the functions answer /api/* inside the dev server (localFunctions).

/**
 * Custom hydration: `client:toast` on the first notification (or F8); `client:dialog` for an island
 * inside a static <dialog>, fetched ahead of need and hydrated at the latest when the dialog opens.
 * @type {import("astro").AstroIntegration}
 */
const clientDirectives = {
  name: "client-directives",
  hooks: {
    "astro:config:setup": ({ addClientDirective }) => {
      addClientDirective({ name: "toast", entrypoint: "./src/lib/toast-directive.ts" });
      addClientDirective({ name: "dialog", entrypoint: "./src/lib/dialog-directive.ts" });
    },
  },
};

export default defineConfig({
  site: site.url,
  output: "static",
  trailingSlash: "ignore",
  build: { format: "directory", inlineStylesheets: "always" },
  i18n: {
    locales: [...LANGUAGES],
    defaultLocale: DEFAULT_LANGUAGE,
    routing: { prefixDefaultLocale: true, redirectToDefaultLocale: false },
  },
  // copyCheck: builds refuse copy mistakes before touching dist/; `astro dev` adds the editors' preview.
  integrations: [react(), clientDirectives, copyCheck()],
  image: { service: { entrypoint: "astro/assets/services/noop" } },
  devToolbar: { enabled: false },
  markdown: { syntaxHighlight: false },
  security: {
    csp: {
      algorithm: "SHA-256",
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "manifest-src 'self'",
      ],
    },
  },
  vite: {
    plugins: [tailwindcss(), localFunctions()],
  },
});
