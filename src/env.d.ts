/// <reference types="astro/client" />

declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrate on the visitor's first interaction with the island (src/lib/interaction-directive.ts). */
    "client:interaction"?: boolean;
    /** Hydrate when the first toast is raised, or on F8 (src/lib/toast-directive.ts). */
    "client:toast"?: boolean;
  }
}
export {};
