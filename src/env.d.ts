/// <reference types="astro/client" />

declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrate when the first toast is raised, or on F8 (src/lib/toast-directive.ts). */
    "client:toast"?: boolean;
    /** Hydrate an island inside a static <dialog>: fetched ahead of need, at the latest on opening (src/lib/dialog-directive.ts). */
    "client:dialog"?: boolean;
  }
}

// Invoker commands (HTML): a button that opens or closes a <dialog> without script.
declare module "react" {
  // Declaration merging needs the original's type parameter, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: "show-modal" | "close" | "request-close" | (string & {});
  }
}
export {};
